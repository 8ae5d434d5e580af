/**
 * Standing appointments (docs/rules/series.md): made by staff from a booking (POST /series) or by a
 * signed-in customer from their own completed or upcoming booking (POST /customer/me/series), read,
 * changed (interval, staff member: occurrences not yet booked follow), ended, and one occurrence
 * cancelled. Every change goes through the change primitive (series-change.ts), so the series'
 * workflow (`series:<id>`) is told before commit; the workflow books the occurrences.
 *
 * Concurrency: every change locks the series row (SELECT ... FOR UPDATE), and so does booking an
 * occurrence (series-occurrence.service.ts), so a change and a booking of the same series never
 * interleave; the occurrence key (series, index) makes a second booking of one occurrence impossible.
 */
import type { Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { tenantById } from '../tenant/tenant-context';
import { addDays, isValidLocalDate, utcToLocalDate } from '../time/salon-time.rules';
import { nowOf } from '../time/clock';
import type { PageResult } from '../../db/paginate';
import { assertResourcesExist } from '../availability/availability.service';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { bookingById } from '../booking/booking-timeline.repository';
import { itemsOf, lockBookingRow } from '../booking/booking.repository';
import { statusesOfBookings } from '../booking/booking-list.repository';
import { assertStaffScope } from '../booking/booking-access.service';
import { cancelBooking } from '../booking/booking-cancel.service';
import type { Actor, BookingDeps, BookingRow } from '../booking/booking.types';
import type { BookingHooks } from '../booking/booking-hooks';
import { awaitsDeposit, isTerminalStatus } from '../booking/booking-status.rules';
import { changeSeries, createSeriesRows } from './series-change';
import { seriesDto, type SeriesDto } from './series.dto';
import { SERIES_INTERVAL_WEEKS, SERIES_OCCURRENCE_COUNT, SERIES_UNTIL_MAX_DAYS, isInSeries, plannedStartOf } from './series.rules';
import {
  activeSeriesOfTenant,
  findOccurrence,
  findSeries,
  insertOccurrence,
  lastHandledIndex,
  lockSeries,
  lockSeriesStartedBy,
  occurrencesOf,
  pageOfSeries,
  seriesById,
  seriesByIds,
  seriesOfBookings,
  updateSeriesVersioned,
  type SeriesRow,
} from './series.repository';

export type SeriesDeps = BookingDeps;

export interface SeriesInput {
  bookingId: string;
  intervalWeeks: number;
  /** occurrences, the first booking included (2 to 52); or untilDate */
  occurrenceCount?: number;
  /** salon-local YYYY-MM-DD, at most 730 days after the first booking */
  untilDate?: string;
}

export interface SeriesPatch {
  intervalWeeks?: number;
  resourceId?: string;
}

const notActive = (s: SeriesRow) => errors.conflict('SERIES_NOT_ACTIVE', `The series is ${s.status.toLowerCase()}; it can no longer be changed`);

/** STAFF act on the series of their own staff member only (docs/rules/auth.md#staff-scoping). */
function assertSeriesScope(actor: Actor, series: SeriesRow): void {
  if (actor.role !== 'STAFF') return;
  if (!actor.resourceId || actor.resourceId !== series.resourceId) throw errors.forbidden('This series belongs to another staff member');
}

function assertPlanInput(input: SeriesInput): void {
  const details = [];
  if (!Number.isInteger(input.intervalWeeks) || input.intervalWeeks < SERIES_INTERVAL_WEEKS.min || input.intervalWeeks > SERIES_INTERVAL_WEEKS.max) {
    details.push({ field: 'intervalWeeks', message: `must be ${SERIES_INTERVAL_WEEKS.min} to ${SERIES_INTERVAL_WEEKS.max}` });
  }
  if ((input.occurrenceCount === undefined) === (input.untilDate === undefined))
    details.push({ field: 'occurrenceCount', message: 'give occurrenceCount or untilDate, one of them' });
  if (
    input.occurrenceCount !== undefined &&
    (!Number.isInteger(input.occurrenceCount) || input.occurrenceCount < SERIES_OCCURRENCE_COUNT.min || input.occurrenceCount > SERIES_OCCURRENCE_COUNT.max)
  ) {
    details.push({ field: 'occurrenceCount', message: `must be ${SERIES_OCCURRENCE_COUNT.min} to ${SERIES_OCCURRENCE_COUNT.max}` });
  }
  if (input.untilDate !== undefined && !isValidLocalDate(input.untilDate)) details.push({ field: 'untilDate', message: 'must be a valid YYYY-MM-DD date' });
  if (details.length) throw errors.validation('Request validation failed', details);
}

/**
 * Whether the salon would honour the booking a series starts from (docs/rules/series.md#making-a-series):
 * it has approved it (not PENDING) and its deposit is not still to be paid; otherwise a series would
 * skip the approval and the deposit its occurrences follow.
 */
function assertHonoured(booking: BookingRow): void {
  if (booking.status === 'PENDING')
    throw errors.unprocessable('SERIES_BOOKING_NOT_CONFIRMED', 'A series is made from a booking the salon has confirmed; this one waits for its approval');
  if (awaitsDeposit(booking))
    throw errors.unprocessable('SERIES_BOOKING_NOT_PAID', 'A series is made from a booking whose deposit is paid; this one waits for it');
}

/** The booking a series starts from, and who books: its one staff member and its services. */
async function seriesSource(trx: Transaction, booking: BookingRow, input: SeriesInput, tz: string, who: 'STAFF' | 'CUSTOMER', now: Date) {
  const usable =
    who === 'CUSTOMER'
      ? booking.status === 'COMPLETED' || (!isTerminalStatus(booking.status) && booking.startTime > now)
      : booking.status !== 'CANCELLED' && booking.status !== 'NO_SHOW';
  if (!usable) {
    throw errors.unprocessable(
      'SERIES_BOOKING_NOT_USABLE',
      who === 'CUSTOMER'
        ? 'A series is made from a completed or an upcoming booking'
        : `A series cannot be made from a ${booking.status.toLowerCase()} booking`,
    );
  }
  assertHonoured(booking);
  if (!booking.customerId) throw errors.unprocessable('SERIES_NEEDS_CUSTOMER', 'The booking has no customer to book the series for');
  const items = (await itemsOf(trx, [booking.id])).sort((a, b) => a.sortOrder - b.sortOrder);
  const resourceIds = new Set(items.map((i) => i.resourceId));
  const resourceId = items[0]?.resourceId ?? null;
  if (resourceIds.size !== 1 || resourceId === null) {
    throw errors.unprocessable(
      'SERIES_NEEDS_ONE_STAFF_MEMBER',
      'A series keeps one staff member: every service of the booking must be with the same, chosen staff member',
    );
  }
  if ((await seriesOfBookings(trx, [booking.id])).size) throw errors.conflict('SERIES_ALREADY_EXISTS', 'This booking already belongs to a series');
  if (input.untilDate !== undefined) {
    const first = utcToLocalDate(booking.startTime, tz);
    if (input.untilDate <= first || input.untilDate > addDays(first, SERIES_UNTIL_MAX_DAYS)) {
      throw errors.validation('Request validation failed', [
        { field: 'untilDate', message: `must be after the first booking's date and at most ${SERIES_UNTIL_MAX_DAYS} days after it` },
      ]);
    }
  }
  return { resourceId, serviceIds: items.map((i) => i.serviceId), customerId: booking.customerId };
}

async function createFrom(
  deps: SeriesDeps,
  tenant: TenantContext,
  booking: BookingRow,
  input: SeriesInput,
  trx: Transaction,
  by: { via: 'STAFF' | 'CUSTOMER'; userId: string | null; accountId: string | null },
) {
  const source = await seriesSource(trx, booking, input, tenant.settings.timezone, by.via, nowOf(deps));
  return createSeriesRows(deps.signaller, trx, {
    tenantId: tenant.id,
    customerId: source.customerId,
    resourceId: source.resourceId,
    serviceIds: source.serviceIds,
    intervalWeeks: input.intervalWeeks,
    firstBookingId: booking.id,
    anchorStart: booking.startTime,
    occurrenceCount: input.occurrenceCount ?? null,
    untilDate: input.untilDate ?? null,
    createdVia: by.via,
    createdBy: by.userId,
    customerAccountId: by.accountId,
  });
}

/** POST /series (STAFF+; STAFF from a booking of their own). */
export async function createSeries(deps: SeriesDeps, tenant: TenantContext, actor: Actor, input: SeriesInput): Promise<SeriesDto> {
  assertPlanInput(input);
  const series = await deps.knex.transaction(async (trx) => {
    const booking = await lockBookingRow(trx, tenant.id, input.bookingId);
    await assertStaffScope(trx, actor, booking);
    return createFrom(deps, tenant, booking, input, trx, { via: 'STAFF', userId: actor.userId, accountId: booking.customerAccountId });
  });
  return getSeries(deps, tenant, actor, series.id);
}

/** POST /customer/me/series: the signed-in customer's own completed or upcoming booking (anyone else's is 404). */
export async function createCustomerSeries(deps: SeriesDeps, accountId: string, input: SeriesInput): Promise<SeriesDto> {
  assertPlanInput(input);
  const found = await bookingById(deps.knex, input.bookingId);
  if (!found || found.customerAccountId !== accountId) throw errors.notFound('booking');
  const tenant = await tenantById(deps.knex, found.tenantId);
  const series = await deps.knex.transaction(async (trx) => {
    const booking = await lockBookingRow(trx, tenant.id, input.bookingId);
    return createFrom(deps, tenant, booking, input, trx, { via: 'CUSTOMER', userId: null, accountId });
  });
  return (await seriesDtos(deps, tenant.settings.timezone, [series]))[0];
}

async function seriesDtos(deps: SeriesDeps, timezone: string, rows: SeriesRow[]): Promise<SeriesDto[]> {
  const occurrences = await occurrencesOf(
    deps.knex,
    rows.map((r) => r.id),
  );
  const statuses = await statusesOfBookings(
    deps.knex,
    occurrences.map((o) => o.bookingId).filter((id): id is string => !!id),
  );
  const now = nowOf(deps);
  return rows.map((r) =>
    seriesDto(
      r,
      occurrences.filter((o) => o.seriesId === r.id),
      statuses,
      timezone,
      now,
    ),
  );
}

/** GET /series/:id */
export async function getSeries(deps: SeriesDeps, tenant: TenantContext, actor: Actor, id: string): Promise<SeriesDto> {
  const series = await findSeries(deps.knex, tenant.id, id);
  if (!series) throw errors.notFound('series');
  assertSeriesScope(actor, series);
  return (await seriesDtos(deps, tenant.settings.timezone, [series]))[0];
}

/** GET /series (STAFF: their own staff member's). */
export async function listSeries(
  deps: SeriesDeps,
  tenant: TenantContext,
  actor: Actor,
  query: { page: number; limit: number; status?: SeriesRow['status']; customerId?: string },
): Promise<PageResult<SeriesDto>> {
  const resourceId = actor.role === 'STAFF' ? (actor.resourceId ?? '00000000-0000-0000-0000-000000000000') : undefined;
  const page = await pageOfSeries(deps.knex, tenant.id, { resourceId, status: query.status, customerId: query.customerId }, query);
  return { ...page, rows: await seriesDtos(deps, tenant.settings.timezone, page.rows) };
}

/** The series of these bookings (a customer's bookings list and the manage page show them), by booking id. */
export async function seriesOfTheseBookings(
  deps: Pick<SeriesDeps, 'knex' | 'now'>,
  bookings: { id: string; timezone: string }[],
): Promise<Map<string, SeriesDto>> {
  const links = await seriesOfBookings(
    deps.knex,
    bookings.map((b) => b.id),
  );
  const rows = await seriesByIds(deps.knex, [...new Set([...links.values()].map((l) => l.seriesId))]);
  const out = new Map<string, SeriesDto>();
  for (const row of rows) {
    const timezone = bookings.find((b) => links.get(b.id)?.seriesId === row.id)!.timezone;
    const [dto] = await seriesDtos(deps as SeriesDeps, timezone, [row]);
    for (const [bookingId, link] of links) if (link.seriesId === row.id) out.set(bookingId, dto);
  }
  return out;
}

async function lockedSeries(trx: Transaction, tenant: TenantContext, actor: Actor, id: string): Promise<SeriesRow> {
  const series = await lockSeries(trx, tenant.id, id);
  if (!series) throw errors.notFound('series');
  assertSeriesScope(actor, series);
  return series;
}

/**
 * PATCH /series/:id: a new interval or staff member for the occurrences not yet booked. A new
 * interval counts from the last occurrence the series handled (its planned time), so the booked ones
 * stay where they are.
 */
export async function updateSeries(deps: SeriesDeps, tenant: TenantContext, actor: Actor, id: string, patch: SeriesPatch): Promise<SeriesDto> {
  await deps.knex.transaction(async (trx) => {
    const series = await lockedSeries(trx, tenant, actor, id);
    const moves = patch.resourceId !== undefined && patch.resourceId !== series.resourceId;
    if (moves && actor.role === 'STAFF') throw errors.forbidden('Staff may not move a series to another staff member');
    if (series.status !== 'ACTIVE') throw notActive(series);
    const changes: Parameters<typeof updateSeriesVersioned>[2] = {};
    if (moves && patch.resourceId) {
      await assertResourcesExist(trx, tenant.id, [patch.resourceId]);
      changes.resourceId = patch.resourceId;
    }
    if (patch.intervalWeeks !== undefined && patch.intervalWeeks !== series.intervalWeeks) {
      const last = await lastHandledIndex(trx, series.id);
      changes.anchorIndex = last;
      changes.anchorStart = plannedStartOf(series, last, tenant.settings.timezone);
      changes.intervalWeeks = patch.intervalWeeks;
    }
    if (Object.keys(changes).length) await changeSeries(deps.signaller, trx, series, changes, 'SeriesChanged');
  });
  return getSeries(deps, tenant, actor, id);
}

/**
 * POST /series/:id/end: no further occurrence is booked. What is already booked stays, unless
 * `cancelBooked`: then every booking of the series still to come is cancelled by the salon.
 */
export async function endSeries(deps: SeriesDeps, tenant: TenantContext, actor: Actor, id: string, input: { cancelBooked?: boolean }): Promise<SeriesDto> {
  const now = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    const series = await lockedSeries(trx, tenant, actor, id);
    if (series.status !== 'ACTIVE') throw notActive(series);
    await changeSeries(deps.signaller, trx, series, { status: 'ENDED', endedAt: now }, 'SeriesEnded');
    if (input.cancelBooked) await cancelBookedToCome({ ...deps, knex: trx }, tenant, actor, series, now, 'The standing appointment was ended');
  });
  return getSeries(deps, tenant, actor, id);
}

