/** Who cancelled a booking, from its audit log (docs/rules/front-desk.md#the-salon-is-told). */
import type { Db } from '../../db/db-handle';
import { BookingAuditLogModel } from '../../db/models/booking-audit-log.model';

/** The role that made the booking's latest cancellation (CUSTOMER: on the manage page, by SMS or the public API), or null when it was never cancelled. */
export async function cancellingRole(db: Db, bookingId: string): Promise<string | null> {
  const row = await BookingAuditLogModel.query(db)
    .where({ bookingId })
    .where((q) => q.where('action', 'CANCELLED').orWhere('toStatus', 'CANCELLED'))
    .orderBy('createdAt', 'desc')
    .first()
    .select('actorRole');
  return row?.actorRole ?? null;
}
