// What a completed booking earns (docs/rules/loyalty.md#completion), run once per booking by the
// booking workflow's completion step inside its transaction:
//   1. compare-and-set claim on bookings.processed_for_loyalty (a second run does nothing);
//   2. the voucher RESERVED for the booking is REDEEMED;
//   3. per active VISIT_BASED card: one stamp per booking (however many services) in the current
//      cycle when the paid amount reaches minBookingValue; the stamp that reaches requiredStamps
//      issues the cycle's voucher in the same transaction;
//   4. per active POINTS_BASED card: earnRate points per whole currency unit paid (expired points
//      are written off first).
// Concurrent completions of one customer's bookings are serialised on the tenant customer's row.
import type { Db } from '../../db/db-handle';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { nextStamp, pointsEarned, qualifiesForStamp, voucherExpiresAt } from './loyalty.rules';
import * as repo from './loyalty.repository';
import { issueVoucher, redeemVoucherForBooking } from './loyalty-voucher.service';
import { writeOffExpiredPoints } from './loyalty-points.service';
import { claimBookingForLoyalty, serviceIdsOfBooking } from '../booking/booking-loyalty.repository';
import { insertTenantCustomerIfMissing, lockTenantCustomer } from '../customer/tenant-customer.repository';

export interface LoyaltyOutcome {
  claimed: boolean;
  stamps: number;
  vouchersIssued: string[];
  pointsEarned: number;
  voucherRedeemed: string | null;
}

function earnsOn(card: repo.CardRow, bookingServiceIds: string[]): boolean {
  // the older whitelist: empty = every service
  return !card.serviceIds?.length || bookingServiceIds.some((id) => card.serviceIds.includes(id));
}

export async function processCompletedBooking(trx: Db, signaller: EntitySignaller, bookingId: string, now: Date): Promise<LoyaltyOutcome> {
  const outcome: LoyaltyOutcome = { claimed: false, stamps: 0, vouchersIssued: [], pointsEarned: 0, voucherRedeemed: null };
  const booking = await claimBookingForLoyalty(trx, bookingId);
  if (!booking) return outcome;
  outcome.claimed = true;
  outcome.voucherRedeemed = (await redeemVoucherForBooking(trx, signaller, booking, now))?.id ?? null;
  if (!booking.customerId) return outcome;
  const { tenantId } = booking;
  await insertTenantCustomerIfMissing(trx, tenantId, booking.customerId);
  const tenantCustomerId = (await lockTenantCustomer(trx, { tenantId, customerId: booking.customerId }))!.id;
  const paid = Math.max(0, booking.totalAmount - booking.discountAmount);
  const serviceIds = await serviceIdsOfBooking(trx, bookingId);

  for (const card of await repo.activeCards(trx, tenantId)) {
    if (!earnsOn(card, serviceIds)) continue;
    if (card.type === 'VISIT_BASED') {
      if (!qualifiesForStamp(paid, card.minBookingValue)) continue;
      const issued = await repo.countVouchersIssued(trx, card.id, tenantCustomerId);
      const inCycle = await repo.countStampsInCycle(trx, card.id, tenantCustomerId, issued + 1);
      const next = nextStamp(issued, inCycle, card.requiredStamps!);
      const stamp = await repo.insertStampOnce(trx, {
        tenantId,
        loyaltyCardId: card.id,
        tenantCustomerId,
        bookingId,
        stampNumber: next.stampNumber,
        cycleNumber: next.cycleNumber,
      });
      if (!stamp) continue;
      outcome.stamps += 1;
      if (next.completesCycle) {
        const voucher = await issueVoucher(trx, signaller, { card, tenantCustomerId, cycleNumber: next.cycleNumber, bookingId, now });
        outcome.vouchersIssued.push(voucher.id);
      }
    } else {
      const points = pointsEarned(paid, card.earnRate!);
      if (points <= 0 || (await repo.hasEarnedFor(trx, card.id, bookingId))) continue;
      const balance = (await writeOffExpiredPoints(trx, tenantId, card.id, tenantCustomerId, now)) + points;
      await repo.insertPointsTransaction(trx, tenantId, {
        loyaltyCardId: card.id,
        tenantCustomerId,
        type: 'EARN',
        points,
        balanceAfter: balance,
        bookingId,
        reason: null,
        actorUserId: null,
        expiresAt: voucherExpiresAt(now, card.expiryMonths),
      });
      await repo.setBalance(trx, card.id, tenantCustomerId, balance);
      outcome.pointsEarned += points;
    }
  }
  return outcome;
}
