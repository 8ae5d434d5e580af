import { expect } from 'chai';
import {
  BOOKING_STATUSES,
  allowedTransitions,
  canTransition,
  decideTransition,
  eventForStatus,
  initialPublicBookingStatus,
  isBookingStatus,
  isTerminalStatus,
  type BookingStatus,
  REMINDABLE_BOOKING_STATUSES,
  REMINDER_LEAD_MS,
  TERMINAL_BOOKING_STATUSES,
  isMessageSuperseded,
  isRemindable,
  reminderDueAt,
  ARRIVAL_LEAD_MS,
} from '../../../domain/booking/booking-status.rules';

// The complete table of docs/rules/booking.md#statuses: every (from, to) pair not listed here is rejected without force.
const ALLOWED: Array<[BookingStatus, BookingStatus, string | null]> = [
  ['PENDING', 'CONFIRMED', 'BookingConfirmed'],
  ['PENDING', 'CANCELLED', 'BookingCancelled'],
  ['CONFIRMED', 'ARRIVED', 'BookingArrived'],
  ['CONFIRMED', 'IN_PROGRESS', null],
  ['CONFIRMED', 'NO_SHOW', 'BookingMarkedNoShow'],
  ['CONFIRMED', 'CANCELLED', 'BookingCancelled'],
  ['ARRIVED', 'IN_PROGRESS', null],
  ['ARRIVED', 'NO_SHOW', 'BookingMarkedNoShow'],
  ['ARRIVED', 'CANCELLED', 'BookingCancelled'],
  ['IN_PROGRESS', 'COMPLETED', 'BookingCompleted'],
  ['IN_PROGRESS', 'CANCELLED', 'BookingCancelled'],
];