/** Every booking of the locked series still to come, cancelled by the salon with its usual messages and refunds (a cancelled or finished one is left). */
async function cancelBookedToCome(deps: SeriesDeps, tenant: TenantContext, actor: Actor, series: SeriesRow, now: Date, reason: string): Promise<void> {
  const booked = (await occurrencesOf(deps.knex, [series.id])).filter((o) => o.bookingId && o.startTime && o.startTime > now);
  const statuses = await statusesOfBookings(
    deps.knex,
    booked.map((o) => o.bookingId!),
  );
  for (const o of booked) {
    if (isTerminalStatus(statuses.get(o.bookingId!)!)) continue;
    await cancelBooking(deps, tenant, actor, o.bookingId!, { bySalon: true, reason });
  }
}

/**
 * BookingHooks.bookingCancelled (docs/rules/series.md#changing-cancelling-ending): the salon or the
 * platform cancelling the booking a series was made from takes away what the series stands on, so
 * the series ends (FIRST_BOOKING_CANCELLED) and its workflow, told before this commits, cancels the
 * bookings it made that are still to come (cancelBookingsOfEndedSeries). The customer cancelling it
 * takes one visit off, as for any occurrence; any other booking's cancellation changes no series.
 */
export const firstBookingCancelled: BookingHooks['bookingCancelled'] = async (signaller, trx, cancelled, now) => {
  if (cancelled.by === 'CUSTOMER') return;
  const series = await lockSeriesStartedBy(trx, cancelled.tenantId, cancelled.bookingId);
  // FINISHED: every occurrence is booked (a long booking window books them all at once), some still to come
  if (series?.status !== 'ACTIVE' && series?.status !== 'FINISHED') return;
  await changeSeries(signaller, trx, series, { status: 'ENDED', endedAt: now, endReason: 'FIRST_BOOKING_CANCELLED' }, 'SeriesFirstBookingCancelled');
};

