// A customer's loyalty as staff see it (GET /loyalty-cards/customer/:id, /customers/:id/loyalty) and
// as the signed-in customer sees it (/customer/me/loyalty, /customer/loyalty/vouchers,
// /customer/loyalty/stamps/:tenantSlug). The customer functions take the customer rows the signed-in
// account owns (one per salon) and never return another customer's data.
import type { Db } from '../../db/db-handle';
import { errors } from '../errors';
import * as repo from './loyalty.repository';
import { cardDto, stampDto, voucherDto } from './loyalty.dto';
import { pointsValue } from './loyalty.rules';
import { writeOffExpiredPoints } from './loyalty-points.service';
import { tenantCustomerExists, tenantCustomersOfCustomers } from '../customer/tenant-customer.repository';

/** Stamp progress (visit cards) or balance (points cards) of one tenant customer on every card of the salon. */
async function progressOn(db: Db, tenantId: string, tenantCustomerId: string, cards: repo.CardRow[], now: Date) {
  const balances = new Map((await repo.balancesOfTenantCustomer(db, tenantId, tenantCustomerId)).map((b) => [b.loyaltyCardId, b.balance]));
  const out = [];
  for (const card of cards) {
    if (card.type === 'VISIT_BASED') {
      const vouchersIssued = await repo.countVouchersIssued(db, card.id, tenantCustomerId);
      const currentCycle = vouchersIssued + 1;
      const stampsInCycle = await repo.countStampsInCycle(db, card.id, tenantCustomerId, currentCycle);
      out.push({
        card: cardDto(card),
        currentCycle,
        stampsInCycle,
        requiredStamps: card.requiredStamps!,
        stampsToNextVoucher: Math.max(0, card.requiredStamps! - stampsInCycle),
        vouchersIssued,
        pointsBalance: null,
      });
    } else {
      // a customer with a balance row has points transactions: write off what has expired first
      const balance = balances.has(card.id) ? await db.transaction((trx) => writeOffExpiredPoints(trx, tenantId, card.id, tenantCustomerId, now)) : 0;
      out.push({
        card: cardDto(card),
        currentCycle: null,
        stampsInCycle: null,
        requiredStamps: null,
        stampsToNextVoucher: null,
        vouchersIssued: null,
        pointsBalance: { balance, value: pointsValue(balance, card.redeemRate!) },
      });
    }
  }
  return out;
}

async function assertTenantCustomer(db: Db, tenantId: string, tenantCustomerId: string): Promise<void> {
  if (!(await tenantCustomerExists(db, tenantId, tenantCustomerId))) throw errors.notFound('tenantCustomer');
}

/** GET /loyalty-cards/customer/:tenantCustomerId: the customer's progress on every card. */
export async function cardsOfCustomer(db: Db, tenantId: string, tenantCustomerId: string, now: Date) {
  await assertTenantCustomer(db, tenantId, tenantCustomerId);
  return progressOn(db, tenantId, tenantCustomerId, await repo.cardsOfTenant(db, tenantId), now);
}

/** GET /customers/:tenantCustomerId/loyalty: stamp progress, points and every voucher. */
export async function customerLoyalty(db: Db, tenantId: string, tenantCustomerId: string, now: Date) {
  const cards = await cardsOfCustomer(db, tenantId, tenantCustomerId, now);
  const vouchers = (await repo.vouchersOfTenantCustomer(db, tenantId, tenantCustomerId)).map(voucherDto);
  return { tenantCustomerId, cards, vouchers };
}

/** GET /loyalty-cards/:id/stamps/:tenantCustomerId: progress in the current cycle and every stamp. */
export async function stampsOnCard(db: Db, tenantId: string, cardId: string, tenantCustomerId: string, now: Date) {
  const card = await repo.findCard(db, tenantId, cardId);
  if (!card) throw errors.notFound('loyaltyCard');
  if (card.type !== 'VISIT_BASED') throw errors.unprocessable('LOYALTY_CARD_WRONG_TYPE', 'This is not a VISIT_BASED card');
  await assertTenantCustomer(db, tenantId, tenantCustomerId);
  const [progress] = await progressOn(db, tenantId, tenantCustomerId, [card], now);
  return { ...progress, tenantCustomerId, stamps: (await repo.stampsOf(db, tenantId, cardId, tenantCustomerId)).map(stampDto) };
}

// ---- the signed-in customer (the customer-accounts module resolves the account to its customer rows)

/** /customer/loyalty/vouchers: ACTIVE and RESERVED vouchers across salons. */
export async function customerVouchers(db: Db, customerIds: string[]) {
  const rows = await repo.vouchersOfCustomers(db, customerIds, ['ACTIVE', 'RESERVED']);
  return rows.map((v) => ({ ...voucherDto(v), tenantName: v.tenantName, tenantSlug: v.tenantSlug }));
}

/** /customer/loyalty/stamps/:tenantSlug: stamp progress in one salon; 404 TENANT_NOT_FOUND when the customer has no record there. */
export async function customerStampsAt(db: Db, customerIds: string[], tenantSlug: string, now: Date) {
  const tc = (await tenantCustomersOfCustomers(db, customerIds)).find((t) => t.tenantSlug === tenantSlug);
  if (!tc) throw errors.notFound('tenant');
  const cards = await repo.activeCards(db, tc.tenantId, 'VISIT_BASED');
  return { tenantName: tc.tenantName, tenantSlug: tc.tenantSlug, cards: await progressOn(db, tc.tenantId, tc.tenantCustomerId, cards, now) };
}

/** /customer/me/loyalty: per salon, progress on its active cards and the usable vouchers. */
export async function customerLoyaltyOverview(db: Db, customerIds: string[], now: Date) {
  const out = [];
  for (const tc of await tenantCustomersOfCustomers(db, customerIds)) {
    const cards = await progressOn(db, tc.tenantId, tc.tenantCustomerId, await repo.activeCards(db, tc.tenantId), now);
    const vouchers = (await repo.vouchersOfTenantCustomer(db, tc.tenantId, tc.tenantCustomerId, ['ACTIVE', 'RESERVED'])).map(voucherDto);
    if (cards.length || vouchers.length) out.push({ tenantName: tc.tenantName, tenantSlug: tc.tenantSlug, cards, vouchers });
  }
  return out;
}
