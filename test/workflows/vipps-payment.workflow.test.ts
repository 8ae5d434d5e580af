// A Vipps MobilePay deposit's timeline (docs/rules/payments.md#vipps-mobilepay) on the time-skipping
// server: a Vipps sandbox of the file's own whose signed webhooks are received by the platform's
// webhook service with the test's signaller, so they reach the workflow under test. The long waits
// (a late webhook's poll, the 7-day hold) are skipped.
import { expect } from 'chai';
import { stack } from '../support/stack';
import { vippsSandboxSalesUnit } from '../../devstack/vipps-sandbox-server';
import { healthCheckConfig } from '../../domain/payments/payment-config.service';
import type { EntitySignaller } from '../../domain/workflow-signals/entity-signaller';
import { eventually } from '../support/eventually';
import { withTimeSkipping } from './support/time-skipping';
import { endSceneWorkflows, seedDeposit, startPaymentWorkflow, withPaymentWorker, withVippsSandbox } from './support/payment-scene';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('payment workflow with Vipps MobilePay (time skipping, real database, Vipps sandbox)', function () {
  this.timeout(120_000);
  const t = withTimeSkipping();
  /** the signaller of the test that runs now: the webhooks it receives signal its workflows */
  let signaller: EntitySignaller | undefined;

  const sandbox = withVippsSandbox({ signaller: () => signaller });
  const paymentDeps = sandbox.deps;

  afterEach(async () => {
    await sandbox.vipps.releaseWebhooks();
  });

  /** A booking at a Vipps salon whose deposit's checkout the workflow opens; its webhooks registered. */
  async function vippsDeposit(scenarioSignaller: EntitySignaller) {
    signaller = scenarioSignaller;
    const scene = await seedDeposit(t, {
      provider: 'vipps',
      credentials: vippsSandboxSalesUnit(),
      bookingStatus: 'PENDING',
      paymentStatus: 'INITIATED',
      expiresInMs: 30 * MINUTE,
    });
    const checked = await healthCheckConfig(await paymentDeps(), scene.tenantId, scene.configId);
    expect(checked.lastHealthCheckStatus).to.equal('OK');
    const handle = await startPaymentWorkflow(t, scenarioSignaller, scene.payment);
    const { platform } = await stack();
    const paymentRow = () => platform.knex('payments').where({ id: scene.payment.id }).first();
    await eventually(async () => (await paymentRow()).providerSessionId !== null, 'the Vipps payment to be created');
    return { ...scene, handle, paymentRow, knex: platform.knex };
  }

  it('when the Vipps webhook is late then a poll a minute later finds the payment AUTHORIZED, and the webhook when it comes changes nothing', () =>
    withPaymentWorker(
      t,
      async (s) => {
        const scene = await vippsDeposit(s);
        const { paymentRow: payment, booking, knex } = scene;
        sandbox.vipps.holdWebhooks();
        const opened = await payment();
        await sandbox.vipps.approve(opened.id);
        expect((await payment()).status, 'nothing heard yet').to.equal('INITIATED');

        await t.env.sleep(MINUTE + 1000);
        await eventually(async () => (await payment()).status === 'AUTHORIZED', 'the poll to find the authorization');
        await eventually(async () => (await knex('bookings').where({ id: booking.id }).first()).status === 'CONFIRMED', 'the booking confirmed');
        const polled = await knex('payment_webhook_inbox').where({ paymentId: opened.id, eventType: 'AUTHORIZED' });
        expect(polled.map((r: { providerEventId: string; outcome: string }) => [r.providerEventId.split(':')[0], r.outcome])).to.deep.equal([
          ['poll', 'APPLIED'],
        ]);
        const version = (await payment()).version;

        await sandbox.vipps.releaseWebhooks();
        const late = await knex('payment_webhook_inbox').where({ paymentId: opened.id, eventType: 'AUTHORIZED' }).whereNot('providerEventId', 'like', 'poll:%');
        expect(late.map((r: { outcome: string }) => r.outcome)).to.deep.equal(['IGNORED_AUTHORIZED']);
        expect((await payment()).version, 'the late webhook moved nothing').to.equal(version);
        await endSceneWorkflows(t, scene);
      },
      { providers: sandbox.providers, outbox: 'vipps-wf' },
    ));

  it("when a reserved Vipps deposit's 7-day hold ends then it is cancelled at Vipps, EXPIRED, and the booking cancelled by SYSTEM with AUTHORIZATION_EXPIRED", () =>
    withPaymentWorker(
      t,
      async (s) => {
        const scene = await vippsDeposit(s);
        const { paymentRow: payment, booking, knex, handle } = scene;
        const opened = await payment();
        await sandbox.vipps.approve(opened.id);
        await eventually(async () => (await payment()).status === 'AUTHORIZED', 'the authorization');
        await t.env.sleep(7 * DAY + MINUTE);
        await handle.result();
        expect((await payment()).status).to.equal('EXPIRED');
        expect(sandbox.vipps.payment(opened.id)!.state).to.equal('TERMINATED');
        expect(await knex('bookings').where({ id: booking.id }).first()).to.include({
          status: 'CANCELLED',
          cancelledBy: 'SYSTEM',
          cancelReason: 'AUTHORIZATION_EXPIRED',
        });
        await endSceneWorkflows(t, scene);
      },
      { providers: sandbox.providers, outbox: 'vipps-wf' },
    ));
});
