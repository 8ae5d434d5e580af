// Loyalty meets payments (docs/rules/loyalty.md#applying-a-voucher, docs/rules/payments.md#deposits): the deposit is taken on the payable after the voucher's
// discount, a redeemed voucher is unchanged by a later partial refund, and a cancellation that
// keeps the captured deposit forfeits the voucher instead of restoring it.
import { expect } from 'chai';
import { call } from '../../support/http';
import { stack } from '../../support/stack';
import { at, knex, localDay } from '../../support/booking-fixtures';
import { signInWithProvenPhone, type TestCustomer } from '../../support/customers';
import { bookOnline, bookingRow, clickCheckout, depositSalon, paymentPage, paymentRows, type DepositSalon } from '../../support/payments';
import { issueVoucher } from '../../../domain/loyalty/loyalty-voucher.service';
import { findCard } from '../../../domain/loyalty/loyalty.repository';
import { visitCard } from '../../support/loyalty';
import { eventually } from '../../support/eventually';

type ProvenCustomer = TestCustomer & { phone: string };

/**
 * A voucher worth 200 NOK for the account's customer record in this salon (made by a first, unpaid
 * booking with the phone the account proved, so the record is the account's:
 * docs/rules/customers.md#linking-an-account).
 */
async function voucherFor(salon: DepositSalon, account: ProvenCustomer) {
  const db = await knex();
  const first = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, account.accessToken, {
    startTime: at(localDay(5), '12:00'),
    items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
    customer: { name: 'Kari Nordmann', phone: account.phone, email: account.email },
  });
  expect(first.status, JSON.stringify(first.body)).to.equal(201);
  const { customerId } = await db('bookings').where({ id: first.body.data.id }).first('customerId');
  const tc = await db('tenant_customers').where({ tenantId: salon.tenant.id, customerId }).first('id');
  const card = (await findCard(db, salon.tenant.id, (await visitCard(salon)).id))!;
  const { signaller } = await stack();
  return db.transaction((trx) => issueVoucher(trx, signaller, { card, tenantCustomerId: tc.id, cycleNumber: 1, bookingId: null, now: new Date() }));
}

async function bookWithVoucher(salon: DepositSalon, account: ProvenCustomer, code: string, days: number) {
  const res = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, account.accessToken, {
    startTime: at(localDay(days), '10:00'),
    items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
    customer: { name: 'Kari Nordmann', phone: account.phone, email: account.email },
    voucherCode: code,
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  expect(res.body.data.paymentRequired).to.equal(true);
  return {
    id: res.body.data.id as string,
    token: res.body.data.manageToken as string,
    status: res.body.data.status as string,
    paymentRequired: true,
    phone: account.phone,
  };
}

describe('loyalty with deposits', function () {
  this.timeout(120_000);

  it('when a voucher booking is paid, completed and then partly refunded then the deposit was on the discounted payable and the voucher stays REDEEMED', async () => {
    const salon = await depositSalon();
    const account = await signInWithProvenPhone();
    const voucher = await voucherFor(salon, account);
    const booking = await bookWithVoucher(salon, account, voucher.code, 3);
    const row = await bookingRow(booking.id);
    expect(row).to.include({ totalAmount: 50000, discountAmount: 20000 });
    const [deposit] = await paymentRows(booking.id);
    expect(deposit.amount).to.equal(6000); // 20 % of 500 - 200 NOK

    const page = await paymentPage(salon, booking);
    await clickCheckout(page.redirectUrl!, 'pay');
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'deposit PAID');
    await eventually(async () => (await bookingRow(booking.id)).status === 'CONFIRMED', 'booking CONFIRMED');
    for (const to of ['IN_PROGRESS', 'COMPLETED'])
      expect(
        (await call('post', `/bookings/${booking.id}/status/${to}`, salon.owner.token, { force: true, reason: 'the customer came a day early' })).status,
      ).to.equal(200);
    const redeemed = await eventually(async () => {
      const v = await (await knex())('loyalty_vouchers').where({ id: voucher.id }).first();
      return v.status === 'REDEEMED' ? v : undefined;
    }, 'the voucher redeemed at completion');
    expect(redeemed.discountApplied).to.equal(20000);

    const refund = await call('post', `/admin/payments/${page.paymentId}/refund`, salon.owner.token, { amount: 2000, reason: 'Goodwill' });
    expect(refund.status, JSON.stringify(refund.body)).to.equal(200);
    expect(refund.body.data).to.include({ status: 'PARTIALLY_REFUNDED', refundedAmount: 2000 });
    const after = await (await knex())('loyalty_vouchers').where({ id: voucher.id }).first();
    expect(after).to.include({ status: 'REDEEMED', discountApplied: 20000, redeemedBookingId: booking.id });
  });

  it('when the customer cancels late (through the salon) and the captured deposit is kept then the voucher is forfeited, not restored', async () => {
    const salon = await depositSalon({ settings: { cancellationHours: 168 } });
    const account = await signInWithProvenPhone();
    const voucher = await voucherFor(salon, account);
    const booking = await bookWithVoucher(salon, account, voucher.code, 3);
    await clickCheckout((await paymentPage(salon, booking)).redirectUrl!, 'pay');
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'deposit PAID');
    const cancel = await call('post', `/bookings/${booking.id}/cancel`, salon.owner.token, { bySalon: false, reason: 'Kunden ringte' });
    expect(cancel.status, JSON.stringify(cancel.body)).to.equal(200);
    expect(await bookingRow(booking.id)).to.include({ status: 'CANCELLED', depositStatus: 'FORFEIT' });
    expect(await (await knex())('loyalty_vouchers').where({ id: voucher.id }).first()).to.include({ status: 'CANCELLED', cancelledReason: 'BOOKING_FORFEIT' });
  });
});