/** Who cancels the bookings of a series whose first booking was cancelled: the series' workflow. */
const SERIES_WORKFLOW_ACTOR: Actor = { userId: null, role: 'SYSTEM', resourceId: null };

/**
 * The series' workflow, once its first booking was cancelled by the salon or the platform: every
 * booking the series made that is still to come is cancelled by the salon. Idempotent: a cancelled
 * booking is left, so a retried step cancels nothing twice.
 */
export async function cancelBookingsOfEndedSeries(deps: SeriesDeps, seriesId: string): Promise<void> {
  const now = nowOf(deps);
  const found = await seriesById(deps.knex, seriesId);
  if (!found || found.endReason !== 'FIRST_BOOKING_CANCELLED') return;
  const tenant = await tenantById(deps.knex, found.tenantId);
  await deps.knex.transaction(async (trx) => {
    const series = (await lockSeries(trx, tenant.id, seriesId))!;
    await cancelBookedToCome(
      { ...deps, knex: trx },
      tenant,
      SERIES_WORKFLOW_ACTOR,
      series,
      now,
      'The booking the standing appointment was made from was cancelled',
    );
  });
}

/**
 * POST /series/:id/occurrences/:index/cancel: one occurrence off, the series goes on. A booked one is
 * cancelled by the salon like any booking; one not yet booked is marked so it never will be.
 */
