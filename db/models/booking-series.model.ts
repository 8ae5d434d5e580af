import { BaseModel } from './base.model';

/** booking_series (migration 160): a standing appointment, the same services with the same staff member every N weeks (docs/rules/series.md). */
export class BookingSeriesModel extends BaseModel {
  static override tableName = 'booking_series';

  tenantId!: string;
  customerId!: string;
  resourceId!: string;
  serviceIds!: string[];
  intervalWeeks!: number;
  firstBookingId!: string;
  anchorIndex!: number;
  anchorStart!: Date;
  occurrenceCount!: number | null;
  /** YYYY-MM-DD, salon-local */
  untilDate!: string | null;
  /** ACTIVE, ENDED, FINISHED */
  status!: string;
  /** STAFF, CUSTOMER */
  createdVia!: string;
  createdBy!: string | null;
  customerAccountId!: string | null;
  endedAt!: Date | null;
  /** FIRST_BOOKING_CANCELLED, or null (ended by hand, finished, or still active) */
  endReason!: string | null;
  version!: number;
}
