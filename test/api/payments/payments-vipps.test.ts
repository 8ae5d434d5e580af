// Vipps MobilePay (docs/rules/payments.md#vipps-mobilepay) through the HTTP API and the real worker,
// against the suite's Vipps sandbox (devstack/vipps-sandbox-server.ts): the config's credentials
// sealed and its webhooks registered when it is checked, the deposit approved on the landing page,
// captured on arrival, refunded, voided, kept at a no-show, aborted or run out at Vipps; webhooks
// verified by their HMAC-SHA256 signature, and a duplicate that changes nothing.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { call, http } from '../../support/http';
import { stack } from '../../support/stack';
import { knex } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';
import { answerInVipps, bookOnline, bookingRow, paymentPage, paymentRows, paymentWorkflowEnded, vippsSalon } from '../../support/payments';
import { vippsSandboxSalesUnit } from '../../../devstack/vipps-sandbox-server';
import { vippsWebhookHeaders } from '../../../integrations/payments/vipps/vipps-signature';
import type { TenantSettings } from '../../../domain/tenant/tenant-settings.rules';

/** The booking's deposit paid in Vipps (approved on the landing page) and taken by the platform as `wanted`. */
async function approvedBooking(captureMode: 'AUTO' | 'MANUAL', settings: Partial<TenantSettings> = {}) {
  const { salon, credentials } = await vippsSalon({ captureMode, settings });
  const booking = await bookOnline(salon, 3);
  const page = await paymentPage(salon, booking);
  await answerInVipps(page.redirectUrl!, 'approve');
  const wanted = captureMode === 'MANUAL' ? 'AUTHORIZED' : 'PAID';
  await eventually(async () => {
    const b = await bookingRow(booking.id);
    return b.status === 'CONFIRMED' && b.depositStatus === wanted;
  }, `the deposit to be ${wanted}`);
  return { salon, credentials, booking, paymentId: page.paymentId };
}

