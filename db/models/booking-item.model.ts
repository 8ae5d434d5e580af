import { BaseModel } from './base.model';

/**
 * booking_items (migration 040): one service on one resource at its own time. A waitlist hold
 * (migration 100) is a row without a booking: `bookingId` and `serviceId` null, `waitlistRoundId`
 * set; only domain/booking/time-hold.repository.ts writes or reads those.
 */
export class BookingItemModel extends BaseModel {
  static override tableName = 'booking_items';

  bookingId!: string;
  tenantId!: string;
  serviceId!: string;
  /** set on a waitlist hold only */
  waitlistRoundId?: string | null;
  /** null = unassigned */
  resourceId!: string | null;
  startTime!: Date;
  endTime!: Date;
  /** minutes */
  duration!: number;
  /** minor units */
  price!: number;
  sortOrder!: number;
  /** denormalised: the booking's status blocks time (not CANCELLED / NO_SHOW) */
  isActive!: boolean;
  /** denormalised: created while allowDoubleBooking was off (covered by booking_items_no_overlap) */
  isExclusive!: boolean;
}
