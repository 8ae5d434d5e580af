// Rebooking nudges (docs/rules/series.md#rebooking-nudges) on the time-skipping test server and the
// real database: a completed visit (the booking workflow records it) starts the customer's nudge at
// the salon; five weeks on it is sent once, with the booking page preselected and an unsubscribe
// link, unless the customer booked meanwhile, unsubscribed, or never agreed; a newer visit starts
// the wait over in the same workflow id. A server of its own.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { stack } from '../support/stack';
import { unique } from '../support/factories';
import { at, bookingSalon, localDay, type BookingSalon } from '../support/booking-fixtures';
import { addDays, utcToLocalDate } from '../../domain/time/salon-time.rules';
import { createCustomer } from '../../domain/customer/customer.service';
import { eventually } from '../support/eventually';
import { createActivities } from '../../activities';
import { tenantById, type TenantContext } from '../../domain/tenant/tenant-context';
import { createStaffBooking } from '../../domain/booking/booking-create.service';
import { changeStatus } from '../../domain/booking/booking-status.service';
import { unsubscribeFromNudges } from '../../domain/rebooking/rebooking.service';
import { rebookingNudgeContract } from '../../domain/rebooking/rebooking-events.rules';
import { unsubscribeToken } from '../../domain/rebooking/rebooking-tokens';
import { nudgeFigures } from '../../domain/rebooking/rebooking.repository';
import { bookingHooks } from '../../composition/domain-hooks';
import { platformWorker, testServerSignaller, withOutboxes, withTimeSkipping } from './support/time-skipping';
import type { FolderMailer } from '../../integrations/mail/mailer';
import type { FolderSmsSender } from '../../integrations/sms/sms-sender';
import type { Actor, BookingDeps } from '../../domain/booking/booking.types';
import { bookingLinkConfig } from '../../composition/compose';

const DAY = 24 * 60 * 60 * 1000;
const WEEK = 7 * DAY;
const LINKS = { publicBaseUrl: 'https://booking.example.test', platformDomain: 'salon.test', mailFrom: 'Salong <booking@salon.test>' };

interface Scene {
  s: BookingSalon;
  tenant: TenantContext;
  deps: BookingDeps;
  owner: Actor;
  phone: string;
  taskQueue: string;
  /** the test server's time when the scene was made: the file's tests share one server, whose clock runs ahead */
  start: number;
  /** salon-local date `n` days after `start` */
  day(n: number): string;
}

