// The erasure's workflow (docs/rules/personal-data.md#erasure) on the time-skipping test server and
// the real database: a booking whose reminder is pending when its customer is erased is cancelled and
// its workflow ends without a reminder; and a worker that dies after each step did its work (the step
// is retried) cancels nothing twice, tells the customer once per channel, and records the exact
// outcome. A server of its own.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { stack } from '../support/stack';
import { unique } from '../support/factories';
import { at, bookingSalon, type BookingSalon } from '../support/booking-fixtures';
import { addDays, utcToLocalDate } from '../../domain/time/salon-time.rules';
import { createCustomer } from '../../domain/customer/customer.service';
import { tenantById, type TenantContext } from '../../domain/tenant/tenant-context';
import { createStaffBooking } from '../../domain/booking/booking-create.service';
import { bookingContract } from '../../domain/booking/booking-events.rules';
import { requestCustomerErasure } from '../../domain/personal-data/erasure.service';
import { erasureContract } from '../../domain/personal-data/erasure-events.rules';
import { createActivities } from '../../activities';
import { bookingHooks } from '../../composition/domain-hooks';
import { bookingLinkConfig } from '../../composition/compose';
import type { SmsMessage, SmsSender } from '../../domain/notifications/sms-sender';
import type { Mailer, MailMessage } from '../../domain/notifications/mailer';
import type { Actor, BookingDeps } from '../../domain/booking/booking.types';
import { closedWithoutSkipping, platformWorker, testServerSignaller, withOutboxes, withTimeSkipping } from './support/time-skipping';
import { eventually } from '../support/eventually';
import type { FolderMailer } from '../../integrations/mail/mailer';
import type { FolderSmsSender } from '../../integrations/sms/sms-sender';

const DAY = 24 * 60 * 60 * 1000;

interface Scene {
  s: BookingSalon;
  tenant: TenantContext;
  deps: BookingDeps;
  owner: Actor;
  phone: string;
  email: string;
  customerId: string;
  taskQueue: string;
  day(n: number): string;
}

