// Vouchers (docs/rules/loyalty.md). Every transition goes through the change primitive
// (docs/rules/consistency.md#the-change-primitive): a compare-and-set on the status with version + 1,
// an audit row (the detail's timeline), and a signal to `voucher:<id>` before the caller's
// transaction commits; the workflow owns expiry and messages.
import crypto from 'node:crypto';
import type { Db } from '../../db/db-handle';
import type { PageQuery, PageResult } from '../../db/paginate';
import { errors, AppError } from '../errors';
import { servicesFor } from '../availability/availability.service';
import { changeEntity } from '../workflow-signals/entity-change';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import {
  BOOKING_FORFEIT,
  VOUCHER_CODE_RETRIES,
  normaliseVoucherCode,
  voucherCodeFromBytes,
  voucherDiscount,
  voucherExpiresAt,
  type VoucherStatus,
} from './loyalty.rules';
import { voucherContract, type VoucherEventType, type VoucherSnapshot } from './voucher-events.rules';
import * as repo from './loyalty.repository';
import { voucherDto, voucherEventDto, type VoucherDto } from './loyalty.dto';
import { toIsoOrNull } from '../time/iso';
import { tenantCustomerIdOf } from '../customer/tenant-customer.repository';
import { isUniqueViolation } from '../../db/db-errors';
import type { LoyaltyBookingRow } from '../booking/booking-loyalty.repository';

export interface VoucherActor {
  userId: string | null;
  role: string;
}

export const SYSTEM_ACTOR: VoucherActor = { userId: null, role: 'SYSTEM' };

export const voucherErrors = {
  notFound: () => errors.notFound('loyaltyVoucher', 'No voucher with this code in this salon'),
  notOwned: () => errors.unprocessable('LOYALTY_VOUCHER_NOT_OWNED', 'This voucher belongs to another customer'),
  expired: () => errors.unprocessable('LOYALTY_VOUCHER_EXPIRED', 'This voucher has expired'),
  alreadyUsed: () => errors.conflict('LOYALTY_VOUCHER_ALREADY_USED', 'This voucher has already been used or cancelled'),
  reservedOther: () => errors.conflict('LOYALTY_VOUCHER_RESERVED_OTHER', 'This voucher is reserved for another booking'),
};

interface Move {
  from: VoucherStatus;
  changes: Partial<repo.VoucherRow>;
  action: string;
  event: VoucherEventType | null;
  bookingId?: string | null;
  actor: VoucherActor;
  reason?: string | null;
}

/** The CAS transition, its audit row and (when `event`) its signal; undefined when the voucher was no longer in `from`. */
async function moveVoucher(db: Db, signaller: EntitySignaller | null, voucher: repo.VoucherRow, move: Move): Promise<repo.VoucherRow | undefined> {
  return changeEntity(signaller, voucherContract, {
    write: () => repo.transitionVoucher(db, voucher, move.from, move.changes),
    record: (row) =>
      repo.insertVoucherEvent(db, voucher.tenantId, {
        voucherId: voucher.id,
        action: move.action,
        fromStatus: move.from,
        toStatus: row.status,
        bookingId: move.bookingId ?? null,
        actorUserId: move.actor.userId,
        actorRole: move.actor.role,
        reason: move.reason ?? null,
      }),
    event: move.event,
  });
}

/** Code handling (docs/rules/loyalty.md#voucher-codes); 400 VALIDATION_ERROR naming `field` when the input cannot be a code. */
export function parseVoucherCode(input: string, field = 'voucherCode'): string {
  const code = normaliseVoucherCode(input);
  if (!code) {
    throw errors.validation('Request validation failed', [
      { field, message: 'a voucher code looks like STAMP-XXXX-XXXX, from 0-9 and A-Z without I, L, O and U' },
    ]);
  }
  return code;
}

/** Why the voucher cannot be applied now (status and expiry), or nothing. */
function unusable(v: repo.VoucherRow, now: Date): AppError | undefined {
  if (v.status === 'REDEEMED' || v.status === 'CANCELLED') return voucherErrors.alreadyUsed();
  if (v.status === 'EXPIRED' || (v.status === 'ACTIVE' && v.expiresAt && new Date(v.expiresAt).getTime() <= now.getTime())) return voucherErrors.expired();
  if (v.status === 'RESERVED') return voucherErrors.reservedOther();
  return undefined;
}

