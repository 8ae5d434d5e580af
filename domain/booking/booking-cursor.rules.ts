// The keyset cursor of GET /bookings (docs/api/README.md#paging): opaque to clients, it names the last
// booking of a page and the sort and order it was made for, so a cursor sent with another sort or order
// is refused rather than answered with the wrong rows.

export interface BookingCursor {
  sort: string;
  order: 'asc' | 'desc';
  bookingId: string;
}

const VERSION = 'b1';
const BOOKING_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeBookingCursor(cursor: BookingCursor): string {
  return Buffer.from(`${VERSION}:${cursor.sort}:${cursor.order}:${cursor.bookingId}`).toString('base64url');
}

/** The cursor, or undefined for text the API did not make. */
export function decodeBookingCursor(text: string): BookingCursor | undefined {
  const [version, sort, order, bookingId, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split(':');
  if (version !== VERSION || rest.length || !sort || (order !== 'asc' && order !== 'desc') || !BOOKING_ID.test(bookingId ?? '')) return undefined;
  return { sort, order, bookingId };
}
