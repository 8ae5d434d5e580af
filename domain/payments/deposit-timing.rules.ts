/**
 * Deposit now, later, or none (docs/rules/payments.md#deposits-at-any-distance), pure. A card or Vipps
 * reservation is held for 7 days, so a booking further ahead than that cannot reserve its deposit
 * when it is made: its deposit is requested later, 6 days before the visit (the reservation then
 * lasts a day past the start), reminded once halfway to the salon's deadline, and the booking is
 * cancelled at the deadline when it is still not paid. One function decides, for every way a booking
 * is made (online booking, a standing appointment's occurrence).
 */
import { AUTHORIZATION_HOLD_MS, depositAmount } from './payment.rules';

const HOUR_MS = 3_600_000;

/** How long before the start a deposit requested later is asked for: inside the hold, a day to spare. */
export const DEPOSIT_REQUEST_LEAD_MS = AUTHORIZATION_HOLD_MS - 24 * HOUR_MS;

/** settings.depositDeadlineHours: 1 to 120 hours before the start (before the request at 144), 48 by default. */
export const DEPOSIT_DEADLINE_HOURS = { min: 1, max: 120, default: 48 } as const;

export interface DepositMoments {
  /** the customer is asked to pay (SMS and e-mail with the payment link) */
  requestAt: Date;
  /** asked once more, when still not paid */
  reminderAt: Date;
  /** still not paid: the booking is cancelled (DEPOSIT_NOT_PAID) and its time offered to the waitlist */
  deadline: Date;
}

export type DepositTiming = { when: 'NONE' } | { when: 'NOW'; amount: number } | ({ when: 'LATER'; amount: number } & DepositMoments);

export interface DepositTimingInput {
  settings: {
    depositEnabled: boolean;
    depositType: 'percentage' | 'fixed';
    depositValue: number;
    depositDeadlineHours?: number;
  };
  /** ONLINE: the customer pays the deposit online; the salon's own bookings are IN_PERSON */
  paymentMode: 'ONLINE' | 'IN_PERSON';
  totalAmount: number;
  discountAmount: number;
  startTime: Date;
  now: Date;
}

/** settings.depositDeadlineHours as stored (salons whose settings predate it: the default). */
export function depositDeadlineHoursOf(settings: { depositDeadlineHours?: unknown }): number {
  const hours = settings.depositDeadlineHours;
  return typeof hours === 'number' && Number.isInteger(hours) ? hours : DEPOSIT_DEADLINE_HOURS.default;
}

/** The moments of a deposit requested later, for a booking starting at `startTime`. */
export function depositMoments(startTime: Date, deadlineHours: number | undefined): DepositMoments {
  const start = startTime.getTime();
  const requestAt = start - DEPOSIT_REQUEST_LEAD_MS;
  const deadline = start - (deadlineHours ?? DEPOSIT_DEADLINE_HOURS.default) * HOUR_MS;
  return { requestAt: new Date(requestAt), reminderAt: new Date(requestAt + Math.floor((deadline - requestAt) / 2)), deadline: new Date(deadline) };
}

/** The deposit a booking owes under the salon's settings (docs/rules/payments.md#deposits). */
export function bookingDeposit(
  settings: Pick<DepositTimingInput['settings'], 'depositType' | 'depositValue'>,
  booking: { totalAmount: number; discountAmount: number },
): number {
  return depositAmount({
    totalAmount: booking.totalAmount,
    discountAmount: booking.discountAmount,
    depositType: settings.depositType,
    depositValue: settings.depositValue,
  });
}

/** Whether a new booking owes a deposit, and whether it is reserved now or requested later. */
export function depositTiming(input: DepositTimingInput): DepositTiming {
  const s = input.settings;
  if (!s.depositEnabled || input.paymentMode !== 'ONLINE') return { when: 'NONE' };
  const amount = bookingDeposit(s, input);
  if (amount <= 0) return { when: 'NONE' };
  const moments = depositMoments(input.startTime, s.depositDeadlineHours);
  if (moments.requestAt.getTime() <= input.now.getTime()) return { when: 'NOW', amount };
  return { when: 'LATER', amount, ...moments };
}
