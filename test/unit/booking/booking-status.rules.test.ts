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
