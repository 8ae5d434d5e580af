import { Model } from 'objection';

/** booking_series_occurrences (migration 160): one occurrence a series handled, keyed (series, index). */
export class BookingSeriesOccurrenceModel extends Model {
  static override tableName = 'booking_series_occurrences';
  static override idColumn = ['seriesId', 'occurrenceIndex'];

  seriesId!: string;
  occurrenceIndex!: number;
  tenantId!: string;
  /** BOOKED, MOVED, SKIPPED, CANCELLED */
  status!: string;
  plannedStart!: Date;
  startTime!: Date | null;
  bookingId!: string | null;
  reason!: string | null;
  createdAt!: Date;
}
