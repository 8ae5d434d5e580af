import { BaseModel } from './base.model';

/**
 * booking_items (migration 040): one service of a booking, by one staff member (null: unassigned),
 * from its first phase's start to its last phase's end. The time it holds, phase by phase and with
 * its rooms or equipment, is its booking_segments (migration 140).
 */
export class BookingItemModel extends BaseModel {
  static override tableName = 'booking_items';

  bookingId!: string;
  tenantId!: string;
  serviceId!: string;
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
  /** denormalised: created while allowDoubleBooking was off (its segments are covered by booking_segments_no_overlap) */
  isExclusive!: boolean;
}
