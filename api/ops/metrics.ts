// Prometheus metrics (prom-client), one registry per app so several apps in one process (tests)
// do not collide: request latency per route and status, bookings created, workflow signal
// failures, provider confirmations that came after their payment expired, database pool use, the
// waitlist's figures (docs/rules/waitlist.md#measured), the reminders' and no-shows' per salon
// (docs/rules/reminders.md#measured) and the bookings moved per salon and mover, which the api reads
// from the database at each scrape. GET /metrics serves them behind METRICS_TOKEN (api/ops/routes.ts).
import type { RequestHandler } from 'express';
import client from 'prom-client';
import type { DbPool } from '../../db/db-handle';
import { poolStats } from '../../db/pool-stats';
import { waitlistFigures, type WaitlistFigures } from '../../domain/waitlist/waitlist.repository';
import { seriesFigures, type SeriesFigures } from '../../domain/series/series.repository';
import { nudgeFigures, type NudgeFigures } from '../../domain/rebooking/rebooking.repository';
import { reminderFiguresBySalon, type SalonReminderFigures } from '../../domain/booking/booking-reminder.repository';
import { cancellationsByReplyPerSalon } from '../../domain/notifications/sms-reply.repository';
import { movesBySalon } from '../../domain/booking/booking-figures.repository';

export class Metrics {
  readonly registry = new client.Registry();
  readonly requestDuration: client.Histogram<'method' | 'route' | 'status'>;
  readonly bookingsCreated: client.Counter<'channel'>;
  readonly signalFailures: client.Counter<'workflow_type'>;
  readonly lateConfirmations: client.Counter<'provider' | 'outcome'>;

