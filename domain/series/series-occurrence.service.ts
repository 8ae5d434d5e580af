/**
 * Booking a series' occurrences as they enter the salon's booking window
 * (docs/rules/series.md#booking-an-occurrence). The series' workflow asks at each due time; this
 * books every occurrence whose time has come, each through the same booking service as POST
 * /bookings (same placement, window and overlap rules), and answers what it did and when to ask next.
 *
 * Exactly once per occurrence: each occurrence is booked in one transaction that holds the series'
 * row lock, finds no row for (series, index), books and writes that row. A retried or concurrent
 * attempt waits on the lock and then finds the row: it books nothing. The free time is looked up
 * before that transaction, on the pool; the booking's own checks refuse it if it was taken meanwhile.
 */
import type { DbPool } from '../../db/db-handle';
import { AppError } from '../errors';
import { tenantById, type TenantContext } from '../tenant/tenant-context';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { createOccurrenceBooking } from '../booking/booking-create.service';
import type { Actor, BookingDeps } from '../booking/booking.types';
import { toIso } from '../time/iso';
import { bookingById } from '../booking/booking-timeline.repository';
import { changeSeries } from './series-change';
import { nearestFreeStart } from './series-availability';
import { bookableFrom, isInSeries, plannedStartOf, toleranceDaysOf, type OccurrenceReason, type OccurrenceStatus } from './series.rules';
import { findOccurrence, insertOccurrence, lockSeries, occurrencesOf, seriesById, type SeriesRow } from './series.repository';

export interface HandledOccurrence {
  index: number;
  status: OccurrenceStatus;
  reason: OccurrenceReason | null;
  plannedStart: string;
  startTime: string | null;
}

export interface SeriesStep {
  /** occurrences above `after` the series booked, moved or skipped (not those cancelled in advance), lowest first */
  handled: HandledOccurrence[];
  /** epoch ms: when the next occurrence enters the booking window; null when nothing is left to book */
  nextDueAt: number | null;
  /** the series has nothing left to book (finished, or ended) */
  done: boolean;
}

export interface OccurrenceDeps extends Omit<BookingDeps, 'knex' | 'now'> {
  knex: DbPool;
}

/** Who books an occurrence, in the booking's audit log. */
const SERIES_ACTOR: Actor = { userId: null, role: 'SYSTEM', resourceId: null };
/** Attempts at the nearest free time when the one found is taken before it is booked. */
const ATTEMPTS = 3;
/** Occurrences booked in one step at most; the workflow asks again at once for the rest (a short step is retried soon after a crash). */
export const OCCURRENCES_PER_STEP = 5;

/** Errors of the booking service that say "that time is not free": try the next nearest. */
function isTimeRefused(err: unknown): err is AppError {
  return err instanceof AppError && (err.status === 409 || err.code === 'RESOURCE_NOT_AVAILABLE');
}

type Attempt = { done: true } | { done: false; refused?: Date };

/**
 * Books occurrence `index` once. The free time is found first, on the pool and outside any
 * transaction (a transaction waiting on the pool for more connections would starve it); then one
 * transaction locks the series, checks that nothing changed (the version) and that the occurrence is
 * still unhandled, books through the booking service and writes the occurrence's row.
 */
async function bookOccurrence(deps: OccurrenceDeps, tenant: TenantContext, seriesId: string, index: number, at: Date): Promise<void> {
  const refused: Date[] = [];
  for (let attempt = 0; attempt < ATTEMPTS + 2; attempt++) {
    const outcome = await tryOnce(deps, tenant, seriesId, index, at, refused);
    if (outcome.done) return;
    if (outcome.refused) refused.push(outcome.refused);
  }
  await deps.knex.transaction(async (trx) => {
    const series = await lockSeries(trx, tenant.id, seriesId);
    if (!series || series.status !== 'ACTIVE' || (await findOccurrence(trx, seriesId, index))) return;
    const planned = plannedStartOf(series, index, tenant.settings.timezone);
    await insertOccurrence(trx, {
      seriesId,
      occurrenceIndex: index,
      tenantId: tenant.id,
      status: 'SKIPPED',
      plannedStart: planned,
      startTime: null,
      bookingId: null,
      reason: 'NO_FREE_TIME',
    });
  });
}