export interface Reservation {
  appliedVoucherId: string;
  discountAmount: number;
}

/**
 * ACTIVE -> RESERVED for a booking being inserted in the same transaction (docs/rules/loyalty.md#applying-a-voucher): the
 * voucher must be this salon's, the booking customer's, not expired and not in use. Of two bookings
 * racing for one voucher the compare-and-set lets exactly one through; the other gets
 * LOYALTY_VOUCHER_ALREADY_USED (and bookings.applied_voucher_id is unique as a second guard).
 */
export async function reserveVoucherForBooking(
  trx: Db,
  signaller: EntitySignaller,
  input: { tenantId: string; code: string; customerId: string | null; bookingId: string; bookingTotal: number; actor: VoucherActor; now: Date },
): Promise<Reservation> {
  const code = parseVoucherCode(input.code);
  const voucher = await repo.findVoucherByCode(trx, input.tenantId, code);
  if (!voucher) throw voucherErrors.notFound();
  const owner = input.customerId ? await tenantCustomerIdOf(trx, input.tenantId, input.customerId) : undefined;
  if (!owner || owner !== voucher.tenantCustomerId) throw voucherErrors.notOwned();
  const problem = unusable(voucher, input.now);
  if (problem) throw problem;
  const reserved = await moveVoucher(trx, signaller, voucher, {
    from: 'ACTIVE',
    changes: { status: 'RESERVED', reservedBookingId: input.bookingId, reservedAt: input.now },
    action: 'RESERVED',
    event: 'VoucherReserved',
    bookingId: input.bookingId,
    actor: input.actor,
  });
  if (!reserved) throw voucherErrors.alreadyUsed();
  return { appliedVoucherId: voucher.id, discountAmount: voucherDiscount(voucher, input.bookingTotal) };
}

/**
 * The cancellation edge (docs/rules/loyalty.md#vouchers): a voucher RESERVED for the cancelled booking goes back to ACTIVE
 * (VoucherRestored, the customer is told) unless a captured payment was kept, in which case it is
 * CANCELLED with reason BOOKING_FORFEIT (VoucherForfeited, no message). Returns the booking columns
 * the cancellation writes with it: a restored voucher is released from the booking.
 * `capturedPaymentKept` is false until payments exist; the payment context decides it.
 */
export async function releaseVoucherOnCancellation(
  trx: Db,
  signaller: EntitySignaller,
  booking: { id: string; tenantId: string; appliedVoucherId: string | null },
  capturedPaymentKept: boolean,
  actor: VoucherActor,
  now: Date,
): Promise<{ appliedVoucherId?: null; discountAmount?: number }> {
  if (!booking.appliedVoucherId) return {};
  const voucher = await repo.findVoucher(trx, booking.tenantId, booking.appliedVoucherId);
  if (!voucher || voucher.status !== 'RESERVED' || voucher.reservedBookingId !== booking.id) return {};
  const release = { reservedBookingId: null, reservedAt: null };
  if (capturedPaymentKept) {
    await moveVoucher(trx, signaller, voucher, {
      from: 'RESERVED',
      changes: { ...release, status: 'CANCELLED', cancelledAt: now, cancelledReason: BOOKING_FORFEIT },
      action: 'FORFEITED',
      event: 'VoucherForfeited',
      bookingId: booking.id,
      actor,
      reason: BOOKING_FORFEIT,
    });
    return {};
  }
  const restored = await moveVoucher(trx, signaller, voucher, {
    from: 'RESERVED',
    changes: { ...release, status: 'ACTIVE' },
    action: 'RESTORED',
    event: 'VoucherRestored',
    bookingId: booking.id,
    actor,
  });
  return restored ? { appliedVoucherId: null, discountAmount: 0 } : {};
}

