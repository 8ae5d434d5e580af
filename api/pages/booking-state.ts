// The customer's choices on the server-rendered (v1) flow, carried in the query string from step to
// step (plain GET forms and links): services, staff (`any` or an id), the shown week, the day, the
// time. Unknown ids and impossible dates are dropped, so a hand-edited URL lands on an earlier step.
import type { Request } from 'express';
import { isLocalDate } from '../../web/shared/format';
import type { BootServiceGroup, BootStaff } from '../../web/shared/boot';

export interface BookingState {
  services: string[];
  staff: string | null;
  week: string | null;
  date: string | null;
  /** UTC ISO start of the chosen slot */
  time: string | null;
  /** a notice to show (the time was taken meanwhile) */
  notice: 'conflict' | null;
  /** an earlier step asked for by a Back link, shown with the choices kept */
  step: 'services' | 'staff' | null;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

function list(value: unknown): string[] {
  const parts = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return parts
    .flatMap((p) => String(p).split(','))
    .map((p) => p.trim())
    .filter(Boolean);
}

function one(value: unknown): string | null {
  return typeof value === 'string' && value ? value : null;
}

export function parseState(source: Record<string, unknown>, catalogue: BootServiceGroup[], staff: BootStaff[]): BookingState {
  const known = catalogue.flatMap((g) => g.services.map((s) => s.id));
  const services = known.filter((id) => list(source.services).includes(id));
  const staffId = one(source.staff);
  const qualified = staff.filter((s) => services.every((id) => s.serviceIds.includes(id))).map((s) => s.id);
  const chosenStaff = services.length && staffId && (staffId === 'any' || qualified.includes(staffId)) ? staffId : null;
  const date = isLocalDate(source.date) ? source.date : null;
  const week = isLocalDate(source.week) ? source.week : null;
  const time =
    typeof source.time === 'string' && ISO_INSTANT.test(source.time) && !Number.isNaN(Date.parse(source.time)) ? new Date(source.time).toISOString() : null;
  return {
    services,
    staff: chosenStaff,
    week: chosenStaff ? week : null,
    date: chosenStaff ? date : null,
    time: chosenStaff ? time : null,
    notice: source.notice === 'conflict' ? 'conflict' : null,
    step: source.step === 'services' || source.step === 'staff' ? source.step : null,
  };
}

export function stateOf(req: Request, catalogue: BootServiceGroup[], staff: BootStaff[]): BookingState {
  return parseState(req.query as Record<string, unknown>, catalogue, staff);
}

/** The query string of a state (the fields given), for links between the steps. */
export function stateQuery(state: Partial<BookingState>): string {
  const q = new URLSearchParams();
  if (state.services?.length) q.set('services', state.services.join(','));
  if (state.staff) q.set('staff', state.staff);
  if (state.week) q.set('week', state.week);
  if (state.date) q.set('date', state.date);
  if (state.time) q.set('time', state.time);
  if (state.notice) q.set('notice', state.notice);
  if (state.step) q.set('step', state.step);
  const text = q.toString();
  return text ? `?${text}` : '';
}
