/**
 * The salon's notices for its owner (docs/rules/front-desk.md#the-salon-is-told): the list the front
 * desk shows, each with its booking as it is now, and marking one read.
 */
import type { Db } from '../../db/db-handle';
import { errors } from '../errors';
import { toIso } from '../time/iso';
import { bookingSummaries, type BookingSummary } from '../booking/booking-summary.repository';
import { markNoticeRead, pageOfNotices, type SalonNoticeRow } from './salon-notice.repository';
import type { SalonNoticeKind } from './salon-notice.rules';

export interface SalonNoticeDto {
  id: string;
  kind: SalonNoticeKind;
  bookingId: string;
  createdAt: string;
  readAt: string | null;
  booking: { startTime: string; endTime: string; status: string; customerName: string | null; services: string[]; resourceId: string | null };
}

function toDto(row: SalonNoticeRow, booking: BookingSummary): SalonNoticeDto {
  return {
    id: row.id,
    kind: row.kind as SalonNoticeKind,
    bookingId: row.bookingId,
    createdAt: toIso(row.createdAt),
    readAt: row.readAt ? toIso(row.readAt) : null,
    booking: {
      startTime: toIso(booking.startTime),
      endTime: toIso(booking.endTime),
      status: booking.status,
      customerName: booking.customerName,
      services: booking.services,
      resourceId: booking.resourceId,
    },
  };
}

export async function listSalonNotices(db: Db, tenantId: string, query: { page: number; limit: number; unread?: boolean }) {
  const page = await pageOfNotices(db, tenantId, query);
  const bookings = await bookingSummaries(
    db,
    tenantId,
    page.rows.map((r) => r.bookingId),
  );
  return { ...page, rows: page.rows.map((r) => toDto(r, bookings.get(r.bookingId)!)) };
}

export async function markSalonNoticeRead(db: Db, tenantId: string, id: string, now: Date): Promise<SalonNoticeDto> {
  const row = await markNoticeRead(db, tenantId, id, now);
  if (!row) throw errors.notFound('salonNotice');
  const bookings = await bookingSummaries(db, tenantId, [row.bookingId]);
  return toDto(row, bookings.get(row.bookingId)!);
}
