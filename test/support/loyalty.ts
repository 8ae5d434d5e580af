// Shared steps of the loyalty tests: a salon with a 500 kr service, a customer, visit cards, staff
// bookings (in the past, recorded after the fact, so each gets its own free slot) and completion.
import { expect } from 'chai';
import { call } from './http';
import { at, bookingSalon, knex, localDay, type BookingSalon } from './booking-fixtures';
import { unique } from './factories';
import { eventually } from './eventually';

export interface LoyaltyCustomer {
  customerId: string;
  tenantCustomerId: string;
  phone: string;
}

export async function addCustomer(s: BookingSalon, fields: { email?: string } = {}): Promise<LoyaltyCustomer> {
  const phone = `+479${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const res = await call('post', '/customers', s.owner.token, { name: unique('Kari'), phone, ...(fields.email ? { email: fields.email } : {}) });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  const tc = await (await knex())('tenant_customers').where({ tenantId: s.tenant.id, customerId: res.body.data.id }).first('id');
  return { customerId: res.body.data.id, tenantCustomerId: tc.id, phone };
}

export async function visitCard(s: BookingSalon, fields: Record<string, unknown> = {}) {
  const res = await call('post', '/loyalty-cards', s.owner.token, {
    name: 'Stempelkort',
    type: 'VISIT_BASED',
    requiredStamps: 5,
    rewardType: 'DISCOUNT_AMOUNT',
    rewardValue: 20000,
    ...fields,
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { id: string; requiredStamps: number };
}

let slot = 0;

/** A staff booking for the customer; by default in the past (a distinct day per call), or `daysAhead` in the future. */
export async function staffBooking(s: BookingSalon, customer: LoyaltyCustomer | null, opts: { voucherCode?: string; daysAhead?: number; time?: string } = {}) {
  slot += 1;
  const day = opts.daysAhead !== undefined ? localDay(opts.daysAhead) : localDay(-1 - (slot % 300));
  const res = await call('post', '/bookings', s.owner.token, {
    startTime: at(day, opts.time ?? '10:00'),
    items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
    ...(customer ? { customerId: customer.customerId } : {}),
    ...(opts.voucherCode !== undefined ? { voucherCode: opts.voucherCode } : {}),
  });
  return res;
}

export async function bookOk(s: BookingSalon, customer: LoyaltyCustomer | null, opts: { voucherCode?: string; daysAhead?: number; time?: string } = {}) {
  const res = await staffBooking(s, customer, opts);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { id: string; totalAmount: number; discountAmount: number; appliedVoucherId: string | null };
}

export async function complete(s: BookingSalon, bookingId: string): Promise<void> {
  for (const to of ['IN_PROGRESS', 'COMPLETED']) {
    const res = await call('post', `/bookings/${bookingId}/status/${to}`, s.owner.token);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }
}

/** Waits until the worker has run the completion step of the booking. */
export async function processed(bookingId: string): Promise<void> {
  await eventually(
    async () => (await (await knex())('bookings').where({ id: bookingId }).first('processedForLoyalty')).processedForLoyalty,
    `loyalty processing of ${bookingId}`,
  );
}

export async function vouchersOf(tenantCustomerId: string) {
  return (await knex())('loyalty_vouchers').where({ tenantCustomerId }).orderBy('issuedFromCycleNumber');
}

export { bookingSalon };
export type { BookingSalon };
