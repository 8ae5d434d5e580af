// Bookings and a person's personal data (docs/rules/personal-data.md#erasure): which bookings are
// theirs, their contact cleared at the moment of erasure, then the rest of their identity removed so
// each booking stays as a sale for the accounts; and, at the end of the accounting period, the sale
// itself removed (docs/rules/personal-data.md#what-is-kept-for-the-accounts). Plain rows out.
import { raw } from 'objection';
import type { Db } from '../../db/db-handle';
import { BookingModel } from '../../db/models/booking.model';
import { BookingAuditLogModel } from '../../db/models/booking-audit-log.model';
import { BookingNotificationModel } from '../../db/models/booking-notification.model';
import { REMINDABLE_BOOKING_STATUSES } from './booking-status.rules';

/** Whose bookings: a salon's customer record, or a customer account (its bookings at every salon). */
export type BookingOwner = { tenantId: string; customerId: string } | { accountId: string };

function ofOwner(owner: BookingOwner): Record<string, string> {
  return 'customerId' in owner ? { tenantId: owner.tenantId, customerId: owner.customerId } : { customerAccountId: owner.accountId };
}

export async function bookingIdsOf(db: Db, owner: BookingOwner): Promise<string[]> {
  return (await BookingModel.query(db).where(ofOwner(owner)).select('id')).map((b) => b.id);
}

/** The owner's bookings still to come and still open (PENDING or CONFIRMED, starting after `now`): the ones an erasure cancels. */
export async function openFutureBookingsOf(db: Db, owner: BookingOwner, now: Date): Promise<{ id: string; tenantId: string }[]> {
  const rows = await BookingModel.query(db)
    .where(ofOwner(owner))
    .whereIn('status', [...REMINDABLE_BOOKING_STATUSES])
    .where('startTime', '>', now)
    .orderBy('startTime')
    .select('id', 'tenantId');
  return rows.map((r) => ({ id: r.id, tenantId: r.tenantId }));
}

/** The moment of erasure: no message can reach the person through these bookings any more. */
export async function clearBookingContacts(db: Db, bookingIds: string[]): Promise<void> {
  if (!bookingIds.length) return;
  await BookingModel.query(db).patch({ contactName: null, contactPhone: null, contactEmail: null }).whereIn('id', bookingIds);
}

/**
 * The bookings become sales without identity: contact, notes, the account link, the manage link and
 * a cancellation reason the customer or staff wrote go (a reason the erasure itself wrote, `keptReason`,
 * stays: it says why the booking was cancelled), and so do the notes in their history. Answers how
 * many bookings lost their identity now (not those that already had).
 */
export async function removeBookingIdentity(db: Db, bookingIds: string[], keptReason: string, at: Date): Promise<number> {
  if (!bookingIds.length) return 0;
  const changed = await BookingModel.query(db)
    .patch({
      contactName: null,
      contactPhone: null,
      contactEmail: null,
      notes: null,
      customerAccountId: null,
      manageTokenHash: null,
      cancelReason: raw('CASE WHEN cancel_reason = ? THEN cancel_reason ELSE NULL END', [keptReason]) as unknown as string,
      identityRemovedAt: at,
    })
    .whereIn('id', bookingIds)
    .whereNull('identityRemovedAt');
  await BookingAuditLogModel.query(db)
    .patch({
      reason: raw('CASE WHEN reason = ? THEN reason ELSE NULL END', [keptReason]) as unknown as string,
      // the notes' before and after (PATCH /bookings/:id); the other changes say what happened, not who it was
      changes: raw(`changes - 'notes'`) as unknown as Record<string, unknown>,
    })
    .whereIn('bookingId', bookingIds);
  return changed;
}

/** The address and text of every message about these bookings; answers how many were cleared. */
export async function clearBookingMessages(db: Db, bookingIds: string[]): Promise<number> {
  if (!bookingIds.length) return 0;
  return BookingNotificationModel.query(db)
    .patch({ sentTo: null, text: null })
    .whereIn('bookingId', bookingIds)
    .where((w) => w.whereNotNull('sentTo').orWhereNotNull('text'));
}

/** The bookings an erasure cancelled (their audit says so), soonest first, with their salon: what its notice tells. */
export async function bookingsCancelledWithReason(db: Db, bookingIds: string[], reason: string): Promise<{ id: string; tenantId: string; startTime: Date }[]> {
  if (!bookingIds.length) return [];
  const rows = await BookingModel.query(db)
    .whereIn('id', bookingIds)
    .whereExists(BookingAuditLogModel.query(db).whereColumn('booking_audit_logs.bookingId', 'bookings.id').where({ action: 'CANCELLED', reason }))
    .orderBy('startTime')
    .select('id', 'tenantId', 'startTime');
  return rows.map((r) => ({ id: r.id, tenantId: r.tenantId, startTime: r.startTime }));
}

/**
 * The salon's bookings kept for the accounts whose period ended: identity removed, and the latest of
 * the start, their payments and their refunds falls in a salon-local year at or before `lastYear`.
 * Raw SQL: the year is taken over the booking and its payments in one statement.
 */
export async function accountingRecordsPastTheirPeriod(db: Db, tenantId: string, timezone: string, lastYear: number, limit: number): Promise<string[]> {
  const result = await db.raw(
    `SELECT b.id FROM bookings b
      WHERE b.tenant_id = :tenantId AND b.identity_removed_at IS NOT NULL
        AND EXTRACT(YEAR FROM GREATEST(
              b.start_time,
              (SELECT max(GREATEST(p.created_at, COALESCE(p.captured_at, p.created_at))) FROM payments p WHERE p.booking_id = b.id),
              (SELECT max(COALESCE(r.completed_at, r.created_at)) FROM payment_refunds r JOIN payments p ON p.id = r.payment_id WHERE p.booking_id = b.id)
            ) AT TIME ZONE :timezone) <= :lastYear
      ORDER BY b.start_time, b.id LIMIT :limit`,
    { tenantId, timezone, lastYear, limit },
  );
  return (result as { rows: { id: string }[] }).rows.map((r) => r.id);
}

/** Removes the sales (their items, segments, history, messages, payments and refunds go with them: the foreign keys cascade). */
export async function deleteAccountingRecords(db: Db, tenantId: string, bookingIds: string[]): Promise<number> {
  if (!bookingIds.length) return 0;
  return BookingModel.query(db).delete().where({ tenantId }).whereIn('id', bookingIds).whereNotNull('identityRemovedAt');
}
