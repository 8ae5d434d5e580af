/**
 * Every query of the series area (docs/rules/series.md): series, their occurrences and the claims of
 * their messages, through their models with the caller's handle; plain rows out.
 */
import { fn } from 'objection';
import type { Db, Transaction } from '../../db/db-handle';
import { plain, returnedRows } from '../../db/plain';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { BookingSeriesModel } from '../../db/models/booking-series.model';
import { BookingSeriesOccurrenceModel } from '../../db/models/booking-series-occurrence.model';
import { BookingSeriesNotificationModel } from '../../db/models/booking-series-notification.model';
import type { OccurrenceStatus, SeriesEndReason, SeriesStatus } from './series.rules';

export type SeriesRow = Omit<ReturnType<typeof plain<BookingSeriesModel>>, 'status' | 'endReason'> & {
  status: SeriesStatus;
  endReason: SeriesEndReason | null;
};
export type OccurrenceRow = Omit<ReturnType<typeof plain<BookingSeriesOccurrenceModel>>, 'status'> & { status: OccurrenceStatus };

const seriesRow = (m: BookingSeriesModel) => plain(m) as SeriesRow;
const occurrenceRow = (m: BookingSeriesOccurrenceModel) => plain(m) as OccurrenceRow;

export type NewSeries = Pick<
  SeriesRow,
  | 'tenantId'
  | 'customerId'
  | 'resourceId'
  | 'serviceIds'
  | 'intervalWeeks'
  | 'firstBookingId'
  | 'anchorStart'
  | 'occurrenceCount'
  | 'untilDate'
  | 'createdVia'
  | 'createdBy'
  | 'customerAccountId'
>;

/** Throws booking_series_first_booking_unique when the booking already starts a series. */
export async function insertSeries(trx: Transaction, series: NewSeries): Promise<SeriesRow> {
  const [row] = await returnedRows<SeriesRow>(
    BookingSeriesModel.query(trx)
      .insert({ ...series, anchorIndex: 0, status: 'ACTIVE', version: 1 })
      .returning('*'),
  );
  return row;
}

export async function findSeries(db: Db, tenantId: string, id: string): Promise<SeriesRow | undefined> {
  const row = await BookingSeriesModel.query(db).findOne({ tenantId, id });
  return row && seriesRow(row);
}

export async function seriesById(db: Db, id: string): Promise<SeriesRow | undefined> {
  const row = await BookingSeriesModel.query(db).findById(id);
  return row && seriesRow(row);
}

export async function lockSeries(trx: Transaction, tenantId: string, id: string): Promise<SeriesRow | undefined> {
  const row = await BookingSeriesModel.query(trx).findOne({ tenantId, id }).forUpdate();
  return row && seriesRow(row);
}

/** Compare-and-set at `version`: `changes` with version + 1; undefined when the row moved. */
export async function updateSeriesVersioned(
  trx: Transaction,
  series: SeriesRow,
  changes: Partial<Pick<SeriesRow, 'status' | 'intervalWeeks' | 'resourceId' | 'anchorIndex' | 'anchorStart' | 'endedAt' | 'endReason'>>,
): Promise<SeriesRow | undefined> {
  const [row] = await returnedRows<SeriesRow>(
    BookingSeriesModel.query(trx)
      .patch({ ...changes, version: series.version + 1, updatedAt: fn.now() as unknown as Date })
      .where({ id: series.id, version: series.version })
      .returning('*'),
  );
  return row;
}

export interface SeriesFilter {
  /** STAFF see the series of their own resource only */
  resourceId?: string;
  status?: SeriesStatus;
  customerId?: string;
}

export async function pageOfSeries(db: Db, tenantId: string, filter: SeriesFilter, page: PageQuery): Promise<PageResult<SeriesRow>> {
  const query = BookingSeriesModel.query(db).where({ tenantId }).orderBy('createdAt', 'desc').orderBy('id');
  if (filter.resourceId) query.where({ resourceId: filter.resourceId });
  if (filter.status) query.where({ status: filter.status });
  if (filter.customerId) query.where({ customerId: filter.customerId });
  const result = await paginate(query, page);
  return { ...result, rows: result.rows.map((r) => r as SeriesRow) };
}

/** Active series of a salon (a grown booking window tells each of them). */
export async function activeSeriesOfTenant(db: Db, tenantId: string): Promise<SeriesRow[]> {
  return (await BookingSeriesModel.query(db).where({ tenantId, status: 'ACTIVE' }).orderBy('id')).map(seriesRow);
}

/** The series a booking starts (its occurrence 0), locked; undefined when it starts none. */
export async function lockSeriesStartedBy(trx: Transaction, tenantId: string, firstBookingId: string): Promise<SeriesRow | undefined> {
  const row = await BookingSeriesModel.query(trx).findOne({ tenantId, firstBookingId }).forUpdate();
  return row && seriesRow(row);
}

