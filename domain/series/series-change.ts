/**
 * The series' wrappers of the change primitive (docs/rules/consistency.md#the-change-primitive): a
 * series gets version + 1, then its workflow (`series:<id>`) is signalled before commit. A change its
 * own workflow made (finished: nothing left to book) passes event null.
 */
import type { Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import { changeEntity } from '../workflow-signals/entity-change';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { seriesContract, type SeriesEventType } from './series-events.rules';
import { insertOccurrence, insertSeries, updateSeriesVersioned, type NewSeries, type SeriesRow } from './series.repository';

/** A new series and its occurrence 0 (the booking it was made from), then SeriesCreated. */
export async function createSeriesRows(signaller: EntitySignaller, trx: Transaction, series: NewSeries): Promise<SeriesRow> {
  return changeEntity(signaller, seriesContract, {
    write: async () => {
      const row = await insertSeries(trx, series);
      await insertOccurrence(trx, {
        seriesId: row.id,
        occurrenceIndex: 0,
        tenantId: row.tenantId,
        status: 'BOOKED',
        plannedStart: series.anchorStart,
        startTime: series.anchorStart,
        bookingId: series.firstBookingId,
        reason: null,
      });
      return row;
    },
    event: 'SeriesCreated',
  });
}

/** The locked series with `changes` and version + 1 (a compare-and-set on the version). */
export async function changeSeries(
  signaller: EntitySignaller | null,
  trx: Transaction,
  series: SeriesRow,
  changes: Parameters<typeof updateSeriesVersioned>[2],
  event: SeriesEventType | null,
): Promise<SeriesRow> {
  const written = await changeEntity(signaller, seriesContract, { write: () => updateSeriesVersioned(trx, series, changes), event });
  if (!written) throw errors.conflict('SERIES_CHANGED', 'The series changed at the same time; try again');
  return written;
}
