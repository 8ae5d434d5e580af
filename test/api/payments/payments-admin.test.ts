// Admin payments (docs/rules/payments.md, docs/rules/auth.md#access-matrix): list (OWNER), detail and by-booking (STAFF scoped), refund
// (at most captured - refunded, under the payment's row lock), void, capture, and the remaining
// payment with its redirect URL.
import { expect } from 'chai';
import { call } from '../../support/http';
import { stack } from '../../support/stack';
import { addStaff, knex } from '../../support/booking-fixtures';
import {
  bookOnline,
  bookingRow,
  clickCheckout,
  depositSalon,
  paymentPage,
  paymentRows,
  paymentWorkflowEnded,
  sandboxMoney,
  type DepositSalon,
  type PublicBooking,
} from '../../support/payments';
import { eventually } from '../../support/eventually';

async function paid(options: Parameters<typeof depositSalon>[0] = {}): Promise<{ salon: DepositSalon; booking: PublicBooking; paymentId: string }> {
  const salon = await depositSalon({ ...options, settings: { ...options.settings } });
  const booking = await bookOnline(salon, 3);
  const page = await paymentPage(salon, booking);
  await clickCheckout(page.redirectUrl!, 'pay');
  const wanted = options.captureMode === 'MANUAL' ? 'AUTHORIZED' : 'PAID';
  await eventually(async () => (await bookingRow(booking.id)).depositStatus === wanted, `deposit ${wanted}`);
  return { salon, booking, paymentId: page.paymentId };
}