/** The series a booking starts or is an occurrence of (id and its index), if any. */
export async function seriesOfBookings(db: Db, bookingIds: readonly string[]): Promise<Map<string, { seriesId: string; occurrenceIndex: number }>> {
  if (!bookingIds.length) return new Map();
  const rows = await BookingSeriesOccurrenceModel.query(db).whereIn('bookingId', bookingIds).select('bookingId', 'seriesId', 'occurrenceIndex');
  return new Map(rows.map((r) => [r.bookingId!, { seriesId: r.seriesId, occurrenceIndex: r.occurrenceIndex }]));
}

export async function seriesByIds(db: Db, ids: readonly string[]): Promise<SeriesRow[]> {
  if (!ids.length) return [];
  return (await BookingSeriesModel.query(db).whereIn('id', ids)).map(seriesRow);
}

// ------------------------------------------------------------------ occurrences

export async function occurrencesOf(db: Db, seriesIds: readonly string[]): Promise<OccurrenceRow[]> {
  if (!seriesIds.length) return [];
  return (await BookingSeriesOccurrenceModel.query(db).whereIn('seriesId', seriesIds).orderBy('seriesId').orderBy('occurrenceIndex')).map(occurrenceRow);
}

export async function findOccurrence(db: Db, seriesId: string, index: number): Promise<OccurrenceRow | undefined> {
  const row = await BookingSeriesOccurrenceModel.query(db).findOne({ seriesId, occurrenceIndex: index });
  return row && occurrenceRow(row);
}

export async function insertOccurrence(trx: Transaction, row: Omit<OccurrenceRow, 'createdAt'>): Promise<void> {
  await BookingSeriesOccurrenceModel.query(trx).insert(row);
}

/** The highest index the series handled (0: only the first booking). */
export async function lastHandledIndex(db: Db, seriesId: string): Promise<number> {
  const row = (await BookingSeriesOccurrenceModel.query(db).where({ seriesId }).max('occurrenceIndex as last').first()) as unknown as
    { last: number | null } | undefined;
  return row?.last ?? 0;
}

// ------------------------------------------------------------------ message claims

/** Claims the (series, occurrence, recipient, channel, kind) message, or finds the claim of an earlier attempt. */
export async function claimSeriesNotification(
  db: Db,
  key: { tenantId: string; seriesId: string; occurrenceIndex: number; recipient: string; channel: string; kind: string },
): Promise<{ id: string; sentAt: Date | null }> {
  const [inserted] = await returnedRows<{ id: string; sentAt: Date | null }>(
    BookingSeriesNotificationModel.query(db)
      .insert(key)
      .onConflict(['seriesId', 'occurrenceIndex', 'recipient', 'channel', 'kind'])
      .ignore()
      .returning(['id', 'sentAt']),
  );
  if (inserted) return inserted;
  const { tenantId: _t, ...where } = key;
  const row = (await BookingSeriesNotificationModel.query(db).findOne(where))!;
  return { id: row.id, sentAt: row.sentAt };
}

/** Stamped once the gateway took the message, with where it went and what it said (docs/rules/personal-data.md#what-is-kept). */
export async function markSeriesNotificationSent(db: Db, id: string, sent: { to: string; text: string } | null = null): Promise<void> {
  await BookingSeriesNotificationModel.query(db)
    .patch({ sentAt: fn.now() as unknown as Date, sentTo: sent?.to ?? null, text: sent?.text ?? null })
    .where({ id });
}

// ------------------------------------------------------------------ figures

export interface SeriesFigures {
  seriesByStatus: Record<SeriesStatus, number>;
  occurrencesByStatus: Record<OccurrenceStatus, number>;
}

/** The series' figures for the metrics, counted from the rows (docs/rules/series.md#measured). */
export async function seriesFigures(db: Db): Promise<SeriesFigures> {
  const series = (await BookingSeriesModel.query(db).select('status').count('* as n').groupBy('status')) as unknown as { status: SeriesStatus; n: string }[];
  // occurrence 0 is the booking the series was made from, not one the series booked
  const occurrences = (await BookingSeriesOccurrenceModel.query(db)
    .where('occurrenceIndex', '>', 0)
    .where((q) => q.whereNull('reason').orWhereNot('reason', 'PASSED'))
    .select('status')
    .count('* as n')
    .groupBy('status')) as unknown as { status: OccurrenceStatus; n: string }[];
  const seriesByStatus = { ACTIVE: 0, ENDED: 0, FINISHED: 0 };
  for (const r of series) seriesByStatus[r.status] = Number(r.n);
  const occurrencesByStatus = { BOOKED: 0, MOVED: 0, SKIPPED: 0, CANCELLED: 0 };
  for (const r of occurrences) occurrencesByStatus[r.status] = Number(r.n);
  return { seriesByStatus, occurrencesByStatus };
}
