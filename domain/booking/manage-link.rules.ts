// How long a booking's manage link (its cancellation token) proves the booking
// (docs/rules/booking-page.md#manage-links): until 14 days after the appointment ended. At exactly
// 14 days it still works, a millisecond later it does not. Pure.

export const MANAGE_LINK_DAYS_AFTER_END = 14;

export function isManageLinkValid(bookingEnd: Date | string, now: Date): boolean {
  return now.getTime() <= new Date(bookingEnd).getTime() + MANAGE_LINK_DAYS_AFTER_END * 86_400_000;
}
