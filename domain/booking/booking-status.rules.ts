/**
 * Booking status machine and the domain event each transition emits (docs/rules/booking.md#statuses). Pure.
 *
 *   PENDING     -> CONFIRMED                       BookingConfirmed
 *   CONFIRMED   -> ARRIVED                         BookingArrived
 *   CONFIRMED   -> IN_PROGRESS (may skip ARRIVED)  (no event of its own)
 *   ARRIVED     -> IN_PROGRESS                     (no event of its own)
 *   IN_PROGRESS -> COMPLETED                       BookingCompleted
 *   any non-terminal -> CANCELLED                  BookingCancelled, or BookingCancelledBySalon
 *   CONFIRMED, ARRIVED -> NO_SHOW                  BookingMarkedNoShow
 *
 * Terminal: COMPLETED, CANCELLED, NO_SHOW. Walk-ins are CREATED in IN_PROGRESS (not a transition;
 * see INITIAL_STATUS_FOR_WALK_IN). Payment-expiry cancellation by the SYSTEM role is the ordinary
 * non-terminal -> CANCELLED edge.
 *
 * Time: ARRIVED no earlier than ARRIVAL_LEAD_MS before the start, IN_PROGRESS, COMPLETED and
 * NO_SHOW no earlier than the start (earliestFor); a force skips it.
 *
 * Force: OWNER or ADMIN may pass `force: { role, reason }` (non-empty reason, for the audit log) to
 * move between any two DIFFERENT statuses, terminal ones included. A forced transition emits the
 * event of the TARGET status (forcing to COMPLETED still runs BookingCompleted effects); callers
 * that want no side effects must not force.
 */
