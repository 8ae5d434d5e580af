/**
 * Loyalty's claim on a completed booking (docs/rules/loyalty.md#completion), through the booking
 * module's own table: the compare-and-set that processes a booking once, and its services.
 */
import type { Db } from '../../db/db-handle';
import { BookingModel } from '../../db/models/booking.model';
import { BookingItemModel } from '../../db/models/booking-item.model';
import { returnedRows } from '../../db/plain';

/** A completed booking as loyalty processes it. */
export interface LoyaltyBookingRow {
  id: string;
  tenantId: string;
  customerId: string | null;
  status: string;
  totalAmount: number;
  discountAmount: number;
  appliedVoucherId: string | null;
  startTime: Date;
}

/**
 * Compare-and-set (docs/rules/loyalty.md#completion): marks a COMPLETED booking processed for
 * loyalty (the model stamps updatedAt);
 * undefined when it was already processed (or is not COMPLETED), so the caller does nothing.
 */
export async function claimBookingForLoyalty(db: Db, bookingId: string): Promise<LoyaltyBookingRow | undefined> {
  const [row] = await returnedRows<LoyaltyBookingRow>(
    BookingModel.query(db)
      .patch({ processedForLoyalty: true })
      .where({ id: bookingId, processedForLoyalty: false, status: 'COMPLETED' })
      .returning(['id', 'tenantId', 'customerId', 'status', 'totalAmount', 'discountAmount', 'appliedVoucherId', 'startTime']),
  );
  return row;
}

export async function serviceIdsOfBooking(db: Db, bookingId: string): Promise<string[]> {
  return (await BookingItemModel.query(db).where({ bookingId }).select('serviceId')).map((r) => r.serviceId);
}