describe('rebooking nudge workflow (time skipping, real database)', function () {
  this.timeout(300_000);
  const t = withTimeSkipping();
  let sms: FolderSmsSender;
  let mail: FolderMailer;

  withOutboxes('rebooking-nudge-workflow-test', (o) => ({ sms, mail } = o));

  /** A salon whose service comes back every 5 weeks, and a customer who agreed to nudges (or not). */
  async function scene(agreed = true): Promise<Scene> {
    const { platform } = await stack();
    const s = await bookingSalon();
    await platform.knex('services').where({ id: s.serviceId }).update({ typicalIntervalWeeks: 5 });
    const taskQueue = unique('nudge-wf');
    const deps = { knex: platform.knex, signaller: testServerSignaller(t.env, taskQueue), manageLinkKey: platform.deps.config.keys.manageLink, bookingHooks };
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const start = await t.env.currentTimeMs();
    const sc: Scene = {
      s,
      tenant: await tenantById(platform.knex, s.tenant.id),
      deps: { ...deps, now: () => new Date(start) },
      owner: { userId: s.owner.id, role: 'OWNER' as const, resourceId: null },
      phone,
      taskQueue,
      start,
      day: (n) => addDays(utcToLocalDate(start, s.tz), n),
    };
    // the customer is known to the salon, which records whether they agreed to nudges
    await createCustomer(platform.knex, s.tenant.id, { name: 'Nora Nudge', phone, acceptsRebookingNudges: agreed });
    return sc;
  }

  async function book(sc: Scene, date: string, time = '10:00', language?: 'nb' | 'en') {
    return createStaffBooking(sc.deps, sc.tenant, sc.owner, {
      startTime: at(date, time),
      items: [{ serviceId: sc.s.serviceId, resourceId: sc.s.staff[0].resourceId }],
      customer: { name: 'Nora Nudge', phone: sc.phone },
      language,
    });
  }

  /** A visit (tomorrow), completed (the booking workflow records it, which starts the nudge). */
  async function visit(sc: Scene, date = sc.day(1), language?: 'nb' | 'en') {
    const booking = await book(sc, date, '10:00', language);
    await changeStatus(sc.deps, sc.tenant, sc.owner, booking.id, 'COMPLETED', { force: true, reason: 'test' });
    const db = (await stack()).platform.knex;
    const nudge = await eventually(
      async () => db('rebooking_nudges').where({ customerId: booking.customerId, visitBookingId: booking.id }).first(),
      'the nudge row of the visit',
    );
    return { booking, nudge };
  }

  async function run(sc: Scene, scenario: () => Promise<void>) {
    const { platform } = await stack();
    const worker = await platformWorker(t, {
      taskQueue: sc.taskQueue,
      activities: createActivities({ knex: platform.knex, mailer: mail, sms, bookingHooks, links: { ...bookingLinkConfig(platform.deps.config), ...LINKS } }),
    });
    await worker.runUntil(scenario());
  }

  const nudges = async (phone: string) => (await sms.sentTo(phone)).filter((m) => m.meta?.kind === 'REBOOKING_NUDGE');
  const row = async (id: string) => (await stack()).platform.knex('rebooking_nudges').where({ id }).first();
  const ended = (nudgeId: string) => t.env.client.workflow.getHandle(rebookingNudgeContract.workflowId(nudgeId)).result();

  it('when five weeks pass after a visit with nothing booked then one nudge goes out with the booking page preselected and an unsubscribe link, and never a second', async () => {
    const sc = await scene();
    await run(sc, async () => {
      const { nudge } = await visit(sc);
      expect(nudge).to.include({ status: 'WAITING' });
      await t.env.sleep(4 * WEEK);
      expect(await nudges(sc.phone)).to.have.length(0);
      await t.env.sleep(WEEK + 2 * DAY);
      await ended(nudge.id);
      const [message, ...more] = await nudges(sc.phone);
      expect(more).to.have.length(0);
      expect(message.text).to.contain('Hei Nora Nudge!').and.contain('Det er 5 uker siden');
      expect(message.text).to.contain(`https://booking.example.test/${sc.s.tenant.slug}?services=${sc.s.serviceId}&staff=${sc.s.staff[0].resourceId}`);
      expect(message.text).to.match(new RegExp(`/${sc.s.tenant.slug}/nudges/unsubscribe\\?customer=${nudge.customerId}&token=`));
      expect(await row(nudge.id)).to.include({ status: 'SENT' });
      await t.env.sleep(10 * WEEK);
      expect(await nudges(sc.phone)).to.have.length(1);

      // the customer books from the nudge (within 14 days of it; the database's clock): counted as made from a nudge
      const before = await nudgeFigures((await stack()).platform.knex);
      await book({ ...sc, deps: { ...sc.deps, now: () => new Date() } }, localDay(3), '13:00');
      const after = await nudgeFigures((await stack()).platform.knex);
      expect(after.booked - before.booked).to.equal(1);
      expect(after.sent).to.be.at.least(1);
    });
  });

  it('when the visit was in English then the nudge is in English and its booking and unsubscribe links open the pages in English', async () => {
    const sc = await scene();
    await run(sc, async () => {
      const { nudge } = await visit(sc, sc.day(1), 'en');
      await t.env.sleep(5 * WEEK + 2 * DAY);
      await ended(nudge.id);
      const [message, ...more] = await nudges(sc.phone);
      expect(more).to.have.length(0);
      expect(message.text).to.match(/^Hi Nora Nudge! It is 5 weeks since your /);
      expect(message.text).to.contain(`https://booking.example.test/${sc.s.tenant.slug}?services=${sc.s.serviceId}&staff=${sc.s.staff[0].resourceId}&lang=en`);
      expect(message.text).to.match(new RegExp(`/${sc.s.tenant.slug}/nudges/unsubscribe\\?customer=${nudge.customerId}&token=\\S+&lang=en$`));
    });
  });

  it('when the customer books anything at the salon before the nudge is due then no nudge goes out', async () => {
    const sc = await scene();
    await run(sc, async () => {
      const { nudge } = await visit(sc);
      await t.env.sleep(3 * WEEK);
      await book({ ...sc, deps: { ...sc.deps, now: () => new Date(sc.start + 3 * WEEK) } }, sc.day(7 * 7), '12:00');
      await t.env.sleep(2 * WEEK + DAY);
      await ended(nudge.id);
      expect(await row(nudge.id)).to.include({ status: 'BOOKED_BEFORE' });
      expect(await nudges(sc.phone)).to.have.length(0);
    });
  });

  it('when the customer unsubscribes through the link, or never agreed, then no nudge goes out', async () => {
    const sc = await scene();
    const never = await scene(false);
    await run(sc, async () => {
      const { nudge } = await visit(sc);
      const key = (await stack()).platform.deps.config.keys.rebookingUnsubscribe;
      await unsubscribeFromNudges(sc.deps.knex, key, sc.tenant, nudge.customerId, unsubscribeToken(key, nudge.customerId));
      await t.env.sleep(5 * WEEK + DAY);
      await ended(nudge.id);
      expect(await row(nudge.id)).to.include({ status: 'NOT_AGREED' });
      expect(await nudges(sc.phone)).to.have.length(0);
    });
    await run(never, async () => {
      const { nudge } = await visit(never);
      await t.env.sleep(5 * WEEK + DAY);
      await ended(nudge.id);
      expect(await row(nudge.id)).to.include({ status: 'NOT_AGREED' });
      expect(await nudges(never.phone)).to.have.length(0);
    });
  });

  it('when a newer visit completes before the nudge is due then the same nudge waits five weeks from the newer visit, and sends one nudge for it', async () => {
    const sc = await scene();
    await run(sc, async () => {
      const first = await visit(sc);
      await t.env.sleep(2 * WEEK);
      const second = await visit({ ...sc, deps: { ...sc.deps, now: () => new Date(sc.start + 2 * WEEK) } }, sc.day(2 * 7 + 1));
      expect(second.nudge.id).to.equal(first.nudge.id);
      await t.env.sleep(3 * WEEK + 2 * DAY); // five weeks after the first visit: not due
      expect(await nudges(sc.phone)).to.have.length(0);
      await t.env.sleep(2 * WEEK);
      await ended(first.nudge.id);
      const sent = await nudges(sc.phone);
      expect(sent).to.have.length(1);
      expect(sent[0].meta?.visitBookingId).to.equal(second.booking.id);
    });
  });
});
