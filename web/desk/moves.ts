// Moving a booking from the grid (docs/rules/booking.md#moving-a-booking): the whole booking shifts
// by the minutes (and days) it was dragged, and to the staff column it was dropped on. The platform
// re-checks it like a new booking; a refusal comes back in words.
import { formatTime } from '../shared/format';
import { api, call } from './api';
import type { Desk } from './context';
import { deskError } from './i18n';
import { dayShift, type Column, type MoveRequest } from './Grid';

/** Which column a booking may be dragged to from another: OWNER along any staff column (an unassigned one too), STAFF only along the days of their own. */
export function movableFor(desk: Desk) {
  return (from: Column, to: Column): boolean => {
    if (from === to) return true;
    if (to.kind === 'day' && from.kind === 'day') return true;
    if (desk.me.role === 'STAFF') return false;
    return (from.kind === 'staff' || from.kind === 'unassigned') && to.kind === 'staff';
  };
}

export async function moveBooking(desk: Desk, request: MoveRequest): Promise<{ ok: boolean; text: string }> {
  const booking = request.item.block.booking;
  const id = request.item.bookingId;
  if (!booking || !id) return { ok: false, text: deskError(desk.lang, undefined) };
  const startTime = new Date(Date.parse(booking.startTime) + (request.minutes + dayShift(request.from.date, request.to.date)) * 60_000).toISOString();
  const reassign = request.to.kind === 'staff' && request.to.resourceId !== request.from.resourceId;
  const body = reassign ? { startTime, resourceId: request.to.resourceId } : { startTime };
  const answer = await call(() => api.PATCH('/bookings/{id}', { params: { path: { id } }, body }));
  if (!answer.ok) return { ok: false, text: desk.t('moveRefused', { reason: deskError(desk.lang, answer.problem.code) }) };
  const moved = answer.data.data;
  const staff = desk.staff.find((s) => s.id === moved.resourceId)?.name ?? desk.t('unassigned');
  return { ok: true, text: desk.t('moved', { time: formatTime(moved.startTime, desk.tz, desk.locale), staff }) };
}
