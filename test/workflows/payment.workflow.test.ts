// The payment's timeline (docs/rules/payments.md) on the time-skipping test server and the real database, with
// the sandbox provider: each test runs its own worker on its own task queue.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { stack } from '../support/stack';
import { unique } from '../support/factories';
import { sandboxKey } from '../support/payments';
import type { EntitySignaller } from '../../domain/workflow-signals/entity-signaller';
import type { PaymentProviders } from '../../domain/payments/payment-provider';
import { paymentContract } from '../../domain/payments/payment-events.rules';
import { withTimeSkipping } from './support/time-skipping';
import { seedDeposit, startPaymentWorkflow, withPaymentWorker } from './support/payment-scene';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('payment workflow (time skipping, real database, sandbox provider)', function () {
  this.timeout(120_000);
  const t = withTimeSkipping();

  const withWorker = (scenario: (signaller: EntitySignaller) => Promise<void>, options: { providers?: PaymentProviders } = {}) =>
    withPaymentWorker(t, scenario, options);

  /** A salon with an active MANUAL sandbox config, a booking, and its deposit payment (an authorized one holds a sandbox session). */
  async function seed(opts: { bookingStatus: string; paymentStatus: 'INITIATED' | 'AUTHORIZED'; expiresInMs: number; captureRequested?: boolean }) {
    const { platform, sandbox } = await stack();
    const apiKey = sandboxKey();
    let sessionId: string | null = null;
    if (opts.paymentStatus === 'AUTHORIZED') {
      const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
      const s = (await (
        await fetch(`${sandbox.url}/v1/sessions`, {
          method: 'POST',
          headers: { ...headers, 'idempotency-key': unique('k') },
          body: JSON.stringify({
            reference: crypto.randomUUID(),
            amount: 13000,
            currency: 'NOK',
            captureMode: 'MANUAL',
            webhookUrl: 'http://127.0.0.1:9/none',
          }),
        })
      ).json()) as { id: string };
      await fetch(`${sandbox.url}/v1/sessions/${s.id}/authorize`, { method: 'POST', headers: { ...headers, 'idempotency-key': unique('k') }, body: '{}' });
      sessionId = s.id;
    }
    const scene = await seedDeposit(t, { provider: 'sandbox', credentials: { apiKey }, ...opts, providerSessionId: sessionId });
    return { knex: platform.knex, booking: scene.booking, payment: scene.payment, tenantId: scene.tenantId, sandbox };
  }

  const start = (signaller: EntitySignaller, payment: { id: string; tenantId: string }) => startPaymentWorkflow(t, signaller, payment);

  it('when an authorization is held for 7 days then at expiresAt it is voided at the provider, EXPIRED, and the booking is cancelled by SYSTEM once with AUTHORIZATION_EXPIRED', () =>
    withWorker(async (signaller) => {
      const { knex, booking, payment, sandbox } = await seed({ bookingStatus: 'CONFIRMED', paymentStatus: 'AUTHORIZED', expiresInMs: 7 * DAY });
      const handle = await start(signaller, payment);

      await t.env.sleep(6 * DAY + 23 * HOUR); // just before the hold ends: nothing happens
      expect((await knex('payments').where({ id: payment.id }).first()).status).to.equal('AUTHORIZED');
      expect((await knex('bookings').where({ id: booking.id }).first()).status).to.equal('CONFIRMED');

      await t.env.sleep(2 * HOUR);
      await handle.result();
      const expired = await knex('payments').where({ id: payment.id }).first();
      expect(expired.status).to.equal('EXPIRED');
      const cancelled = await knex('bookings').where({ id: booking.id }).first();
      expect(cancelled).to.include({ status: 'CANCELLED', cancelledBy: 'SYSTEM', cancelReason: 'AUTHORIZATION_EXPIRED' });
      expect(sandbox.session(payment.providerSessionId!)!.status).to.equal('VOIDED');

      // a late duplicate signal starts nothing twice
      await start(signaller, payment);
      await t.env.client.workflow.getHandle(paymentContract.workflowId(payment.id)).result();
      const audit = await knex('booking_audit_logs').where({ bookingId: booking.id, action: 'CANCELLED' });
      expect(audit).to.have.length(1);
      expect(audit[0]).to.include({ actorRole: 'SYSTEM', reason: 'AUTHORIZATION_EXPIRED' });
      expect(await knex('payment_events').where({ paymentId: payment.id, type: 'PaymentExpired' })).to.have.length(1);
    }));

  it('when an open checkout is abandoned then after its session expiry the payment is EXPIRED and the PENDING booking cancelled', () =>
    withWorker(async (signaller) => {
      const { knex, booking, payment } = await seed({ bookingStatus: 'PENDING', paymentStatus: 'INITIATED', expiresInMs: 30 * MINUTE });
      const handle = await start(signaller, payment);
      await t.env.sleep(10 * MINUTE);
      const open = await knex('payments').where({ id: payment.id }).first();
      expect(open.status).to.equal('INITIATED');
      expect(open.providerSessionId).to.be.a('string');
      await t.env.sleep(25 * MINUTE);
      await handle.result();
      expect((await knex('payments').where({ id: payment.id }).first()).status).to.equal('EXPIRED');
      expect(await knex('bookings').where({ id: booking.id }).first()).to.include({ status: 'CANCELLED', cancelReason: 'AUTHORIZATION_EXPIRED' });
    }));

  it('when a failed deposit is not tried again within its 30 minutes then its PENDING booking is cancelled by SYSTEM with PAYMENT_NOT_RETRIED; tried again in time, the booking stays', () =>
    withWorker(async (signaller) => {
      const failed = async () => {
        const seeded = await seed({ bookingStatus: 'PENDING', paymentStatus: 'INITIATED', expiresInMs: 30 * MINUTE });
        const now = await t.env.currentTimeMs();
        await seeded
          .knex('payments')
          .where({ id: seeded.payment.id })
          .update({ status: 'FAILED', failureKind: 'PERMANENT', failureReason: 'CARD_DECLINED', failedCount: 1, expiresAt: new Date(now + 30 * MINUTE) });
        await seeded.knex('bookings').where({ id: seeded.booking.id }).update({ depositStatus: 'RETRY_PENDING' });
        return seeded;
      };
      const lapsed = await failed();
      const retried = await failed();
      // the second customer tried again: a newer deposit payment of the same booking
      await retried.knex('payments').insert({
        ...retried.payment,
        id: crypto.randomUUID(),
        status: 'INITIATED',
        failureKind: null,
        failureReason: null,
        failedCount: 1,
        idempotencyKey: unique('pay'),
        createdAt: new Date(Date.now() + 1000),
        expiresAt: new Date((await t.env.currentTimeMs()) + 30 * MINUTE),
      });
      const handles = [await start(signaller, lapsed.payment), await start(signaller, retried.payment)];
      await t.env.sleep(29 * MINUTE);
      expect((await lapsed.knex('bookings').where({ id: lapsed.booking.id }).first()).status, 'still held').to.equal('PENDING');
      await t.env.sleep(2 * MINUTE);
      await Promise.all(handles.map((h) => h.result()));
      expect(await lapsed.knex('bookings').where({ id: lapsed.booking.id }).first()).to.include({
        status: 'CANCELLED',
        cancelledBy: 'SYSTEM',
        cancelReason: 'PAYMENT_NOT_RETRIED',
      });
      expect((await lapsed.knex('booking_items').where({ bookingId: lapsed.booking.id }).first()).isActive, 'its time is freed').to.equal(false);
      expect((await retried.knex('bookings').where({ id: retried.booking.id }).first()).status, 'tried again: kept').to.equal('PENDING');
    }));

  it('when the worker dies between the provider capture and the database write then the retried capture charges once (the provider call carries the idempotency key)', async () => {
    const { platform } = await stack();
    const real = platform.deps.paymentProviders!;
    let crashes = 0;
    const crashing: PaymentProviders = {
      ...real,
      get(name) {
        const provider = real.get(name)!;
        return Object.assign(Object.create(provider), {
          async capture(...args: Parameters<typeof provider.capture>) {
            const result = await provider.capture(...args);
            if (crashes++ === 0) throw new Error('worker lost before writing the capture');
            return result;
          },
        });
      },
    };
    await withWorker(
      async (signaller) => {
        const { knex, booking, payment, sandbox } = await seed({
          bookingStatus: 'ARRIVED',
          paymentStatus: 'AUTHORIZED',
          expiresInMs: 7 * DAY,
          captureRequested: true,
        });
        const handle = await start(signaller, payment);
        await handle.result();
        expect(crashes).to.equal(2);
        const captured = await knex('payments').where({ id: payment.id }).first();
        expect(captured).to.include({ status: 'CAPTURED', capturedAmount: 13000 });
        // the workflow has ended: the provider was asked twice with one key, and moved the money once
        const session = sandbox.session(payment.providerSessionId!)!;
        expect({ captured: session.captureCount, captureRequests: session.requests.capture }).to.deep.equal({
          captured: 1,
          captureRequests: { count: 2, keys: [`capture:${payment.id}`] },
        });
        expect((await knex('bookings').where({ id: booking.id }).first()).depositStatus).to.equal('PAID');
        expect(await knex('payment_events').where({ paymentId: payment.id, type: 'PaymentCaptured' })).to.have.length(1);
      },
      { providers: crashing },
    );
  });
});
