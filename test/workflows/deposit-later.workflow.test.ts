// A deposit requested later (docs/rules/payments.md#deposits-at-any-distance) on the time-skipping
// server: a booking 30 days ahead at a Vipps salon, whose booking workflow asks for the deposit 6 days
// before the visit (SMS and e-mail with the payment link), reminds once halfway to the salon's
// deadline and cancels the booking at the deadline when it is still unpaid, freeing its time for the
// waitlist. Paid on the Vipps sandbox in time, the booking stays. The weeks of waiting are skipped.
import { expect } from 'chai';
import { stack } from '../support/stack';
import { vippsSandboxSalesUnit } from '../../devstack/vipps-sandbox-server';
import { publicPayment } from '../../domain/payments/payment.service';
import { healthCheckConfig } from '../../domain/payments/payment-config.service';
import type { EntitySignaller } from '../../domain/workflow-signals/entity-signaller';
import type { BookingHooks, FreedTime } from '../../domain/booking/booking-hooks';
import { tenantById } from '../../domain/tenant/tenant-context';
import { issueManageToken } from '../../domain/booking/manage-link.service';
import { bookingContract } from '../../domain/booking/booking-events.rules';
import { bookingHooks } from '../../composition/domain-hooks';
import { FolderSmsSender } from '../../integrations/sms/sms-sender';
import { FolderMailer } from '../../integrations/mail/mailer';
import { eventually } from '../support/eventually';
import { withTimeSkipping } from './support/time-skipping';
import { endSceneWorkflows, seedDepositBooking, withPaymentWorker, withVippsSandbox } from './support/payment-scene';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const OUTBOX = 'deposit-later-wf';

