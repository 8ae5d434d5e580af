// Cancellation refunds (docs/rules/booking.md#cancellation-refund-policy): inside the free window a captured deposit is refunded in full;
// outside it the salon keeps it (cancellationFee, depositStatus FORFEIT); a salon cancellation
// always refunds (captured) or voids (authorized); a no-show captures an authorized deposit. The
// preview says exactly what the cancellation then does.
import { expect } from 'chai';
import { call } from '../../support/http';
import { stack } from '../../support/stack';
import { bookOnline, bookingRow, clickCheckout, depositSalon, paymentPage, paymentRows, type DepositSalon, type PublicBooking } from '../../support/payments';
import { knex } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';

async function paidBooking(options: Parameters<typeof depositSalon>[0] = {}): Promise<{ salon: DepositSalon; booking: PublicBooking }> {
  const salon = await depositSalon(options);
  const booking = await bookOnline(salon, 3);
  await clickCheckout((await paymentPage(salon, booking)).redirectUrl!, 'pay');
  const wanted = options.captureMode === 'MANUAL' ? 'AUTHORIZED' : 'PAID';
  await eventually(async () => {
    const b = await bookingRow(booking.id);
    return b.status === 'CONFIRMED' && b.depositStatus === wanted;
  }, `the deposit to be ${wanted}`);
  return { salon, booking };
}

async function preview(salon: DepositSalon, bookingId: string, bySalon: boolean) {
  const res = await call('get', `/bookings/${bookingId}/cancel-preview?bySalon=${bySalon}`, salon.owner.token);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.data;
}

describe('payments: cancellation refunds', function () {
  this.timeout(90_000);

  it('when the customer cancels inside the free window then the captured deposit is refunded in full at the provider and the deposit is REFUNDED', async () => {
    const { salon, booking } = await paidBooking();
    const before = await preview(salon, booking.id, false);
    expect(before).to.include({
      deposit: 'CAPTURED',
      depositAmount: 10000,
      withinFreeWindow: true,
      action: 'REFUND_FULL',
      refundAmount: 10000,
      cancellationFee: 0,
      depositStatusAfter: 'REFUNDED',
    });

    const res = await call('post', `/public/tenants/${salon.tenant.slug}/bookings/${booking.id}/cancel`, undefined, { token: booking.token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [payment] = await paymentRows(booking.id);
    expect(payment).to.include({ status: 'REFUNDED', refundedAmount: 10000 });
    expect(await bookingRow(booking.id)).to.include({ status: 'CANCELLED', depositStatus: 'REFUNDED', cancellationFee: 0 });
    const db = await knex();
    const refund = await eventually(async () => {
      const r = await db('payment_refunds').where({ paymentId: payment.id }).first();
      return r?.status === 'SUCCEEDED' ? r : undefined;
    }, 'the refund to be paid out');
    expect(refund.amount).to.equal(10000);
    const { sandbox, sms } = await stack();
    expect(sandbox.session(payment.providerSessionId)!.refundedAmount).to.equal(10000);
    const message = await eventually(async () => (await sms.sentTo(booking.phone)).find((m) => m.meta?.kind === 'REFUND'), 'the refund SMS');
    expect(message.text).to.contain('Hei Kari Nordmann!').and.contain('har refundert 100 kr til deg').and.not.contain('NOK');
  });

  it('when the customer cancels through the salon outside the free window then nothing is refunded, the fee is the deposit and the deposit is FORFEIT', async () => {
    const { salon, booking } = await paidBooking({ settings: { cancellationHours: 168 } });
    const before = await preview(salon, booking.id, false);
    expect(before).to.include({ withinFreeWindow: false, action: 'FORFEIT', refundAmount: 0, cancellationFee: 10000, depositStatusAfter: 'FORFEIT' });
    const res = await call('post', `/bookings/${booking.id}/cancel`, salon.owner.token, { bySalon: false });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.include({ status: 'CANCELLED', cancellationFee: 10000, depositStatus: 'FORFEIT' });
    const [payment] = await paymentRows(booking.id);
    expect(payment).to.include({ status: 'CAPTURED', refundedAmount: 0 });
    expect(await (await knex())('payment_refunds').where({ paymentId: payment.id })).to.have.length(0);
  });

  it('when the salon cancels outside the window then the captured deposit is still refunded in full', async () => {
    const { salon, booking } = await paidBooking({ settings: { cancellationHours: 168 } });
    expect(await preview(salon, booking.id, true)).to.include({ action: 'REFUND_FULL', refundAmount: 10000, event: 'BookingCancelledBySalon' });
    const res = await call('post', `/bookings/${booking.id}/cancel`, salon.owner.token, { bySalon: true, reason: 'Sykdom' });
    expect(res.status).to.equal(200);
    expect(res.body.data.depositStatus).to.equal('REFUNDED');
    expect((await paymentRows(booking.id))[0]).to.include({ status: 'REFUNDED', refundedAmount: 10000 });
  });

  it('when the salon cancels a booking whose deposit is only authorized then the hold is voided at the provider', async () => {
    const { salon, booking } = await paidBooking({ captureMode: 'MANUAL' });
    expect(await preview(salon, booking.id, true)).to.include({ deposit: 'AUTHORIZED', action: 'VOID', depositStatusAfter: 'VOIDED' });
    const res = await call('post', `/bookings/${booking.id}/cancel`, salon.owner.token, { bySalon: true });
    expect(res.status).to.equal(200);
    const voided = await eventually(async () => {
      const [p] = await paymentRows(booking.id);
      return p.status === 'VOIDED' ? p : undefined;
    }, 'the payment to be voided');
    const { sandbox } = await stack();
    expect(sandbox.session(voided.providerSessionId)!.status).to.equal('VOIDED');
    expect((await bookingRow(booking.id)).depositStatus).to.equal('VOIDED');
  });

  it('when an authorized booking is marked NO_SHOW then the deposit is captured and kept', async () => {
    const { salon, booking } = await paidBooking({ captureMode: 'MANUAL' });
    const res = await call('post', `/bookings/${booking.id}/status/NO_SHOW`, salon.owner.token, { force: true, reason: 'called to say she will not come' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const captured = await eventually(async () => {
      const [p] = await paymentRows(booking.id);
      return p.status === 'CAPTURED' ? p : undefined;
    }, 'the no-show deposit to be captured');
    expect(captured.capturedAmount).to.equal(10000);
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'the deposit to be PAID');
  });

  it('when a booking is cancelled while its checkout is still open then the payment expires and the provider page is closed, so it can no longer be paid', async () => {
    const salon = await depositSalon();
    const booking = await bookOnline(salon);
    const page = await paymentPage(salon, booking);
    const res = await call('post', `/public/tenants/${salon.tenant.slug}/bookings/${booking.id}/cancel`, undefined, { token: booking.token });
    expect(res.status).to.equal(200);
    expect((await paymentRows(booking.id))[0].status).to.equal('EXPIRED');
    const { sandbox } = await stack();
    const [payment] = await paymentRows(booking.id);
    await eventually(async () => sandbox.session(payment.providerSessionId)!.status === 'VOIDED', 'the checkout to be closed at the provider');
    const html = await (await fetch(page.redirectUrl!)).text();
    expect(html).to.not.contain('/pay"');
  });
});
