// The waitlist's offer rounds (docs/rules/waitlist.md#offers) on the time-skipping test server and
// the real database: the domain services signal the test server (as the api signals Temporal), each
// test runs its own worker on its own task queue, and reads the offers from the SMS outbox. The
// offered day is chosen from the wall clock, so the server's clock must not run ahead of it: a round
// is awaited with closedWithoutSkipping, never result() (see there).
import { expect } from 'chai';
import crypto from 'node:crypto';
import { stack } from '../support/stack';
import { unique } from '../support/factories';
import { at, bookingSalon, localDay, type BookingSalon } from '../support/booking-fixtures';
import { eventually } from '../support/eventually';
import { rejectsWith } from '../support/rejections';
import { createActivities } from '../../activities';
import type { FolderMailer } from '../../integrations/mail/mailer';
import type { FolderSmsSender } from '../../integrations/sms/sms-sender';
import { tenantById, type TenantContext } from '../../domain/tenant/tenant-context';
import { createPublicBooking } from '../../domain/booking/booking-create.service';
import { cancelBooking } from '../../domain/booking/booking-cancel.service';
import { joinWaitlist, leaveWaitlist, type WaitlistDeps } from '../../domain/waitlist/waitlist.service';
import { acceptOffer, declineOffer, type OfferDeps } from '../../domain/waitlist/waitlist-offer.service';
import { waitlistOfferContract } from '../../domain/waitlist/waitlist-events.rules';
import type { TenantSettings } from '../../domain/tenant/tenant-settings.rules';
import { platformWorker, closedWithoutSkipping, testServerSignaller, withOutboxes, withTimeSkipping } from './support/time-skipping';
import type { BookingDeps } from '../../domain/booking/booking.types';
import { bookingHooks } from '../../composition/domain-hooks';
import { bookingLinkConfig } from '../../composition/compose';

const MINUTE = 60 * 1000;

interface Scene {
  s: BookingSalon;
  tenant: TenantContext;
  deps: WaitlistDeps & BookingDeps & OfferDeps;
  taskQueue: string;
  /** the waiters' phones: each entry's workflow confirms it by SMS once the worker runs */
  joined: string[];
}