async function tryOnce(deps: OccurrenceDeps, tenant: TenantContext, seriesId: string, index: number, at: Date, refused: Date[]): Promise<Attempt> {
  const seen = await seriesById(deps.knex, seriesId);
  if (!seen || seen.status !== 'ACTIVE' || (await findOccurrence(deps.knex, seriesId, index))) return { done: true };
  const planned = plannedStartOf(seen, index, tenant.settings.timezone);
  const start =
    planned.getTime() <= at.getTime() || refused.length >= ATTEMPTS
      ? null
      : await nearestFreeStart(deps.knex, tenant, {
          serviceIds: seen.serviceIds,
          resourceId: seen.resourceId,
          target: planned,
          toleranceDays: toleranceDaysOf(tenant.settings),
          now: at,
          exclude: refused,
        });
  // the occurrence is written in the language of the series' first booking (docs/rules/messages.md#language)
  const language = (await bookingById(deps.knex, seen.firstBookingId))?.language;
  return deps.knex.transaction(async (trx): Promise<Attempt> => {
    const series = await lockSeries(trx, tenant.id, seriesId);
    if (!series || series.status !== 'ACTIVE' || (await findOccurrence(trx, seriesId, index))) return { done: true };
    if (series.version !== seen.version) return { done: false }; // changed meanwhile: plan again
    const row = {
      seriesId,
      occurrenceIndex: index,
      tenantId: tenant.id,
      plannedStart: planned,
      startTime: null as Date | null,
      bookingId: null as string | null,
      reason: null as string | null,
    };
    if (planned.getTime() <= at.getTime()) {
      await insertOccurrence(trx, { ...row, status: 'SKIPPED', reason: 'PASSED' });
      return { done: true };
    }
    if (!start) {
      await insertOccurrence(trx, { ...row, status: 'SKIPPED', reason: 'NO_FREE_TIME' });
      return { done: true };
    }
    try {
      // the salon's approval and deposit as the series' kind of booking has them (docs/rules/series.md#booking-an-occurrence)
      const booking = await createOccurrenceBooking({ ...deps, knex: trx, now: () => at }, tenant, SERIES_ACTOR, {
        startTime: toIso(start),
        items: series.serviceIds.map((serviceId) => ({ serviceId, resourceId: series.resourceId })),
        customerId: series.customerId,
        madeBy: series.createdVia === 'CUSTOMER' ? { via: 'CUSTOMER', customerAccountId: series.customerAccountId } : { via: 'STAFF' },
        language,
      });
      const moved = start.getTime() !== planned.getTime();
      await insertOccurrence(trx, { ...row, status: moved ? 'MOVED' : 'BOOKED', startTime: start, bookingId: booking.id, reason: moved ? 'NOT_FREE' : null });
      return { done: true };
    } catch (err) {
      // taken between the answer and the booking: the next nearest (the savepoint rolled the attempt back)
      if (isTimeRefused(err)) return { done: false, refused: start };
      if (err instanceof AppError && err.status < 500) {
        await insertOccurrence(trx, { ...row, status: 'SKIPPED', reason: err.code });
        return { done: true };
      }
      throw err;
    }
  });
}

/** The series has no occurrence left to book: FINISHED (its own workflow's change, no signal). */
async function finish(knex: DbPool, signaller: EntitySignaller, tenantId: string, seriesId: string): Promise<void> {
  await knex.transaction(async (trx) => {
    const series = await lockSeries(trx, tenantId, seriesId);
    if (series?.status === 'ACTIVE') await changeSeries(signaller, trx, series, { status: 'FINISHED' }, null);
  });
}

/**
 * Books every occurrence of the series that has entered the booking window by `at` (the workflow's
 * clock) and is not handled yet, in order; answers what happened to the occurrences above `after`
 * and when the next one enters the window.
 */
export async function bookDueOccurrences(deps: OccurrenceDeps, seriesId: string, at: Date, after: number): Promise<SeriesStep> {
  const found = await seriesById(deps.knex, seriesId);
  if (!found) return { handled: [], nextDueAt: null, done: true };
  const tenant = await tenantById(deps.knex, found.tenantId);
  const tz = tenant.settings.timezone;
  let nextDueAt: number | null = null;
  let done = found.status !== 'ACTIVE';
  let series: SeriesRow = found;
  let booked = 0;
  for (let index = 1; !done; index++) {
    const handled = await findOccurrence(deps.knex, seriesId, index);
    if (handled) continue;
    const planned = plannedStartOf(series, index, tz);
    if (!isInSeries(series, index, planned, tz)) {
      await finish(deps.knex, deps.signaller, tenant.id, seriesId);
      done = true;
      break;
    }
    const due = bookableFrom(planned, tz, tenant.settings.maxBookingDaysInAdvance);
    if (due > at.getTime()) {
      nextDueAt = due;
      break;
    }
    if (booked === OCCURRENCES_PER_STEP) {
      nextDueAt = at.getTime();
      break;
    }
    booked += 1;
    await bookOccurrence(deps, tenant, seriesId, index, at);
    // a change committed meanwhile (a new interval, ended) is read before the next occurrence
    series = (await seriesById(deps.knex, seriesId))!;
    if (series.status !== 'ACTIVE') done = true;
  }
  const handled = (await occurrencesOf(deps.knex, [seriesId]))
    .filter((o) => o.occurrenceIndex > after && o.status !== 'CANCELLED')
    .map((o) => ({
      index: o.occurrenceIndex,
      status: o.status,
      reason: o.reason,
      plannedStart: toIso(o.plannedStart),
      startTime: o.startTime ? toIso(o.startTime) : null,
    }));
  return { handled, nextDueAt: done ? null : nextDueAt, done };
}
