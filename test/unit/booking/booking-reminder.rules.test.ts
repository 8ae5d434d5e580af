import { expect } from 'chai';
import {
  BOOKING_STATUSES,
  REMINDABLE_BOOKING_STATUSES,
  REMINDER_LEAD_MS,
  TERMINAL_BOOKING_STATUSES,
  isRemindable,
  reminderDueAt,
} from '../../../domain/booking/booking-status.rules';

describe('booking reminder rules', () => {
  const now = Date.parse('2026-12-01T12:00:00.000Z');
  const HOUR = 60 * 60 * 1000;

  it('when a status is pending or confirmed then it is remindable, and no terminal status is', () => {
    expect(BOOKING_STATUSES.filter(isRemindable)).to.deep.equal(['PENDING', 'CONFIRMED']);
    expect(REMINDABLE_BOOKING_STATUSES.some((s) => TERMINAL_BOOKING_STATUSES.includes(s))).to.equal(false);
  });

  const cases: Array<[string, Parameters<typeof reminderDueAt>[0], number | null]> = [
    ['a confirmed booking three days ahead', { status: 'CONFIRMED', startTime: new Date(now + 72 * HOUR) }, now + 48 * HOUR],
    ['a pending booking three days ahead', { status: 'PENDING', startTime: new Date(now + 72 * HOUR).toISOString() }, now + 48 * HOUR],
    ['a confirmed booking starting in 3 hours', { status: 'CONFIRMED', startTime: new Date(now + 3 * HOUR) }, null],
    ['a booking starting exactly 24 h from now', { status: 'CONFIRMED', startTime: new Date(now + REMINDER_LEAD_MS) }, null],
    ['a cancelled booking three days ahead', { status: 'CANCELLED', startTime: new Date(now + 72 * HOUR) }, null],
    ['an arrived booking', { status: 'ARRIVED', startTime: new Date(now + 72 * HOUR) }, null],
  ];
  for (const [what, booking, due] of cases) {
    it(`when ${what} then the reminder is due ${due === null ? 'never' : 'at start - 24 h'}`, () => {
      expect(reminderDueAt(booking, now)).to.equal(due);
    });
  }
});
