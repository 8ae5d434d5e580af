import { BaseModel } from './base.model';

/** booking_items (migration 040): one service on one resource at its own time. */
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
  /** denormalised: created while allowDoubleBooking was off (covered by booking_items_no_overlap) */
  isExclusive!: boolean;
}