export async function cancelOccurrence(deps: SeriesDeps, tenant: TenantContext, actor: Actor, id: string, index: number): Promise<SeriesDto> {
  await deps.knex.transaction(async (trx) => {
    const series = await lockedSeries(trx, tenant, actor, id);
    const existing = await findOccurrence(trx, series.id, index);
    if (existing?.bookingId) {
      const status = (await statusesOfBookings(trx, [existing.bookingId])).get(existing.bookingId)!;
      if (isTerminalStatus(status)) throw errors.conflict('SERIES_OCCURRENCE_NOT_OPEN', `That occurrence's booking is ${status.toLowerCase()}`);
      await cancelBooking({ ...deps, knex: trx }, tenant, actor, existing.bookingId, {
        bySalon: true,
        reason: 'One occurrence of the standing appointment cancelled',
      });
      return;
    }
    if (existing) throw errors.conflict('SERIES_OCCURRENCE_NOT_OPEN', `That occurrence is already ${existing.status.toLowerCase()}`);
    if (series.status !== 'ACTIVE') throw notActive(series);
    const planned = plannedStartOf(series, index, tenant.settings.timezone);
    if (index < 1 || !isInSeries(series, index, planned, tenant.settings.timezone)) throw errors.notFound('seriesOccurrence');
    await insertOccurrence(trx, {
      seriesId: series.id,
      occurrenceIndex: index,
      tenantId: tenant.id,
      status: 'CANCELLED',
      plannedStart: planned,
      startTime: null,
      bookingId: null,
      reason: 'CANCELLED_IN_ADVANCE',
    });
    await changeSeries(deps.signaller, trx, series, {}, 'SeriesOccurrenceCancelled');
  });
  return getSeries(deps, tenant, actor, id);
}

/**
 * The salon's booking window grew (TenantHooks.bookingWindowGrew): each active series is told, so
 * its workflow books the occurrences now inside the window at once instead of at its next timer.
 */
export async function bookingWindowGrew(signaller: EntitySignaller, trx: Transaction, tenantId: string): Promise<void> {
  for (const series of await activeSeriesOfTenant(trx, tenantId)) {
    const locked = await lockSeries(trx, tenantId, series.id);
    if (locked?.status === 'ACTIVE') await changeSeries(signaller, trx, locked, {}, 'SeriesWindowChanged');
  }
}