describe('booking status rules', () => {
  describe('the transition table without force', () => {
    for (const from of BOOKING_STATUSES) {
      for (const to of BOOKING_STATUSES) {
        const row = ALLOWED.find(([f, t]) => f === from && t === to);
        it(`when ${from} -> ${to} then ${row ? `allowed, emits ${row[2]}` : 'rejected'}`, () => {
          expect(canTransition(from, to)).to.equal(Boolean(row));
          const decision = decideTransition(from, to);
          if (row) {
            expect(decision).to.deep.equal({ allowed: true, from, to, forced: false, event: row[2], auditReason: null });
          } else {
            expect(decision).to.deep.include({ allowed: false, rejection: from === to ? 'SAME_STATUS' : 'INVALID_TRANSITION' });
          }
        });
      }
    }
  });

  describe('terminal states', () => {
    const cases: Array<[BookingStatus, boolean]> = [
      ['PENDING', false],
      ['CONFIRMED', false],
      ['ARRIVED', false],
      ['IN_PROGRESS', false],
      ['COMPLETED', true],
      ['CANCELLED', true],
      ['NO_SHOW', true],
    ];
    for (const [status, terminal] of cases) {
      it(`when the status is ${status} then terminal is ${terminal}`, () => {
        expect(isTerminalStatus(status)).to.equal(terminal);
        expect(allowedTransitions(status).length === 0).to.equal(terminal);
        if (!terminal) expect(allowedTransitions(status)).to.include('CANCELLED');
      });
    }
  });

  describe('force by owner or admin', () => {
    const cases: Array<[string, BookingStatus, BookingStatus, Parameters<typeof decideTransition>[2], object]> = [
      [
        'an owner forces COMPLETED -> CONFIRMED with a reason',
        'COMPLETED',
        'CONFIRMED',
        { force: { role: 'OWNER', reason: ' wrong button ' } },
        { allowed: true, forced: true, event: 'BookingConfirmed', auditReason: 'wrong button' },
      ],
      [
        'an admin forces NO_SHOW -> COMPLETED',
        'NO_SHOW',
        'COMPLETED',
        { force: { role: 'ADMIN', reason: 'customer came late' } },
        { allowed: true, forced: true, event: 'BookingCompleted' },
      ],
      [
        'an owner forces a move the table allows anyway',
        'PENDING',
        'CONFIRMED',
        { force: { role: 'OWNER', reason: 'phone confirmation' } },
        { allowed: true, forced: false, auditReason: 'phone confirmation' },
      ],
      [
        'a staff member tries to force',
        'COMPLETED',
        'CONFIRMED',
        { force: { role: 'STAFF', reason: 'x' } },
        { allowed: false, rejection: 'FORCE_NOT_PERMITTED' },
      ],
      [
        'an owner forces without a reason',
        'COMPLETED',
        'CONFIRMED',
        { force: { role: 'OWNER', reason: '   ' } },
        { allowed: false, rejection: 'FORCE_REASON_REQUIRED' },
      ],
      [
        'an invalid force on a move the table allows is still rejected',
        'PENDING',
        'CONFIRMED',
        { force: { role: 'CUSTOMER', reason: 'x' } },
        { allowed: false, rejection: 'FORCE_NOT_PERMITTED' },
      ],
      ['an owner forces to the same status', 'CONFIRMED', 'CONFIRMED', { force: { role: 'OWNER', reason: 'x' } }, { allowed: false, rejection: 'SAME_STATUS' }],
    ];
    for (const [why, from, to, opts, expected] of cases) {
      it(`when ${why} then ${JSON.stringify(expected)}`, () => {
        expect(decideTransition(from, to, opts)).to.deep.include(expected);
        expect(canTransition(from, to, opts?.force)).to.equal((expected as { allowed: boolean }).allowed);
      });
    }
  });

  describe('a visit counts once it has begun (docs/rules/booking.md#statuses)', () => {
    const start = Date.parse('2026-12-04T10:00:00Z');
    const timing = (offsetMs: number) => ({ startTime: new Date(start), now: start + offsetMs });
    it('when the customer is marked arrived exactly 30 minutes before the start then allowed; a millisecond earlier is NOT_STARTED', () => {
      expect(ARRIVAL_LEAD_MS).to.equal(30 * 60_000);
      expect(decideTransition('CONFIRMED', 'ARRIVED', { timing: timing(-ARRIVAL_LEAD_MS) })).to.deep.include({ allowed: true });
      expect(decideTransition('CONFIRMED', 'ARRIVED', { timing: timing(-ARRIVAL_LEAD_MS - 1) })).to.deep.include({ allowed: false, rejection: 'NOT_STARTED' });
    });
    for (const [from, to] of [
      ['CONFIRMED', 'IN_PROGRESS'],
      ['ARRIVED', 'IN_PROGRESS'],
      ['IN_PROGRESS', 'COMPLETED'],
      ['CONFIRMED', 'NO_SHOW'],
    ] as const) {
      it(`when ${from} -> ${to} at the start then allowed; a millisecond before it is NOT_STARTED`, () => {
        expect(decideTransition(from, to, { timing: timing(0) })).to.deep.include({ allowed: true });
        expect(decideTransition(from, to, { timing: timing(-1) })).to.deep.include({ allowed: false, rejection: 'NOT_STARTED' });
      });
    }
    it('when a booking a day ahead is cancelled or confirmed then its time does not matter; an owner forcing COMPLETED with a reason is allowed', () => {
      expect(decideTransition('CONFIRMED', 'CANCELLED', { timing: timing(-86_400_000) })).to.deep.include({ allowed: true });
      expect(decideTransition('PENDING', 'CONFIRMED', { timing: timing(-86_400_000) })).to.deep.include({ allowed: true });
      expect(decideTransition('CONFIRMED', 'COMPLETED', { timing: timing(-86_400_000), force: { role: 'OWNER', reason: 'paid ahead' } })).to.deep.include({
        allowed: true,
        forced: true,
      });
    });
  });

  describe('events', () => {
    it('when the salon cancels then BookingCancelledBySalon is emitted', () => {
      expect(decideTransition('CONFIRMED', 'CANCELLED', { bySalon: true })).to.deep.include({ allowed: true, event: 'BookingCancelledBySalon' });
      expect(eventForStatus('CANCELLED')).to.equal('BookingCancelled');
    });
    it('when entering PENDING or IN_PROGRESS then no event is named', () => {
      expect(eventForStatus('PENDING')).to.equal(null);
      expect(eventForStatus('IN_PROGRESS')).to.equal(null);
    });
  });

  describe('initial status and parsing', () => {
    it('when autoConfirm is on then public bookings start CONFIRMED, else PENDING', () => {
      expect(initialPublicBookingStatus(true)).to.equal('CONFIRMED');
      expect(initialPublicBookingStatus(false)).to.equal('PENDING');
    });
    const values: Array<[unknown, boolean]> = [
      ['NO_SHOW', true],
      ['no_show', false],
      ['CANCELLED_BY_SALON', false],
      [undefined, false],
    ];
    for (const [value, ok] of values) {
      it(`when parsing ${JSON.stringify(value)} then it is ${ok ? '' : 'not '}a status`, () => {
        expect(isBookingStatus(value)).to.equal(ok);
      });
    }
  });
});

describe('booking status rules: when the reminder is due', () => {
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