describe('a deposit requested later (time skipping, real database, Vipps sandbox)', function () {
  this.timeout(180_000);
  const t = withTimeSkipping();
  let signaller: EntitySignaller | undefined;
  let sms: FolderSmsSender;
  let mail: FolderMailer;
  /** every time a cancellation freed, as the waitlist is told of it */
  const freed: FreedTime[] = [];
  const recordingHooks: BookingHooks = {
    ...bookingHooks,
    timeFreed: async (s, trx, time) => {
      freed.push(time);
      await bookingHooks.timeFreed(s, trx, time);
    },
  };

  /** how far the test server's clock is ahead of the wall clock: the customer and Vipps act at the server's time */
  let skewMs = 0;
  const sandbox = withVippsSandbox({ signaller: () => signaller, now: () => new Date(Date.now() + skewMs) });
  const paymentDeps = sandbox.deps;
  before(async () => {
    const { config } = await stack();
    sms = new FolderSmsSender(`${config.dataDir}/sms-${OUTBOX}`);
    mail = new FolderMailer(`${config.dataDir}/mail-${OUTBOX}`);
  });
  const followServerClock = async () => {
    skewMs = (await t.env.currentTimeMs()) - Date.now();
  };

  /** A CONFIRMED booking 30 days ahead at a Vipps salon (deadline 48 hours), its deposit SCHEDULED, and its workflow started. */
  async function farAheadBooking(scenarioSignaller: EntitySignaller) {
    signaller = scenarioSignaller;
    const scene = await seedDepositBooking(t, {
      provider: 'vipps',
      credentials: vippsSandboxSalesUnit(),
      bookingStatus: 'CONFIRMED',
      depositStatus: 'SCHEDULED',
      startsInMs: 30 * DAY,
      settings: { depositDeadlineHours: 48 },
    });
    expect((await healthCheckConfig(await paymentDeps(), scene.tenantId, scene.configId)).lastHealthCheckStatus).to.equal('OK');
    const { platform, config } = await stack();
    const email = `kari.${scene.booking.id.slice(0, 8)}@example.no`;
    const manageToken = issueManageToken(config.keys.manageLink, scene.booking.id);
    await platform.knex('bookings').where({ id: scene.booking.id }).update({ contactEmail: email, manageTokenHash: manageToken.hash });
    await scenarioSignaller.signal(
      {
        workflowType: 'bookingWorkflow',
        workflowId: bookingContract.workflowId(scene.booking.id),
        startArgs: { bookingId: scene.booking.id, tenantId: scene.tenantId },
      },
      'bookingEvent',
      { type: 'BookingCreated', entityVersion: 1 },
    );
    const row = () => platform.knex('bookings').where({ id: scene.booking.id }).first();
    const kinds = async () => (await sms.sentTo(scene.booking.contactPhone)).map((m) => m.meta?.kind);
    await eventually(async () => (await kinds()).includes('CONFIRMED'), 'the confirmation');
    return { ...scene, email, row, kinds, knex: platform.knex };
  }

  it('when a booking 30 days ahead reaches 6 days before its start then the deposit is requested by SMS and e-mail with the payment link, and paid on Vipps the booking stays with its deposit reserved', () =>
    withPaymentWorker(
      t,
      async (s) => {
        const scene = await farAheadBooking(s);
        const { row, kinds, booking } = scene;
        await t.env.sleep(23 * DAY);
        expect((await row()).depositStatus, 'nothing asked for a week before the request').to.equal('SCHEDULED');

        await t.env.sleep(DAY + MINUTE);
        await eventually(async () => (await row()).depositStatus === 'REQUESTED', 'the deposit requested');
        const request = await eventually(
          async () => (await sms.sentTo(booking.contactPhone)).find((m) => m.meta?.kind === 'DEPOSIT_REQUESTED'),
          'the request by SMS',
        );
        expect(request.text).to.contain('130 kr').and.contain('Vipps').and.contain(`/bookings/${booking.id}?token=`);
        const mailed = await eventually(
          async () => (await mail.sentTo(scene.email)).find((m) => m.meta?.kind === 'DEPOSIT_REQUESTED'),
          'the request by e-mail',
        );
        expect(mailed.subject).to.contain('depositum');

        // the customer follows the link: a checkout at Vipps, approved there
        await followServerClock();
        const tenant = await tenantById(scene.knex, scene.tenantId);
        const page = await eventually(async () => {
          const p = await publicPayment(await paymentDeps(), tenant, booking.id, { phone: booking.contactPhone });
          return p.redirectUrl ? p : null;
        }, 'the Vipps checkout');
        await sandbox.vipps.approve(page.paymentId);
        await eventually(async () => (await row()).depositStatus === 'AUTHORIZED', 'the deposit reserved');
        expect(sandbox.vipps.payment(page.paymentId)!.state).to.equal('AUTHORIZED');

        // past the reminder and the deadline nothing more is asked, and the booking stays
        await t.env.sleep(4 * DAY + MINUTE);
        expect(await row()).to.include({ status: 'CONFIRMED', depositStatus: 'AUTHORIZED' });
        expect(await kinds()).to.not.include('DEPOSIT_REMINDER');
        await endSceneWorkflows(t, { booking, payment: { id: page.paymentId } });
      },
      { providers: sandbox.providers, outbox: OUTBOX, bookingHooks: recordingHooks },
    ));

  it('when a requested deposit is never paid then it is reminded once halfway to the deadline, and at the deadline the booking is cancelled by SYSTEM with DEPOSIT_NOT_PAID and its time freed for the waitlist', () =>
    withPaymentWorker(
      t,
      async (s) => {
        const scene = await farAheadBooking(s);
        const { row, kinds, booking } = scene;
        await t.env.sleep(24 * DAY + MINUTE);
        await eventually(async () => (await kinds()).includes('DEPOSIT_REQUESTED'), 'the request');

        // a checkout opened and left: the attempt runs out, the request stands
        await followServerClock();
        const tenant = await tenantById(scene.knex, scene.tenantId);
        await publicPayment(await paymentDeps(), tenant, booking.id, { phone: booking.contactPhone });
        await t.env.sleep(HOUR);
        expect(await row()).to.include({ status: 'CONFIRMED', depositStatus: 'REQUESTED' });

        await t.env.sleep(DAY);
        expect(await kinds()).to.not.include('DEPOSIT_REMINDER');
        await t.env.sleep(DAY);
        await eventually(async () => (await kinds()).includes('DEPOSIT_REMINDER'), 'the reminder');
        const reminder = (await sms.sentTo(booking.contactPhone)).find((m) => m.meta?.kind === 'DEPOSIT_REMINDER')!;
        expect(reminder.text).to.contain('130 kr').and.contain('ikke betalt');

        await t.env.sleep(2 * DAY);
        await eventually(async () => (await row()).status === 'CANCELLED', 'the booking cancelled at the deadline');
        expect(await row()).to.include({ cancelledBy: 'SYSTEM', cancelReason: 'DEPOSIT_NOT_PAID' });
        expect(
          freed.some((f) => f.tenantId === scene.tenantId && f.start.getTime() === new Date(booking.startTime).getTime()),
          'the time freed',
        ).to.equal(true);
        await eventually(async () => (await kinds()).includes('CANCELLED'), 'the cancellation told');
        expect(
          (await kinds()).filter((k) => k === 'DEPOSIT_REMINDER'),
          'reminded once',
        ).to.have.length(1);
        await endSceneWorkflows(t, { booking });
      },
      { providers: sandbox.providers, outbox: OUTBOX, bookingHooks: recordingHooks },
    ));
});
