import { expect } from 'chai';
import {
  BOOKING_STATUSES,
  REMINDABLE_BOOKING_STATUSES,
  REMINDER_LEAD_MS,
  TERMINAL_BOOKING_STATUSES,
  isMessageSuperseded,
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

  describe('messages about a time the booking has left (docs/rules/booking.md#moving-a-booking)', () => {
    const start = '2026-12-04T09:00:00.000Z';
    const moved = '2026-12-06T13:00:00.000Z';
    const cases: Array<[string, string, Parameters<typeof isMessageSuperseded>[1], boolean]> = [
      ['the reminder of the time it still has', `REMINDER:${start}`, { status: 'CONFIRMED', startTime: new Date(start) }, false],
      ['the reminder of the old time after a move', `REMINDER:${start}`, { status: 'CONFIRMED', startTime: moved }, true],
      ['the reminder of a booking cancelled since', `REMINDER:${start}`, { status: 'CANCELLED', startTime: start }, true],
      ['the notice of a move that a second move overtook', `RESCHEDULED:${moved}`, { status: 'PENDING', startTime: '2026-12-07T08:00:00.000Z' }, true],
      ['the notice of the last move', `RESCHEDULED:${moved}`, { status: 'PENDING', startTime: moved }, false],
      [
        'the notice of a move, the booking cancelled since (its cancellation tells too)',
        `RESCHEDULED:${moved}`,
        { status: 'CANCELLED', startTime: moved },
        false,
      ],
      ['a confirmation, whatever happened since', 'CONFIRMED', { status: 'CONFIRMED', startTime: moved }, false],
      ['a cancellation', 'CANCELLED', { status: 'CANCELLED', startTime: moved }, false],
      ['a key that names no time', 'REMINDER:test', { status: 'CONFIRMED', startTime: moved }, false],
    ];
    for (const [what, key, booking, superseded] of cases) {
      it(`when ${what} is delivered then it is ${superseded ? 'dropped' : 'sent'}`, () => {
        expect(isMessageSuperseded(key, booking)).to.equal(superseded);
      });
    }
  });
});
