// Failed payments (docs/rules/payments.md#failures-and-retry): TRANSIENT failures set RETRY_PENDING and never cancel;
// PERMANENT ones count toward the cap of 3, and the third cancels the booking by SYSTEM with
// PAYMENT_RETRY_EXHAUSTED. The customer retries with the booking's manage token.
import { expect } from 'chai';
import { call } from '../../support/http';
import { knex } from '../../support/booking-fixtures';
import { signInCustomer } from '../../support/customers';
import { bookOnline, bookingRow, clickCheckout, depositSalon, paymentPage, paymentRows, type DepositSalon, type PublicBooking } from '../../support/payments';
import { eventually } from '../../support/eventually';

async function retry(salon: DepositSalon, booking: PublicBooking, token = booking.token) {
  return call('post', `/public/tenants/${salon.tenant.slug}/bookings/${booking.id}/payment/retry`, undefined, { token });
}

describe('payments: failures and the customer retry', function () {
  this.timeout(90_000);

  it('when the provider fails transiently then the deposit is RETRY_PENDING, the booking stays PENDING, and a retry makes a new payment with the same amount and a new key', async () => {
    const salon = await depositSalon();
    const booking = await bookOnline(salon);
    await clickCheckout((await paymentPage(salon, booking)).redirectUrl!, 'fail');
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'RETRY_PENDING', 'RETRY_PENDING');
    const [failed] = await paymentRows(booking.id);
    expect(failed).to.include({ status: 'FAILED', failureKind: 'TRANSIENT', failedCount: 0 });
    expect((await bookingRow(booking.id)).status).to.equal('PENDING');

    const res = await retry(salon, booking);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data).to.include({ status: 'INITIATED', amount: failed.amount });
    expect(res.body.data.redirectUrl).to.be.a('string');
    const [, second] = await paymentRows(booking.id);
    expect(second.idempotencyKey).to.not.equal(failed.idempotencyKey);
    expect(second).to.include({ intent: failed.intent, captureMode: failed.captureMode, amount: failed.amount });
    expect((await bookingRow(booking.id)).depositStatus).to.equal('PENDING');
    // a second retry while the new one is open is refused
    const twice = await retry(salon, booking);
    expect(twice.status).to.equal(409);
    expect(twice.body.error.code).to.equal('PAYMENT_NOT_RETRYABLE');

    await clickCheckout(res.body.data.redirectUrl, 'pay');
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'the retried payment to be paid');
  });

  it('when the signed-in customer who booked retries then no token is needed; another customer gets 404', async () => {
    const salon = await depositSalon();
    const owner = await signInCustomer();
    const booking = await bookOnline(salon, 3, '10:00', owner.accessToken);
    await clickCheckout((await paymentPage(salon, booking)).redirectUrl!, 'fail');
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'RETRY_PENDING', 'RETRY_PENDING');
    const path = `/public/tenants/${salon.tenant.slug}/bookings/${booking.id}/payment/retry`;
    const stranger = await call('post', path, (await signInCustomer()).accessToken, {});
    expect(stranger.status).to.equal(404);
    expect(stranger.body.error.code).to.equal('BOOKING_NOT_FOUND');
    const res = await call('post', path, owner.accessToken, {});
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data).to.include({ status: 'INITIATED' });
  });

  it('when the retry does not carry the booking token then 404 BOOKING_NOT_FOUND', async () => {
    const salon = await depositSalon();
    const booking = await bookOnline(salon);
    const res = await retry(salon, booking, 'not-the-token');
    expect(res.status).to.equal(404);
    expect(res.body.error.code).to.equal('BOOKING_NOT_FOUND');
  });

  it('when the card is declined three times then the third cancels the booking by SYSTEM with PAYMENT_RETRY_EXHAUSTED and no fourth retry is allowed', async () => {
    const salon = await depositSalon();
    const booking = await bookOnline(salon);
    let redirect = (await paymentPage(salon, booking)).redirectUrl!;
    for (let attempt = 1; attempt <= 3; attempt++) {
      await clickCheckout(redirect, 'decline');
      if (attempt < 3) {
        await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'RETRY_PENDING', `RETRY_PENDING after decline ${attempt}`);
        const res = await retry(salon, booking);
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        redirect = res.body.data.redirectUrl;
      }
    }
    const cancelled = await eventually(async () => {
      const b = await bookingRow(booking.id);
      return b.status === 'CANCELLED' ? b : undefined;
    }, 'the booking to be cancelled');
    expect(cancelled).to.include({ cancelledBy: 'SYSTEM', cancelReason: 'PAYMENT_RETRY_EXHAUSTED' });
    const payments = await paymentRows(booking.id);
    expect(payments.map((p: { failedCount: number }) => p.failedCount)).to.deep.equal([1, 2, 3]);
    const audit = await (await knex())('booking_audit_logs').where({ bookingId: booking.id, action: 'CANCELLED' });
    expect(audit).to.have.length(1);
    expect(audit[0]).to.include({ actorRole: 'SYSTEM', reason: 'PAYMENT_RETRY_EXHAUSTED' });
    const fourth = await retry(salon, booking);
    expect(fourth.status).to.equal(422);
    expect(fourth.body.error.code).to.equal('PAYMENT_RETRY_CAP');
  });
});