/** The visits here are days ahead: the owner marks them with a reason (docs/rules/booking.md#statuses). */
const EARLY = { force: true, reason: 'the visit is marked ahead of its day' };
describe('payments: Vipps MobilePay against its sandbox', function () {
  this.timeout(90_000);

  it('when the owner adds a Vipps config then its four credentials are sealed, the check fetches a token and registers the webhook for the salon, and a wrong secret fails the check', async () => {
    const { salon, credentials, configId } = await vippsSalon();
    const { vipps, config } = await stack();
    const row = await (await knex())('payment_configs').where({ id: configId }).first();
    for (const secret of [credentials.clientSecret, credentials.subscriptionKey]) expect(row.credentialsSealed).to.not.contain(secret);
    const shown = await call('get', `/admin/payment-configs/${configId}`, salon.owner.token);
    expect(shown.body.data).to.include({ provider: 'vipps', isActive: true, lastHealthCheckStatus: 'OK' });
    expect(shown.body.data.credentialFields).to.include.members(['clientId', 'clientSecret', 'subscriptionKey', 'merchantSerialNumber', 'webhookSecret']);
    expect(JSON.stringify(shown.body)).to.not.contain(credentials.clientSecret);
    const [registration] = vipps.registrations(credentials.merchantSerialNumber);
    expect(registration.url).to.equal(`${config.payments.webhookBaseUrl}/webhooks/payments/vipps/${salon.tenant.id}`);
    expect(registration.events).to.include.members(['epayments.payment.authorized.v1', 'epayments.payment.aborted.v1', 'epayments.payment.expired.v1']);

    // the same check again keeps the registration; a wrong client secret fails it
    expect((await call('post', `/admin/payment-configs/${configId}/health-check`, salon.owner.token)).body.data.lastHealthCheckStatus).to.equal('OK');
    expect(vipps.registrations(credentials.merchantSerialNumber).map((r) => r.id)).to.deep.equal([registration.id]);
    const rotated = await call('post', `/admin/payment-configs/${configId}/rotate`, salon.owner.token, {
      credentials: { ...credentials, clientSecret: 'wrong' },
    });
    expect(rotated.body.data.lastHealthCheckStatus).to.equal('FAILED');
    // new keys of the same sales unit keep the webhook registration (its secret stays sealed with them)
    const fresh = vippsSandboxSalesUnit(credentials.merchantSerialNumber);
    const back = await call('post', `/admin/payment-configs/${configId}/rotate`, salon.owner.token, { credentials: fresh });
    expect(back.body.data.lastHealthCheckStatus).to.equal('OK');
    expect(vipps.registrations(credentials.merchantSerialNumber).map((r) => r.id)).to.deep.equal([registration.id]);
  });

  it('when a Vipps config cannot be checked then it is not made active (422 PAYMENT_CONFIG_NOT_CONNECTED)', async () => {
    const { salon } = await vippsSalon();
    const cfg = await call('post', '/admin/payment-configs', salon.owner.token, {
      provider: 'vipps',
      displayName: 'Vipps (wrong key)',
      credentials: { ...vippsSandboxSalesUnit(), clientSecret: 'not-the-secret' },
    });
    expect(cfg.status).to.equal(201);
    const activated = await call('post', `/admin/payment-configs/${cfg.body.data.id}/activate`, salon.owner.token);
    expect([activated.status, activated.body.error.code]).to.deep.equal([422, 'PAYMENT_CONFIG_NOT_CONNECTED']);
  });

  it('when the customer approves on the landing page (phone prefilled) then the payment is AUTHORIZED while Vipps holds it, the booking CONFIRMED, and arrival captures it once with its idempotency key', async () => {
    const { salon, booking, paymentId } = await approvedBooking('MANUAL');
    const { vipps } = await stack();
    const held = vipps.payment(paymentId)!;
    expect(held.phoneNumber).to.equal(booking.phone.replace('+', ''));
    expect(held.state).to.equal('AUTHORIZED');
    expect((await paymentRows(booking.id))[0]).to.include({ status: 'AUTHORIZED', provider: 'vipps', providerSessionId: paymentId });
    expect(vipps.delivered.filter((d) => d.reference === paymentId).map((d) => [d.name, d.status])).to.deep.include(['AUTHORIZED', 200]);

    expect((await call('post', `/bookings/${booking.id}/status/ARRIVED`, salon.owner.token, EARLY)).status).to.equal(200);
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'the deposit captured');
    await paymentWorkflowEnded(paymentId);
    // Vipps keeps AUTHORIZED after a capture: the aggregate says what was taken
    const after = vipps.payment(paymentId)!;
    expect(after.state).to.equal('AUTHORIZED');
    expect(after.aggregate.capturedAmount.value).to.equal(20000);
    expect(after.requests.capture).to.deep.equal({ count: 1, keys: [`capture:${paymentId}`] });
    expect((await paymentRows(booking.id))[0]).to.include({ status: 'CAPTURED', capturedAmount: 20000 });
    // the paid amount is part of the booking's details, the salon's and the customer's
    const detail = await call('get', `/bookings/${booking.id}`, salon.owner.token);
    expect(detail.body.data).to.include({ depositStatus: 'PAID', paidAmount: 20000 });
    const own = await call('get', `/public/tenants/${salon.tenant.slug}/bookings/${booking.id}?token=${encodeURIComponent(booking.token)}`);
    expect(own.body.data).to.include({ depositStatus: 'PAID', paidAmount: 20000 });
  });

  it('when the config captures automatically then the platform captures the reservation as soon as it is authorized', async () => {
    const { booking, paymentId } = await approvedBooking('AUTO');
    const { vipps } = await stack();
    expect(vipps.payment(paymentId)!.aggregate.capturedAmount.value).to.equal(20000);
    const events = (await (await knex())('payment_events').where({ paymentId }).orderBy('createdAt', 'asc')).map((e: { type: string }) => e.type);
    expect(events.indexOf('PaymentAuthorized')).to.be.above(-1).and.below(events.indexOf('PaymentCaptured'));
    expect((await paymentRows(booking.id))[0]).to.include({ status: 'CAPTURED', capturedAmount: 20000 });
  });

  it('when the customer cancels inside the free window then the captured deposit is refunded at Vipps and the refund is told by SMS', async () => {
    const { salon, booking, paymentId } = await approvedBooking('AUTO');
    const res = await call('post', `/public/tenants/${salon.tenant.slug}/bookings/${booking.id}/cancel`, undefined, { token: booking.token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { vipps, sms } = await stack();
    await eventually(async () => vipps.payment(paymentId)!.aggregate.refundedAmount.value === 20000, 'the refund at Vipps');
    expect(vipps.payment(paymentId)!.state, 'still AUTHORIZED at Vipps').to.equal('AUTHORIZED');
    expect((await paymentRows(booking.id))[0]).to.include({ status: 'REFUNDED', refundedAmount: 20000 });
    expect(await bookingRow(booking.id)).to.include({ status: 'CANCELLED', depositStatus: 'REFUNDED' });
    const own = await call('get', `/public/tenants/${salon.tenant.slug}/bookings/${booking.id}?token=${encodeURIComponent(booking.token)}`);
    expect(own.body.data).to.include({ depositStatus: 'REFUNDED', paidAmount: 0 });
    const message = await eventually(async () => (await sms.sentTo(booking.phone)).find((m) => m.meta?.kind === 'REFUND'), 'the refund SMS');
    expect(message.text).to.contain('200 kr');
  });

  it('when the salon cancels outside the free window then the captured deposit is still refunded in full at Vipps', async () => {
    const { salon, booking, paymentId } = await approvedBooking('AUTO', { cancellationHours: 168 });
    const res = await call('post', `/bookings/${booking.id}/cancel`, salon.owner.token, { bySalon: true, reason: 'Sykdom' });
    expect(res.status).to.equal(200);
    const { vipps } = await stack();
    await eventually(async () => vipps.payment(paymentId)!.aggregate.refundedAmount.value === 20000, 'the refund at Vipps');
    expect((await paymentRows(booking.id))[0]).to.include({ status: 'REFUNDED' });
  });

  it('when the salon cancels a booking whose Vipps deposit is only reserved then the reservation is cancelled at Vipps (TERMINATED) and the deposit VOIDED', async () => {
    const { salon, booking, paymentId } = await approvedBooking('MANUAL');
    expect((await call('post', `/bookings/${booking.id}/cancel`, salon.owner.token, { bySalon: true })).status).to.equal(200);
    const { vipps } = await stack();
    await eventually(async () => vipps.payment(paymentId)!.state === 'TERMINATED', 'the reservation let go at Vipps');
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'VOIDED', 'the deposit VOIDED');
    expect(vipps.payment(paymentId)!.aggregate.cancelledAmount.value).to.equal(20000);
  });

  it('when a booking with a reserved Vipps deposit is a no-show then the deposit is captured and kept', async () => {
    const { salon, booking, paymentId } = await approvedBooking('MANUAL');
    expect((await call('post', `/bookings/${booking.id}/status/NO_SHOW`, salon.owner.token, EARLY)).status).to.equal(200);
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'the no-show deposit PAID');
    expect((await stack()).vipps.payment(paymentId)!.aggregate.capturedAmount.value).to.equal(20000);
  });

  for (const [how, end] of [
    ['rejects it on the landing page (ABORTED)', 'VIPPS_ABORTED'],
    ['never answers and Vipps lets it run out (EXPIRED)', 'VIPPS_EXPIRED'],
  ] as const) {
    it(`when the customer ${how} then the attempt FAILED, the booking waits for a retry, and the retry is a new Vipps payment`, async () => {
      const { salon } = await vippsSalon();
      const booking = await bookOnline(salon, 3);
      const page = await paymentPage(salon, booking);
      const { vipps } = await stack();
      if (end === 'VIPPS_ABORTED') await answerInVipps(page.redirectUrl!, 'reject');
      else await vipps.expire(page.paymentId);
      await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'RETRY_PENDING', 'the deposit waiting for a retry');
      expect((await paymentRows(booking.id))[0]).to.include({ status: 'FAILED', failureKind: 'PERMANENT', failureReason: end, failedCount: 1 });
      const retry = await call('post', `/public/tenants/${salon.tenant.slug}/bookings/${booking.id}/payment/retry`, undefined, { token: booking.token });
      expect(retry.status, JSON.stringify(retry.body)).to.equal(201);
      expect(vipps.payment(retry.body.data.paymentId)!.state).to.equal('CREATED');
    });
  }

  it('when Vipps sends a webhook again (the same event) then it is acknowledged as a duplicate and nothing changes', async () => {
    const { booking, paymentId } = await approvedBooking('MANUAL');
    const before = (await paymentRows(booking.id))[0];
    const { vipps } = await stack();
    const sent = vipps.delivered.length;
    await vipps.redeliver(paymentId);
    expect(vipps.delivered.length).to.equal(sent + 1);
    expect(vipps.delivered.at(-1)!.status).to.equal(200);
    const inbox = await (await knex())('payment_webhook_inbox').where({ paymentId, provider: 'vipps' });
    expect(inbox.filter((r: { eventType: string }) => r.eventType === 'AUTHORIZED')).to.have.length(1);
    expect((await paymentRows(booking.id))[0]).to.include({ status: 'AUTHORIZED', version: before.version });
  });

  it('when a webhook is not signed with the registration secret, or its body was changed, then 401 and nothing is written', async () => {
    const { salon, credentials } = await vippsSalon();
    const booking = await bookOnline(salon, 3);
    const page = await paymentPage(salon, booking);
    const { config } = await stack();
    const url = `${config.payments.webhookBaseUrl}/webhooks/payments/vipps/${salon.tenant.id}`;
    const body = JSON.stringify({
      msn: credentials.merchantSerialNumber,
      reference: page.paymentId,
      pspReference: '424242',
      name: 'AUTHORIZED',
      amount: { currency: 'NOK', value: 20000 },
      timestamp: new Date().toISOString(),
      idempotencyKey: null,
      success: true,
    });
    const post = (headers: Record<string, string>, sent = body) =>
      http().then((h) =>
        h
          .post(new URL(url).pathname)
          .set({ ...headers, 'content-type': 'application/json' })
          .send(sent),
      );
    const forged = await post(vippsWebhookHeaders(crypto.randomBytes(32).toString('base64'), url, body, new Date()));
    expect([forged.status, forged.body.error.code]).to.deep.equal([401, 'UNAUTHORIZED']);
    const { vipps } = await stack();
    const secret = vipps.registrations(credentials.merchantSerialNumber)[0].secret;
    const altered = await post(vippsWebhookHeaders(secret, url, body, new Date()), body.replace('20000', '1'));
    expect(altered.status).to.equal(401);
    expect(await (await knex())('payment_webhook_inbox').where({ paymentId: page.paymentId, eventType: 'AUTHORIZED' })).to.have.length(0);
    expect((await paymentRows(booking.id))[0].status).to.equal('INITIATED');
    // signed right, it is taken
    const good = await post(vippsWebhookHeaders(secret, url, body, new Date()));
    expect([good.status, good.body.data.outcome]).to.deep.equal([200, 'APPLIED']);
  });
});