describe('erasure workflow (time skipping, real database)', function () {
  this.timeout(300_000);
  const t = withTimeSkipping();
  let sms: FolderSmsSender;
  let mail: FolderMailer;
  withOutboxes('erasure-workflow-test', (o) => ({ sms, mail } = o));

  async function scene(): Promise<Scene> {
    const { platform } = await stack();
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const taskQueue = unique('erasure-wf');
    const start = await t.env.currentTimeMs();
    const deps: BookingDeps = {
      knex: platform.knex,
      signaller: testServerSignaller(t.env, taskQueue),
      manageLinkKey: platform.deps.config.keys.manageLink,
      bookingHooks,
      now: () => new Date(start),
    };
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const email = `${unique('erna')}@example.test`;
    const customer = await createCustomer(platform.knex, s.tenant.id, { name: 'Erna Erased', phone, email });
    return {
      s,
      tenant: await tenantById(platform.knex, s.tenant.id),
      deps,
      owner: { userId: s.owner.id, role: 'OWNER', resourceId: null },
      phone,
      email,
      customerId: customer.id,
      taskQueue,
      day: (n) => addDays(utcToLocalDate(start, s.tz), n),
    };
  }

  const book = (sc: Scene, date: string, time = '10:00') =>
    createStaffBooking(sc.deps, sc.tenant, sc.owner, {
      startTime: at(date, time),
      items: [{ serviceId: sc.s.serviceId, resourceId: sc.s.staff[0].resourceId }],
      customerId: sc.customerId,
    });

  async function run(sc: Scene, gateways: { mailer: Mailer; sms: SmsSender }, scenario: () => Promise<void>, activities = createActivities) {
    const { platform } = await stack();
    const all = activities({ knex: platform.knex, ...gateways, bookingHooks, links: bookingLinkConfig(platform.deps.config), now: sc.deps.now });
    const worker = await platformWorker(t, { taskQueue: sc.taskQueue, activities: all });
    await worker.runUntil(scenario());
  }

  const erase = (sc: Scene) =>
    requestCustomerErasure({ knex: sc.deps.knex, signaller: sc.deps.signaller }, sc.tenant.id, sc.customerId, sc.s.owner.id, new Date());
  // time held still while a run is awaited: the booking's reminder timer must not fire meanwhile
  const closed = (workflowId: string) => closedWithoutSkipping(t.env, workflowId);

  it('when a booking’s reminder is pending and its customer is erased then the booking is cancelled and its workflow ends without sending the reminder', async () => {
    const sc = await scene();
    await run(sc, { mailer: mail, sms }, async () => {
      const booking = await book(sc, sc.day(3));
      // the reminder is pending: the booking workflow waits on its timer
      const handle = t.env.client.workflow.getHandle(bookingContract.workflowId(booking.id));
      await eventuallyTimer(handle);
      const asked = await erase(sc);
      await closed(erasureContract.workflowId(asked.erasure.id));
      // the booking's timeline is over: nothing more can go out about it
      await closed(handle.workflowId);
      const db = (await stack()).platform.knex;
      expect(await db('bookings').where({ id: booking.id }).first()).to.include({ status: 'CANCELLED', contactPhone: null });
      expect(await db('booking_notifications').where({ bookingId: booking.id, kind: 'REMINDER' })).to.deep.equal([]);
      const reminders = (await sms.sentTo(sc.phone)).filter((m) => m.meta?.kind === 'REMINDER');
      expect(reminders).to.deep.equal([]);
      await t.env.sleep(4 * DAY);
      expect((await sms.sentTo(sc.phone)).filter((m) => m.meta?.kind === 'REMINDER')).to.deep.equal([]);
    });
  });

  it('when the worker dies after each step did its work then the retried steps do nothing twice: one cancellation, one notice on each channel, the exact outcome', async () => {
    const sc = await scene();
    const sent: { sms: SmsMessage[]; mail: MailMessage[] } = { sms: [], mail: [] };
    // gateways that keep no copy (as SMTP and Sveve): what they were given is all there is
    const gateways = { sms: { send: async (m: SmsMessage) => void sent.sms.push(m) }, mailer: { send: async (m: MailMessage) => void sent.mail.push(m) } };
    const steps = ['beginErasure', 'cancelErasedBookings', 'sendErasureNoticeSms', 'sendErasureNoticeEmail', 'eraseRemainingData', 'completeErasure'];
    const dying: typeof createActivities = (deps) => {
      const real = createActivities(deps) as unknown as Record<string, (input: unknown) => Promise<unknown>>;
      const wrapped = { ...real };
      for (const name of steps) {
        wrapped[name] = async (input: unknown) => {
          const answer = await real[name](input);
          // the step committed; the worker "dies" before Temporal hears of it, so the step runs again
          if (Context.current().info.attempt === 1) throw ApplicationFailure.retryable('the worker died', 'WORKER_DIED');
          return answer;
        };
      }
      return wrapped as unknown as ReturnType<typeof createActivities>;
    };
    await run(
      sc,
      gateways,
      async () => {
        const booking = await book(sc, sc.day(4));
        await eventuallyTimer(t.env.client.workflow.getHandle(bookingContract.workflowId(booking.id)));
        const asked = await erase(sc);
        // time may skip here: a retried notice waits 30 s (the delivery schedule), and the contact is gone before any reminder could be due
        await t.env.client.workflow.getHandle(erasureContract.workflowId(asked.erasure.id)).result();
        const db = (await stack()).platform.knex;
        const erasure = await db('personal_data_erasures').where({ id: asked.erasure.id }).first();
        expect(erasure.status).to.equal('COMPLETED');
        expect(erasure.outcome).to.include({ bookingsCancelled: 1, bookingsKeptForAccounts: 1 });
        expect(erasure.outcome.noticeSentBy).to.deep.equal(['EMAIL', 'SMS']);
        const audits = await db('booking_audit_logs').where({ bookingId: booking.id, action: 'CANCELLED' });
        expect(audits).to.have.length(1);
        expect(sent.sms.filter((m) => m.meta?.kind === 'PERSONAL_DATA_ERASED').map((m) => m.to)).to.deep.equal([sc.phone]);
        expect(sent.mail.filter((m) => m.meta?.kind === 'PERSONAL_DATA_ERASED').map((m) => m.to)).to.deep.equal([sc.email]);
        expect(sent.sms.find((m) => m.meta?.kind === 'PERSONAL_DATA_ERASED')!.text)
          .to.contain('er slettet')
          .and.contain('avlyst');
        // and the booking's own cancellation message found no one to tell
        await t.env.client.workflow.getHandle(bookingContract.workflowId(booking.id)).result();
        expect(sent.sms.filter((m) => m.meta?.kind !== 'PERSONAL_DATA_ERASED').map((m) => m.meta?.kind)).to.not.include('CANCELLED');
      },
      dying,
    );
  });

  /** Until the booking workflow holds its reminder's timer (a pending reminder). */
  async function eventuallyTimer(handle: ReturnType<typeof t.env.client.workflow.getHandle>): Promise<void> {
    await eventually(async () => ((await handle.fetchHistory()).events ?? []).some((e) => e.timerStartedEventAttributes), 'the reminder timer to start');
  }
});