describe('payments: admin routes', function () {
  this.timeout(120_000);

  it('when the owner lists payments then the status filter applies; staff are refused 403 and no token is 401', async () => {
    const { salon, paymentId } = await paid();
    await bookOnline(salon, 4);
    const all = await call('get', '/admin/payments', salon.owner.token);
    expect(all.status, JSON.stringify(all.body)).to.equal(200);
    expect(all.body.meta.total).to.equal(2);
    const captured = await call('get', '/admin/payments?status=CAPTURED,REFUNDED', salon.owner.token);
    expect(captured.body.data.map((p: { id: string }) => p.id)).to.deep.equal([paymentId]);
    expect((await call('get', '/admin/payments?limit=100', salon.owner.token)).status).to.equal(200);
    expect((await call('get', '/admin/payments?limit=101', salon.owner.token)).status).to.equal(400);
    expect((await call('get', '/admin/payments', salon.staff[0].user.token)).status).to.equal(403);
    expect((await call('get', '/admin/payments')).status).to.equal(401);
  });

  it('when staff open a payment then they see its events and provider refs for their own bookings only (403 for another staff member)', async () => {
    const { salon, booking, paymentId } = await paid({ settings: {} });
    const own = await call('get', `/admin/payments/${paymentId}`, salon.staff[0].user.token);
    expect(own.status, JSON.stringify(own.body)).to.equal(200);
    expect(own.body.data.events.map((e: { type: string }) => e.type)).to.include.members(['PaymentInitiated', 'PaymentSessionCreated', 'PaymentCaptured']);
    expect(own.body.data.providerSessionId).to.match(/^cs_/);
    const byBooking = await call('get', `/admin/payments/by-booking/${booking.id}`, salon.staff[0].user.token);
    expect(byBooking.body.data.map((p: { id: string }) => p.id)).to.deep.equal([paymentId]);

    const other = await addStaff(salon.tenant.id, [salon.serviceId]);
    expect((await call('get', `/admin/payments/${paymentId}`, other.user.token)).status).to.equal(403);
    expect((await call('get', `/admin/payments/by-booking/${booking.id}`, other.user.token)).status).to.equal(403);
    const stranger = await depositSalon();
    expect((await call('get', `/admin/payments/${paymentId}`, stranger.owner.token)).body.error.code).to.equal('PAYMENT_NOT_FOUND');
  });

  it('when the owner refunds part and then the rest then the payment goes PARTIALLY_REFUNDED then REFUNDED, the deposit follows, and more than the rest is refused', async () => {
    const { salon, booking, paymentId } = await paid();
    const part = await call('post', `/admin/payments/${paymentId}/refund`, salon.owner.token, { amount: 2500, reason: 'Goodwill' });
    expect(part.status, JSON.stringify(part.body)).to.equal(200);
    expect(part.body.data).to.include({ status: 'PARTIALLY_REFUNDED', refundedAmount: 2500 });
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PARTIALLY_REFUNDED', 'PARTIALLY_REFUNDED deposit');

    const tooMuch = await call('post', `/admin/payments/${paymentId}/refund`, salon.owner.token, { amount: 7501 });
    expect(tooMuch.status).to.equal(422);
    expect(tooMuch.body.error.code).to.equal('PAYMENT_REFUND_EXCEEDS_CAPTURED');
    const rest = await call('post', `/admin/payments/${paymentId}/refund`, salon.owner.token, { amount: 7500 });
    expect(rest.body.data).to.include({ status: 'REFUNDED', refundedAmount: 10000 });
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'REFUNDED', 'REFUNDED deposit');
    const more = await call('post', `/admin/payments/${paymentId}/refund`, salon.owner.token, { amount: 1 });
    expect(more.status).to.equal(409);
    expect((await call('post', `/admin/payments/${paymentId}/refund`, salon.owner.token, { amount: 0 })).status).to.equal(400);
    expect((await call('post', `/admin/payments/${paymentId}/refund`, salon.staff[0].user.token, { amount: 1 })).status).to.equal(403);
    const { sandbox } = await stack();
    const [row] = await paymentRows(booking.id);
    await eventually(async () => sandbox.session(row.providerSessionId)!.refundedAmount === 10000, 'both refunds paid out');
    // one SMS per refund, each once
    const { sms } = await stack();
    const texts = await eventually(async () => {
      const sent = (await sms.sentTo(booking.phone)).filter((m) => m.meta?.kind === 'REFUND').map((m) => m.text);
      return sent.length === 2 ? sent : undefined;
    }, 'two refund SMS');
    expect(texts.some((t) => t.includes('25 kr'))).to.equal(true);
    expect(texts.some((t) => t.includes('75 kr'))).to.equal(true);
  });

  it('when 20 refunds of 1000 race on a captured 10000 then exactly 10 succeed and the refunded total never exceeds the captured amount', async () => {
    const { salon, booking, paymentId } = await paid();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call('post', `/admin/payments/${paymentId}/refund`, salon.owner.token, { amount: 1000 })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(10);
    expect(statuses.filter((s) => s === 422 || s === 409)).to.have.length(10);
    const [row] = await paymentRows(booking.id);
    expect(row).to.include({ status: 'REFUNDED', refundedAmount: 10000, capturedAmount: 10000 });
    const refunds = await (await knex())('payment_refunds').where({ paymentId });
    expect(refunds.reduce((sum: number, r: { amount: number }) => sum + r.amount, 0)).to.equal(10000);
    const { sandbox } = await stack();
    await eventually(async () => sandbox.session(row.providerSessionId)!.refundedAmount === 10000, 'refunds paid out');
    // each refund went to the provider once, under its own key, and nothing more once the workflow has ended
    await paymentWorkflowEnded(paymentId);
    const money = await sandboxMoney(row.providerSessionId);
    expect(money.refundRequests.count).to.equal(10);
    expect([...money.refundRequests.keys].sort()).to.deep.equal(refunds.map((r: { idempotencyKey: string }) => r.idempotencyKey).sort());
    expect(money).to.deep.include({ captured: 1, captureRequests: { count: 0, keys: [] } });
  });

  it('when the owner captures an authorized payment then it is captured once at the provider; void of a captured one is refused', async () => {
    const { salon, booking, paymentId } = await paid({ captureMode: 'MANUAL' });
    const first = await call('post', `/admin/payments/${paymentId}/capture`, salon.owner.token);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.data.captureRequestedAt).to.be.a('string');
    expect((await call('post', `/admin/payments/${paymentId}/capture`, salon.owner.token)).status).to.be.oneOf([200, 409]);
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'captured');
    const [row] = await paymentRows(booking.id);
    // asked twice by the owner, the capture goes to the provider once: one request, one key, once the workflow has ended
    await paymentWorkflowEnded(paymentId);
    expect(await sandboxMoney(row.providerSessionId)).to.deep.equal({
      captured: 1,
      captureRequests: { count: 1, keys: [`capture:${paymentId}`] },
      refundRequests: { count: 0, keys: [] },
    });
    const voided = await call('post', `/admin/payments/${paymentId}/void`, salon.owner.token);
    expect(voided.status).to.equal(409);
    expect(voided.body.error.code).to.equal('PAYMENT_NOT_AUTHORIZED');
  });

  it('when the owner voids an authorized payment then it is VOIDED at the provider and here', async () => {
    const { salon, booking, paymentId } = await paid({ captureMode: 'MANUAL' });
    const res = await call('post', `/admin/payments/${paymentId}/void`, salon.owner.token);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const voided = await eventually(async () => {
      const [p] = await paymentRows(booking.id);
      return p.status === 'VOIDED' ? p : undefined;
    }, 'voided');
    const { sandbox } = await stack();
    expect(sandbox.session(voided.providerSessionId)!.status).to.equal('VOIDED');
  });

  it('when staff collect the remaining amount then a new auto-capture payment of total - captured + refunded is made with a redirect URL; when nothing remains it is refused', async () => {
    const { salon, booking } = await paid();
    const res = await call('post', '/admin/payments/remaining', salon.staff[0].user.token, { bookingId: booking.id });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    // 50000 total - 10000 deposit captured
    expect(res.body.data).to.include({ intent: 'REMAINING', captureMode: 'AUTO', status: 'INITIATED', amount: 40000 });
    expect(res.body.data.redirectUrl).to.match(/\/checkout\//);
    const again = await call('post', '/admin/payments/remaining', salon.owner.token, { bookingId: booking.id });
    expect(again.status).to.equal(409);
    await clickCheckout(res.body.data.redirectUrl, 'pay');
    await eventually(
      async () => (await paymentRows(booking.id)).some((p: { intent: string; status: string }) => p.intent === 'REMAINING' && p.status === 'CAPTURED'),
      'remaining captured',
    );
    const none = await call('post', '/admin/payments/remaining', salon.owner.token, { bookingId: booking.id });
    expect(none.status).to.equal(422);
    expect(none.body.error.code).to.equal('PAYMENT_NOTHING_REMAINING');
    // the deposit of the booking is unchanged by the remaining payment
    expect((await bookingRow(booking.id)).depositStatus).to.equal('PAID');
  });
});