export const BOOKING_STATUSES = ['PENDING', 'CONFIRMED', 'ARRIVED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED', 'NO_SHOW'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const TERMINAL_BOOKING_STATUSES: readonly BookingStatus[] = ['COMPLETED', 'CANCELLED', 'NO_SHOW'];

/** Statuses of a booking still ahead of the customer: it gets a reminder and hears about a move. */
export const REMINDABLE_BOOKING_STATUSES: readonly BookingStatus[] = ['PENDING', 'CONFIRMED'];

/**
 * How long before the start the customer is reminded when the salon has not said otherwise
 * (settings.reminderHoursBefore, docs/rules/reminders.md#when-the-reminder-goes-out).
 */
export const REMINDER_LEAD_MS = 24 * 60 * 60 * 1000;

export const INITIAL_STATUS_FOR_WALK_IN: BookingStatus = 'IN_PROGRESS';

/** Public bookings start CONFIRMED when settings.autoConfirm, else PENDING (docs/rules/booking.md#statuses). */
export function initialPublicBookingStatus(autoConfirm: boolean): BookingStatus {
  return autoConfirm ? 'CONFIRMED' : 'PENDING';
}

export type BookingEventName =
  'BookingConfirmed' | 'BookingArrived' | 'BookingCompleted' | 'BookingCancelled' | 'BookingCancelledBySalon' | 'BookingMarkedNoShow';

export type ForceRole = 'OWNER' | 'ADMIN';
export type ActorRole = ForceRole | 'STAFF' | 'CUSTOMER' | 'SYSTEM';

/** The transition table without CANCELLED (which every non-terminal status may reach). */
const TABLE: Record<BookingStatus, readonly BookingStatus[]> = {
  PENDING: ['CONFIRMED'],
  CONFIRMED: ['ARRIVED', 'IN_PROGRESS', 'NO_SHOW'],
  ARRIVED: ['IN_PROGRESS', 'NO_SHOW'],
  IN_PROGRESS: ['COMPLETED'],
  COMPLETED: [],
  CANCELLED: [],
  NO_SHOW: [],
};

/**
 * A booking whose deposit is still to be paid: it pays online and its deposit is initiated, or failed
 * and open for a retry (docs/rules/payments.md#booking-deposit-status). The salon does not honour it yet.
 */
export function awaitsDeposit(booking: { paymentMode: string; depositStatus: string | null }): boolean {
  return booking.paymentMode === 'ONLINE' && (booking.depositStatus === 'PENDING' || booking.depositStatus === 'RETRY_PENDING');
}

export function isBookingStatus(value: unknown): value is BookingStatus {
  return typeof value === 'string' && (BOOKING_STATUSES as readonly string[]).includes(value);
}

export function isTerminalStatus(status: BookingStatus): boolean {
  return TERMINAL_BOOKING_STATUSES.includes(status);
}

/** Is the booking still ahead of the customer (reminded, told about a move)? */
export function isRemindable(status: BookingStatus): boolean {
  return REMINDABLE_BOOKING_STATUSES.includes(status);
}

/**
 * When the reminder for a booking starting at `startTime` is due, or null when none is: the
 * booking is no longer remindable, or its start is already less than `leadMs` (the salon's
 * reminderHoursBefore, 24 hours unless set) after `now`: a booking made closer to its start than
 * that gets no reminder (docs/rules/reminders.md#when-the-reminder-goes-out).
 */
export function reminderDueAt(booking: { status: BookingStatus; startTime: string | Date }, now: number, leadMs: number = REMINDER_LEAD_MS): number | null {
  if (!isRemindable(booking.status)) return null;
  const at = new Date(booking.startTime).getTime() - leadMs;
  return at > now ? at : null;
}

/**
 * Whether a booking message about one start time (dedupe key `REMINDER:<start>` or
 * `RESCHEDULED:<start>`) no longer holds when its delivery runs (docs/rules/booking.md#moving-a-booking):
 * the booking has moved since (the move's own message tells the new time), or a reminder's booking
 * is no longer remindable. Every other message always holds.
 */
export function isMessageSuperseded(dedupeKey: string, booking: { status: BookingStatus; startTime: string | Date }): boolean {
  const at = dedupeKey.indexOf(':');
  if (at < 0) return false;
  const kind = dedupeKey.slice(0, at);
  if (kind !== 'REMINDER' && kind !== 'RESCHEDULED') return false;
  if (kind === 'REMINDER' && !isRemindable(booking.status)) return true;
  const about = Date.parse(dedupeKey.slice(at + 1));
  // a key that names no time (written by hand) is about no time in particular
  return !Number.isNaN(about) && about !== new Date(booking.startTime).getTime();
}

/** Targets allowed by the table (not forced) from a status. */
export function allowedTransitions(from: BookingStatus): BookingStatus[] {
  if (isTerminalStatus(from)) return [];
  return [...TABLE[from], 'CANCELLED'];
}

export interface ForceOption {
  role: ActorRole;
  reason: string;
}

/**
 * Is from -> to allowed? Without `force` only the table; with a valid force (OWNER/ADMIN and a
 * non-blank reason) any change to a different status. Same status is never a transition.
 */
export function canTransition(from: BookingStatus, to: BookingStatus, force?: ForceOption | null): boolean {
  return decideTransition(from, to, { force }).allowed;
}

/** Event emitted when a booking ENTERS `to` (null for IN_PROGRESS/PENDING, which name none). */
export function eventForStatus(to: BookingStatus, opts: { bySalon?: boolean } = {}): BookingEventName | null {
  switch (to) {
    case 'CONFIRMED':
      return 'BookingConfirmed';
    case 'ARRIVED':
      return 'BookingArrived';
    case 'COMPLETED':
      return 'BookingCompleted';
    case 'CANCELLED':
      return opts.bySalon ? 'BookingCancelledBySalon' : 'BookingCancelled';
    case 'NO_SHOW':
      return 'BookingMarkedNoShow';
    default:
      return null;
  }
}

/**
 * How early before its start a customer may be marked ARRIVED (docs/rules/booking.md#statuses): a
 * customer who comes a little early is there; the visit itself begins at its start.
 */
export const ARRIVAL_LEAD_MS = 30 * 60 * 1000;

/**
 * The earliest moment a booking may enter `to` without force, or null when the status has no time
 * of its own (docs/rules/booking.md#statuses): ARRIVED from ARRIVAL_LEAD_MS before the start;
 * IN_PROGRESS, COMPLETED and NO_SHOW from the start. A visit in the future is never counted.
 */
export function earliestFor(to: BookingStatus, startTime: string | Date): number | null {
  const start = new Date(startTime).getTime();
  if (to === 'ARRIVED') return start - ARRIVAL_LEAD_MS;
  if (to === 'IN_PROGRESS' || to === 'COMPLETED' || to === 'NO_SHOW') return start;
  return null;
}

export type TransitionRejection = 'SAME_STATUS' | 'INVALID_TRANSITION' | 'FORCE_NOT_PERMITTED' | 'FORCE_REASON_REQUIRED' | 'NOT_STARTED';

export type TransitionDecision =
  | { allowed: true; from: BookingStatus; to: BookingStatus; forced: boolean; event: BookingEventName | null; auditReason: string | null }
  | { allowed: false; from: BookingStatus; to: BookingStatus; rejection: TransitionRejection };

/**
 * Full decision for POST /bookings/:id/status/:status and cancellations.
 * - `force` bypasses the table only for OWNER/ADMIN with a non-blank reason; an invalid force is
 *   rejected (FORCE_NOT_PERMITTED / FORCE_REASON_REQUIRED) even when the table would allow the
 *   move, so a bad request is never silently downgraded.
 * - `bySalon` selects BookingCancelledBySalon for a salon-initiated cancellation.
 * - `forced` is true only when the table would NOT have allowed the move.
 */
export function decideTransition(
  from: BookingStatus,
  to: BookingStatus,
  opts: { force?: ForceOption | null; bySalon?: boolean; timing?: { startTime: string | Date; now: number } } = {},
): TransitionDecision {
  if (from === to) return { allowed: false, from, to, rejection: 'SAME_STATUS' };
  const force = opts.force ?? null;
  if (force) {
    if (force.role !== 'OWNER' && force.role !== 'ADMIN') return { allowed: false, from, to, rejection: 'FORCE_NOT_PERMITTED' };
    if (force.reason.trim().length === 0) return { allowed: false, from, to, rejection: 'FORCE_REASON_REQUIRED' };
  }
  const inTable = allowedTransitions(from).includes(to);
  if (!inTable && !force) return { allowed: false, from, to, rejection: 'INVALID_TRANSITION' };
  const earliest = opts.timing ? earliestFor(to, opts.timing.startTime) : null;
  if (!force && earliest !== null && opts.timing!.now < earliest) return { allowed: false, from, to, rejection: 'NOT_STARTED' };
  return {
    allowed: true,
    from,
    to,
    forced: !inTable,
    event: eventForStatus(to, { bySalon: opts.bySalon }),
    auditReason: force ? force.reason.trim() : null,
  };
}