/** RESERVED -> REDEEMED when the booking completes: discountApplied = min(reward, booking total). */
export async function redeemVoucherForBooking(
  trx: Db,
  signaller: EntitySignaller,
  booking: LoyaltyBookingRow,
  now: Date,
): Promise<repo.VoucherRow | undefined> {
  if (!booking.appliedVoucherId) return undefined;
  const voucher = await repo.findVoucher(trx, booking.tenantId, booking.appliedVoucherId);
  if (!voucher || voucher.status !== 'RESERVED' || voucher.reservedBookingId !== booking.id) return undefined;
  return moveVoucher(trx, signaller, voucher, {
    from: 'RESERVED',
    changes: {
      status: 'REDEEMED',
      reservedBookingId: null,
      reservedAt: null,
      redeemedBookingId: booking.id,
      redeemedAt: now,
      discountApplied: voucherDiscount(voucher, booking.totalAmount),
    },
    action: 'REDEEMED',
    event: 'VoucherRedeemed',
    bookingId: booking.id,
    actor: SYSTEM_ACTOR,
  });
}

function randomCode(): string {
  return voucherCodeFromBytes(crypto.randomBytes(8));
}

/**
 * Inserts the voucher of a completed cycle (docs/rules/loyalty.md) in the caller's transaction: reward
 * snapshot from the card, expiresAt from voucherExpiryMonths, a fresh code (regenerated at most
 * VOUCHER_CODE_RETRIES times on a clash, each attempt in its own savepoint).
 */
export async function issueVoucher(
  trx: Db,
  signaller: EntitySignaller,
  input: { card: repo.CardRow; tenantCustomerId: string; cycleNumber: number; bookingId: string | null; now: Date },
  generateCode: () => string = randomCode,
): Promise<repo.VoucherRow> {
  const { card } = input;
  for (let attempt = 0; attempt <= VOUCHER_CODE_RETRIES; attempt++) {
    try {
      const voucher = await changeEntity(signaller, voucherContract, {
        // the insert in its own savepoint, so a clashing code can be drawn again
        write: () =>
          trx.transaction((sp) =>
            repo.insertVoucher(sp, {
              tenantId: card.tenantId,
              loyaltyCardId: card.id,
              tenantCustomerId: input.tenantCustomerId,
              code: generateCode(),
              rewardType: card.rewardType!,
              rewardValue: card.rewardValue!,
              issuedAt: input.now,
              expiresAt: voucherExpiresAt(input.now, card.voucherExpiryMonths),
              issuedFromCycleNumber: input.cycleNumber,
              issuedFromBookingId: input.bookingId,
            }),
          ),
        record: (v) =>
          repo.insertVoucherEvent(trx, card.tenantId, {
            voucherId: v.id,
            action: 'ISSUED',
            fromStatus: null,
            toStatus: 'ACTIVE',
            bookingId: input.bookingId,
            actorUserId: null,
            actorRole: 'SYSTEM',
            reason: null,
          }),
        event: 'VoucherIssued',
      });
      return voucher;
    } catch (err) {
      if (!isUniqueViolation(err, 'loyalty_vouchers_tenant_code_unique')) throw err;
    }
  }
  throw errors.conflict('LOYALTY_VOUCHER_CODE_EXHAUSTED', `No free voucher code after ${VOUCHER_CODE_RETRIES} retries`);
}

/** The voucher workflow's timer fired: ACTIVE -> EXPIRED when `expiresAt` <= `at` (the workflow clock). */
export async function expireVoucherIfDue(db: Db, voucherId: string, at: Date): Promise<'EXPIRED' | 'NOT_DUE' | 'NOT_ACTIVE'> {
  return db.transaction(async (trx) => {
    const voucher = await repo.findVoucherById(trx, voucherId);
    if (!voucher || voucher.status !== 'ACTIVE') return 'NOT_ACTIVE';
    if (!voucher.expiresAt || new Date(voucher.expiresAt).getTime() > at.getTime()) return 'NOT_DUE';
    const moved = await moveVoucher(trx, null, voucher, {
      from: 'ACTIVE',
      changes: { status: 'EXPIRED' },
      action: 'EXPIRED',
      event: null,
      actor: SYSTEM_ACTOR,
    });
    return moved ? 'EXPIRED' : 'NOT_ACTIVE';
  });
}

/** Committed state for the voucher workflow. */
export async function voucherSnapshot(db: Db, voucherId: string): Promise<VoucherSnapshot | undefined> {
  const v = await repo.findVoucherById(db, voucherId);
  if (!v) return undefined;
  const restoredCount = await repo.countVoucherEvents(db, voucherId, 'RESTORED');
  return { voucherId: v.id, tenantId: v.tenantId, status: v.status, version: v.version, expiresAt: toIsoOrNull(v.expiresAt), restoredCount };
}