  constructor(knex?: DbPool) {
    client.collectDefaultMetrics({ register: this.registry });
    this.requestDuration = new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2, 5],
      registers: [this.registry],
    });
    this.bookingsCreated = new client.Counter({
      name: 'bookings_created_total',
      help: 'Bookings created through the API (public portal, staff, or walk-in)',
      labelNames: ['channel'],
      registers: [this.registry],
    });
    this.signalFailures = new client.Counter({
      name: 'workflow_signal_failures_total',
      help: 'Workflow signals that failed (the state change was refused with 503)',
      labelNames: ['workflow_type'],
      registers: [this.registry],
    });
    this.lateConfirmations = new client.Counter({
      name: 'payments_late_confirmations_total',
      help: 'Provider confirmations (AUTHORIZED or CAPTURED) of payments that had already expired; each is voided or refunded and the customer told',
      labelNames: ['provider', 'outcome'],
      registers: [this.registry],
    });
    new client.Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state (used, free, pending acquires, max)',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const p = knex && poolStats(knex);
        if (!p) return;
        this.set({ state: 'used' }, p.used);
        this.set({ state: 'free' }, p.free);
        this.set({ state: 'pending' }, p.pending);
        this.set({ state: 'max' }, p.max);
      },
    });
    if (knex) this.waitlistGauges(knex);
    if (knex) this.seriesGauges(knex);
    if (knex) this.reminderGauges(knex);
    if (knex) this.moveGauge(knex);
  }

  /**
   * Reminders and no-shows per salon (docs/rules/reminders.md#measured), counted from the rows at
   * each scrape like the waitlist's: reminders are sent by the worker, replies come to any api.
   */
  private reminderGauges(knex: DbPool): void {
    type Figures = { salons: SalonReminderFigures[]; byReply: { salon: string; count: number }[] };
    let pending: Promise<Figures> | undefined;
    const figures = () =>
      (pending ??= Promise.all([reminderFiguresBySalon(knex), cancellationsByReplyPerSalon(knex)])
        .then(([salons, byReply]) => ({ salons, byReply }))
        .finally(() => setImmediate(() => (pending = undefined))));
    const registers = [this.registry];
    new client.Gauge({
      name: 'booking_reminders_sent',
      help: 'Reminders delivered per salon and channel (counted from the database)',
      labelNames: ['salon', 'channel'],
      registers,
      async collect() {
        for (const f of (await figures()).salons) {
          this.set({ salon: f.salon, channel: 'SMS' }, f.remindersSent.SMS);
          this.set({ salon: f.salon, channel: 'EMAIL' }, f.remindersSent.EMAIL);
        }
      },
    });
    // booking_confirmations: the released name of booking_promises (docs/api/changelog.md: kept until 2027-06-01)
    for (const [name, help] of [
      ['booking_promises', 'Bookings the customer promised to come to, per salon and channel (LINK, SMS, STAFF)'],
      ['booking_confirmations', 'Deprecated: booking_promises under its released name'],
    ]) {
      new client.Gauge({
        name,
        help,
        labelNames: ['salon', 'via'],
        registers,
        async collect() {
          for (const f of (await figures()).salons) for (const via of ['LINK', 'SMS', 'STAFF'] as const) this.set({ salon: f.salon, via }, f.promises[via]);
        },
      });
    }
    new client.Gauge({
      name: 'booking_cancellations_by_reply',
      help: 'Bookings cancelled by a NEI/NO reply to the reminder, per salon',
      labelNames: ['salon'],
      registers,
      async collect() {
        const { salons, byReply } = await figures();
        for (const f of salons) this.set({ salon: f.salon }, byReply.find((r) => r.salon === f.salon)?.count ?? 0);
      },
    });
    new client.Gauge({
      name: 'booking_no_shows',
      help: 'Bookings marked NO_SHOW per salon; the no-show rate is no_shows / (no_shows + visits_completed)',
      labelNames: ['salon'],
      registers,
      async collect() {
        for (const f of (await figures()).salons) this.set({ salon: f.salon }, f.noShows);
      },
    });
    new client.Gauge({
      name: 'booking_visits_completed',
      help: 'Bookings COMPLETED per salon (the no-show rate divides by no_shows + this)',
      labelNames: ['salon'],
      registers,
      async collect() {
        for (const f of (await figures()).salons) this.set({ salon: f.salon }, f.completed);
      },
    });
  }

  /** Bookings moved to another time per salon and by whom (docs/rules/booking.md#moving-a-booking), counted from the audit log at each scrape. */
  private moveGauge(knex: DbPool): void {
    new client.Gauge({
      name: 'bookings_moved',
      help: 'Bookings moved to another time since the start, per salon (tenant_id) and by whom (CUSTOMER, STAFF, OWNER, ADMIN); counted from the audit log',
      labelNames: ['tenant_id', 'by'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const row of await movesBySalon(knex)) this.set({ tenant_id: row.tenantId, by: row.actorRole }, row.moves);
      },
    });
  }

  /**
   * The waitlist's figures, counted from the rows at each scrape (offers are made and sent by the
   * worker, which serves no metrics; every api process reports the same numbers).
   */
  private waitlistGauges(knex: DbPool): void {
    let pending: Promise<WaitlistFigures> | undefined;
    // one query per scrape, shared by the three gauges
    const figures = () => (pending ??= waitlistFigures(knex).finally(() => setImmediate(() => (pending = undefined))));
    new client.Gauge({
      name: 'waitlist_offers',
      help: 'Waitlist offers by outcome since the start (sent counts every offer made; counted from the database)',
      labelNames: ['outcome'],
      registers: [this.registry],
      async collect() {
        const f = await figures();
        this.set({ outcome: 'sent' }, f.offersSent);
        this.set({ outcome: 'accepted' }, f.offersAccepted);
        this.set({ outcome: 'expired' }, f.offersExpired);
      },
    });
    new client.Gauge({
      name: 'waitlist_slots_refilled',
      help: 'Freed times booked again from the waitlist (offer rounds FILLED; counted from the database)',
      registers: [this.registry],
      async collect() {
        this.set((await figures()).slotsRefilled);
      },
    });
    new client.Gauge({
      name: 'waitlist_first_offer_delay_seconds',
      help: 'From the change that freed time to the first offer message delivered, over the last day (p50, p95, max)',
      labelNames: ['quantile'],
      registers: [this.registry],
      async collect() {
        const { firstOfferDelay: d } = await figures();
        if (d.p50 !== null) this.set({ quantile: '0.5' }, d.p50);
        if (d.p95 !== null) this.set({ quantile: '0.95' }, d.p95);
        if (d.max !== null) this.set({ quantile: '1' }, d.max);
      },
    });
  }

  /**
   * Standing appointments and rebooking nudges (docs/rules/series.md#measured), counted from the
   * rows at each scrape: the worker books and sends, the api reports.
   */
  private seriesGauges(knex: DbPool): void {
    let pending: Promise<[SeriesFigures, NudgeFigures]> | undefined;
    const figures = () => (pending ??= Promise.all([seriesFigures(knex), nudgeFigures(knex)]).finally(() => setImmediate(() => (pending = undefined))));
    new client.Gauge({
      name: 'series',
      help: 'Standing appointments by status (ACTIVE, ENDED, FINISHED; counted from the database)',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        const [f] = await figures();
        for (const [status, n] of Object.entries(f.seriesByStatus)) this.set({ status }, n);
      },
    });
    new client.Gauge({
      name: 'series_occurrences',
      help: 'Occurrences the standing appointments handled, by outcome: booked as planned, moved to the nearest free time, skipped, cancelled in advance',
      labelNames: ['outcome'],
      registers: [this.registry],
      async collect() {
        const [f] = await figures();
        for (const [outcome, n] of Object.entries(f.occurrencesByStatus)) this.set({ outcome: outcome.toLowerCase() }, n);
      },
    });
    new client.Gauge({
      name: 'rebooking_nudges',
      help: 'Rebooking nudges sent (one per visit), and those followed by a booking at the salon within 14 days (made from a nudge)',
      labelNames: ['outcome'],
      registers: [this.registry],
      async collect() {
        const [, n] = await figures();
        this.set({ outcome: 'sent' }, n.sent);
        this.set({ outcome: 'booked' }, n.booked);
      },
    });
  }

  /** Times every request; the route label is the matched route template, never the raw path. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const end = this.requestDuration.startTimer();
      // Routers reset req.baseUrl once they are done (on an error path, before 'finish'), so the
      // mount path is taken from the original URL: '/api' for every area router.
      res.once('finish', () => {
        const route = req.route?.path ? `${mountOf(req.originalUrl, String(req.route.path))}${String(req.route.path)}` : 'unmatched';
        const status = String(res.statusCode);
        end({ method: req.method, route, status });
        if (req.method === 'POST' && res.statusCode === 201 && /\/bookings(\/walk-in)?$/.test(route)) {
          this.bookingsCreated.inc({ channel: bookingChannel(route) });
        }
      });
      next();
    };
  }
}

/** The channel a booking-creating route stands for: the public portal, a walk-in, or staff. */
function bookingChannel(route: string): 'PUBLIC' | 'WALK_IN' | 'STAFF' {
  if (route.includes('/public/')) return 'PUBLIC';
  return route.endsWith('/walk-in') ? 'WALK_IN' : 'STAFF';
}

/** The prefix the router was mounted at: '/api' for the area routers, '' for a route on the app. */
function mountOf(originalUrl: string, routePath: string): string {
  return originalUrl.startsWith('/api/') && !routePath.startsWith('/api/') ? '/api' : '';
}