describe('waitlist offer rounds (time skipping, real database)', function () {
  this.timeout(180_000);
  const t = withTimeSkipping();
  let sms: FolderSmsSender;
  let mail: FolderMailer;

  withOutboxes('waitlist-workflow-test', (o) => ({ sms, mail } = o));

  /** A salon (one staff member, a 60-minute service), the services' deps signalling the test server on a queue of its own. */
  async function scene(settings: Partial<TenantSettings> = {}): Promise<Scene> {
    const { platform } = await stack();
    const s = await bookingSalon({ settings });
    const taskQueue = unique('waitlist-wf');
    const deps = {
      knex: platform.knex,
      signaller: testServerSignaller(t.env, taskQueue),
      offerKey: platform.deps.config.keys.waitlistOffer,
      entryKey: platform.deps.config.keys.waitlistEntry,
      manageLinkKey: platform.deps.config.keys.manageLink,
      bookingHooks,
    };
    return { s, tenant: await tenantById(platform.knex, s.tenant.id), deps, taskQueue, joined: [] };
  }

  async function runWorker(sc: Scene, scenario: () => Promise<void>): Promise<void> {
    const { platform } = await stack();
    const worker = await platformWorker(t, {
      taskQueue: sc.taskQueue,
      activities: createActivities({
        knex: platform.knex,
        mailer: mail,
        sms,
        links: {
          ...bookingLinkConfig(platform.deps.config),
          publicBaseUrl: 'https://booking.example.test',
          platformDomain: 'salon.test',
          mailFrom: 'Salong <booking@salon.test>',
        },
      }),
    });
    await worker.runUntil(async () => {
      await scenario();
      // every entry was confirmed (docs/rules/waitlist.md#joining): and no delivery is left in flight when the worker shuts down
      for (const phone of sc.joined)
        await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'WAITLIST_JOINED'), `the joined SMS to ${phone}`);
    });
  }

  const day = () => localDay(3);

  async function book(sc: Scene, time = '10:00') {
    return createPublicBooking(sc.deps, sc.tenant, {
      startTime: at(day(), time),
      items: [{ serviceId: sc.s.serviceId, resourceId: sc.s.staff[0].resourceId }],
      customer: { name: 'Portal Kunde', phone: `+47${crypto.randomInt(40000000, 49999999)}` },
    });
  }

  async function waiter(sc: Scene, name: string) {
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const entry = await joinWaitlist(sc.deps, sc.tenant, {
      serviceIds: [sc.s.serviceId],
      fromDate: localDay(1),
      toDate: localDay(10),
      customer: { name, phone },
    });
    sc.joined.push(phone);
    return { name, phone, entry };
  }

  async function cancel(sc: Scene, bookingId: string) {
    await cancelBooking(sc.deps, sc.tenant, { userId: sc.s.owner.id, role: 'OWNER', resourceId: null }, bookingId, { bySalon: true });
    const db = (await stack()).platform.knex;
    return (await db('waitlist_rounds').where({ tenantId: sc.s.tenant.id }).orderBy('createdAt', 'desc').first()) as { id: string };
  }

  /** The offer sent to `phone` by SMS: its id (message meta) and the token of its link. */
  async function offerTo(phone: string): Promise<{ offerId: string; token: string; text: string }> {
    const message = await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'WAITLIST_OFFER'), `an offer SMS to ${phone}`);
    const token = decodeURIComponent(/token=([^\s&]+)/.exec(message.text)![1]);
    return { offerId: String(message.meta!.offerId), token, text: message.text };
  }

  async function offersSentTo(phone: string): Promise<number> {
    return (await sms.sentTo(phone)).filter((m) => m.meta?.kind === 'WAITLIST_OFFER').length;
  }

  async function rows(table: string, where: Record<string, unknown>) {
    return (await stack()).platform.knex(table).where(where);
  }

  it('FIRST_IN_LINE: when the first waitlister lets the hold expire then the second is offered the time, accepts, and it is booked; the third is never asked', async () => {
    const sc = await scene({ waitlistHoldMinutes: 15 });
    const booking = await book(sc);
    const [first, second, third] = [await waiter(sc, 'Anne'), await waiter(sc, 'Berit'), await waiter(sc, 'Cecilie')];
    await runWorker(sc, async () => {
      const round = await cancel(sc, booking.id);
      const offered = await offerTo(first.phone);
      expect(offered.text)
        .to.contain('Hei Anne!')
        .and.match(/Vi holder timen for deg til kl\. \d\d:\d\d \(15 minutter\)/)
        .and.contain(`https://booking.example.test/${sc.s.tenant.slug}/waitlist/offers/${offered.offerId}?token=`);
      expect(await rows('booking_segments', { waitlistRoundId: round.id })).to.have.length(1);
      await rejectsWith(book(sc), { status: 409, code: 'BOOKING_CONFLICT' });
      expect(await offersSentTo(second.phone)).to.equal(0);

      await t.env.sleep(16 * MINUTE); // the hold runs out
      const next = await offerTo(second.phone);
      expect((await rows('waitlist_offers', { id: offered.offerId }))[0].status).to.equal('EXPIRED');
      await rejectsWith(acceptOffer(sc.deps, sc.tenant, offered.offerId, offered.token), { status: 409, code: 'WAITLIST_OFFER_EXPIRED' });

      const booked = await acceptOffer(sc.deps, sc.tenant, next.offerId, next.token);
      expect(booked).to.include({ startTime: at(day(), '10:00'), customerName: 'Berit' });
      expect(booked.manageToken).to.be.a('string');
      await closedWithoutSkipping(t.env, waitlistOfferContract.workflowId(round.id));
      expect((await rows('waitlist_rounds', { id: round.id }))[0]).to.include({ status: 'FILLED', bookingId: booked.id });
      expect((await rows('waitlist_entries', { id: second.entry.id }))[0]).to.include({ status: 'BOOKED', bookingId: booked.id });
      expect((await rows('waitlist_entries', { id: first.entry.id }))[0].status).to.equal('WAITING');
      expect(await rows('booking_segments', { waitlistRoundId: round.id })).to.have.length(0);
      expect(await offersSentTo(third.phone)).to.equal(0);
    });
  });

  it('BROADCAST: when ten waitlisters accept at once then exactly one booking is made and nine get 409 WAITLIST_OFFER_TAKEN', async () => {
    const sc = await scene({ waitlistMode: 'BROADCAST', waitlistHoldMinutes: 30 });
    const booking = await book(sc);
    const waiters: Awaited<ReturnType<typeof waiter>>[] = [];
    for (let i = 0; i < 10; i++) waiters.push(await waiter(sc, `Venter ${i}`));
    await runWorker(sc, async () => {
      const round = await cancel(sc, booking.id);
      const offers = await Promise.all(waiters.map((w) => offerTo(w.phone)));
      expect(offers[0].text).to.contain('den første som bestiller innen kl. ');
      const outcomes = await Promise.allSettled(offers.map((o) => acceptOffer(sc.deps, sc.tenant, o.offerId, o.token)));
      const booked = outcomes.filter((o) => o.status === 'fulfilled');
      expect(booked).to.have.length(1);
      const codes = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => (o.reason as { code?: string }).code);
      expect(codes).to.deep.equal(Array(9).fill('WAITLIST_OFFER_TAKEN'));
      await closedWithoutSkipping(t.env, waitlistOfferContract.workflowId(round.id));
      const bookingsAtTen = (await rows('bookings', { tenantId: sc.s.tenant.id, startTime: new Date(at(day(), '10:00')) })).filter(
        (b) => b.status !== 'CANCELLED',
      );
      expect(bookingsAtTen).to.have.length(1);
      const statuses = (await rows('waitlist_offers', { roundId: round.id })).map((o) => o.status).sort();
      expect(statuses).to.deep.equal(['ACCEPTED', ...Array(9).fill('TAKEN')]);
      expect(await rows('booking_segments', { waitlistRoundId: round.id })).to.have.length(0);
    });
  });

  it('cancel and re-book race: a portal customer who books before the offer is made gets the time and nobody is offered it', async () => {
    const sc = await scene();
    const booking = await book(sc);
    const w = await waiter(sc, 'Dina');
    const round = await cancel(sc, booking.id); // the round's workflow cannot run yet: no worker on its queue
    const portal = await book(sc);
    await runWorker(sc, async () => {
      await closedWithoutSkipping(t.env, waitlistOfferContract.workflowId(round.id));
      expect((await rows('waitlist_rounds', { id: round.id }))[0].status).to.equal('EXHAUSTED');
      expect(await rows('waitlist_offers', { roundId: round.id })).to.have.length(0);
      expect(await offersSentTo(w.phone)).to.equal(0);
      expect((await rows('bookings', { id: portal.id }))[0].status).to.not.equal('CANCELLED');
    });
  });

  it('cancel and re-book race: while the waitlister holds the time the portal customer gets 409 BOOKING_CONFLICT, and the waitlister books it', async () => {
    const sc = await scene();
    const booking = await book(sc);
    const w = await waiter(sc, 'Eli');
    await runWorker(sc, async () => {
      const round = await cancel(sc, booking.id);
      const { offerId, token } = await offerTo(w.phone);
      await rejectsWith(book(sc), { status: 409, code: 'BOOKING_CONFLICT' });
      const booked = await acceptOffer(sc.deps, sc.tenant, offerId, token);
      expect(booked).to.include({ startTime: at(day(), '10:00'), customerName: 'Eli' });
      await rejectsWith(book(sc), { status: 409, code: 'BOOKING_CONFLICT' });
      await closedWithoutSkipping(t.env, waitlistOfferContract.workflowId(round.id));
    });
  });

  it('FIRST_IN_LINE: when the first declines and the second leaves the waitlist while offered then the third is offered at once, with no hold left behind', async () => {
    const sc = await scene({ waitlistHoldMinutes: 120 });
    const booking = await book(sc);
    const [first, second, third] = [await waiter(sc, 'Hanne'), await waiter(sc, 'Ida'), await waiter(sc, 'Jorunn')];
    await runWorker(sc, async () => {
      const round = await cancel(sc, booking.id);
      const offered = await offerTo(first.phone);
      const declined = await declineOffer(sc.deps, sc.tenant, offered.offerId, offered.token);
      expect(declined.status).to.equal('DECLINED');
      await offerTo(second.phone);
      await leaveWaitlist(sc.deps, sc.tenant, second.entry.id, second.entry.token);
      const last = await offerTo(third.phone);
      expect(await rows('booking_segments', { waitlistRoundId: round.id })).to.have.length(1);
      const booked = await acceptOffer(sc.deps, sc.tenant, last.offerId, last.token);
      expect(booked.customerName).to.equal('Jorunn');
      await closedWithoutSkipping(t.env, waitlistOfferContract.workflowId(round.id));
      const statuses = (await rows('waitlist_offers', { roundId: round.id })).map((o) => [o.step, o.status]).sort();
      expect(statuses).to.deep.equal([
        [1, 'DECLINED'],
        [2, 'DECLINED'],
        [3, 'ACCEPTED'],
      ]);
    });
  });
});