// ---- owner routes

export interface VoucherListQuery extends PageQuery {
  status?: string;
  customerId?: string;
  tenantCustomerId?: string;
  loyaltyCardId?: string;
}

export async function listVouchers(db: Db, tenantId: string, query: VoucherListQuery): Promise<PageResult<VoucherDto>> {
  const status = query.status
    ? (String(query.status)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean) as VoucherStatus[])
    : undefined;
  const allowed: VoucherStatus[] = ['ACTIVE', 'RESERVED', 'REDEEMED', 'EXPIRED', 'CANCELLED'];
  const wrong = status?.find((s) => !allowed.includes(s));
  if (wrong) throw errors.validation('Request validation failed', [{ field: 'status', message: `unknown status ${wrong}; one of ${allowed.join(', ')}` }]);
  const page = await repo.pageOfVouchers(
    db,
    tenantId,
    { status, customerId: query.customerId, tenantCustomerId: query.tenantCustomerId, loyaltyCardId: query.loyaltyCardId },
    { page: Number(query.page ?? 1), limit: Number(query.limit ?? 20) },
  );
  return { ...page, rows: page.rows.map(voucherDto) };
}

async function existingVoucher(db: Db, tenantId: string, id: string): Promise<repo.VoucherRow> {
  const v = await repo.findVoucher(db, tenantId, id);
  if (!v) throw errors.notFound('loyaltyVoucher');
  return v;
}

export async function getVoucherDetail(db: Db, tenantId: string, id: string) {
  const v = await existingVoucher(db, tenantId, id);
  return { ...voucherDto(v), timeline: (await repo.voucherEvents(db, tenantId, id)).map(voucherEventDto) };
}

/** Owner revokes an ACTIVE voucher with a reason. A RESERVED one is refused: cancel its booking first. */
export async function cancelVoucher(db: Db, signaller: EntitySignaller, tenantId: string, id: string, reason: string, actor: VoucherActor, now: Date) {
  const trimmed = reason.trim();
  if (!trimmed) throw errors.validation('Request validation failed', [{ field: 'reason', message: 'is required' }]);
  await db.transaction(async (trx) => {
    const v = await existingVoucher(trx, tenantId, id);
    if (v.status === 'RESERVED')
      throw errors.conflict('LOYALTY_VOUCHER_RESERVED_OTHER', `This voucher is reserved for booking ${v.reservedBookingId}; cancel that booking first`);
    if (v.status === 'EXPIRED') throw voucherErrors.expired();
    if (v.status !== 'ACTIVE') throw voucherErrors.alreadyUsed();
    const moved = await moveVoucher(trx, signaller, v, {
      from: 'ACTIVE',
      changes: { status: 'CANCELLED', cancelledAt: now, cancelledReason: trimmed },
      action: 'CANCELLED',
      event: 'VoucherCancelled',
      actor,
      reason: trimmed,
    });
    if (!moved) throw voucherErrors.alreadyUsed();
  });
  return getVoucherDetail(db, tenantId, id);
}

// ---- public preview

/**
 * POST /public/tenants/:slug/vouchers/preview: what the code would take off these services, without
 * reserving it. Ownership is checked when the booking is made (the portal caller is not known here).
 */
export async function previewVoucher(db: Db, tenantId: string, input: { code: string; items: { serviceId: string }[] }, now: Date) {
  const code = parseVoucherCode(input.code, 'code');
  const services = await servicesFor(
    db,
    tenantId,
    input.items.map((i) => i.serviceId),
  );
  const voucher = await repo.findVoucherByCode(db, tenantId, code);
  if (!voucher) throw voucherErrors.notFound();
  const problem = unusable(voucher, now);
  if (problem) throw problem;
  const totalAmount = input.items.reduce((sum, i) => sum + services.get(i.serviceId)!.price, 0);
  const discountApplied = voucherDiscount(voucher, totalAmount);
  return {
    voucherId: voucher.id,
    code: voucher.code,
    rewardType: voucher.rewardType,
    rewardValue: voucher.rewardValue,
    expiresAt: toIsoOrNull(voucher.expiresAt),
    totalAmount,
    discountApplied,
    payable: totalAmount - discountApplied,
  };
}
