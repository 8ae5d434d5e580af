import { expect } from 'chai';
import { decideCancellation, isWithinFreeCancellationWindow, type CancellationInput, type DepositState } from '../../../domain/booking/cancellation.rules';

const START = new Date('2026-06-10T10:00:00.000Z');
const hoursBefore = (h: number) => new Date(START.getTime() - h * 3_600_000);
const NONE: DepositState = { state: 'NONE' };
const AUTH: DepositState = { state: 'AUTHORIZED', amount: 25_000 };
const CAPT: DepositState = { state: 'CAPTURED', amount: 25_000 };

describe('cancellation refund policy', () => {
  describe('free window (cancelled at least cancellationHours before start)', () => {
    const cases: Array<[number, number, boolean]> = [
      // [hours before start, cancellationHours, free]
      [48, 24, true],
      [24, 24, true], // exactly on the boundary
      [23.999, 24, false],
      [1, 0, true],
      [0, 0, true],
      [-1, 0, false], // already started
      [168, 168, true],
      [2, 2, true],
      [1.5, 2, false],
    ];
    for (const [before, hours, free] of cases) {
      it(`when cancelled ${before} h before start with cancellationHours ${hours} then free is ${free}`, () => {
        expect(isWithinFreeCancellationWindow(START, hoursBefore(before), hours)).to.equal(free);
      });
    }
    it('when cancellationHours is outside 0..168 or fractional then it throws', () => {
      expect(() => isWithinFreeCancellationWindow(START, hoursBefore(1), 169)).to.throw(RangeError);
      expect(() => isWithinFreeCancellationWindow(START, hoursBefore(1), -1)).to.throw(RangeError);
      expect(() => isWithinFreeCancellationWindow(START, hoursBefore(1), 1.5)).to.throw(RangeError);
    });
  });

  type Row = [string, Partial<CancellationInput>, object];
  const cases: Row[] = [
    [
      'a customer cancels early with no deposit',
      { now: hoursBefore(48), deposit: NONE },
      { withinFreeWindow: true, action: 'NONE', refundAmount: 0, cancellationFee: 0, depositStatusAfter: null, captureRequired: false },
    ],
    [
      'a customer cancels late with no deposit',
      { now: hoursBefore(1), deposit: NONE },
      { withinFreeWindow: false, action: 'NONE', refundAmount: 0, cancellationFee: 0, depositStatusAfter: null },
    ],
    [
      'a customer cancels early with a captured deposit',
      { now: hoursBefore(48), deposit: CAPT },
      { withinFreeWindow: true, action: 'REFUND_FULL', refundAmount: 25_000, cancellationFee: 0, depositStatusAfter: 'REFUNDED' },
    ],
    [
      'a customer cancels early with an authorized deposit',
      { now: hoursBefore(48), deposit: AUTH },
      { withinFreeWindow: true, action: 'VOID', refundAmount: 0, cancellationFee: 0, depositStatusAfter: 'VOIDED', captureRequired: false },
    ],
    [
      'a customer cancels late with a captured deposit',
      { now: hoursBefore(1), deposit: CAPT },
      { withinFreeWindow: false, action: 'FORFEIT', refundAmount: 0, cancellationFee: 25_000, depositStatusAfter: 'FORFEIT', captureRequired: false },
    ],
    [
      'a customer cancels late with an authorized deposit (the hold is captured and kept)',
      { now: hoursBefore(1), deposit: AUTH },
      { withinFreeWindow: false, action: 'FORFEIT', refundAmount: 0, cancellationFee: 25_000, depositStatusAfter: 'FORFEIT', captureRequired: true },
    ],
    [
      'a customer cancels late with a captured deposit already partly refunded',
      { now: hoursBefore(1), deposit: CAPT, alreadyRefundedAmount: 5_000 },
      { action: 'FORFEIT', refundAmount: 0, cancellationFee: 20_000, depositStatusAfter: 'FORFEIT' },
    ],
    [
      'a customer cancels early with a captured deposit already partly refunded',
      { now: hoursBefore(48), deposit: CAPT, alreadyRefundedAmount: 5_000 },
      { action: 'REFUND_FULL', refundAmount: 20_000, cancellationFee: 0, depositStatusAfter: 'REFUNDED' },
    ],
    [
      'a captured deposit is already fully refunded',
      { now: hoursBefore(1), deposit: CAPT, alreadyRefundedAmount: 25_000 },
      { action: 'NONE', refundAmount: 0, cancellationFee: 0, depositStatusAfter: 'REFUNDED' },
    ],
    [
      'the salon cancels late with a captured deposit',
      { now: hoursBefore(1), cancelledBy: 'SALON', deposit: CAPT },
      {
        withinFreeWindow: false,
        action: 'REFUND_FULL',
        refundAmount: 25_000,
        cancellationFee: 0,
        depositStatusAfter: 'REFUNDED',
        event: 'BookingCancelledBySalon',
      },
    ],
    [
      'the salon cancels late with an authorized deposit',
      { now: hoursBefore(1), cancelledBy: 'SALON', deposit: AUTH },
      { withinFreeWindow: false, action: 'VOID', refundAmount: 0, cancellationFee: 0, depositStatusAfter: 'VOIDED' },
    ],
    [
      'the salon cancels after the start time with a captured deposit',
      { now: hoursBefore(-2), cancelledBy: 'SALON', deposit: CAPT },
      { action: 'REFUND_FULL', refundAmount: 25_000 },
    ],
    [
      'a barbershop (2 h) customer cancels 3 h before',
      { now: hoursBefore(3), cancellationHours: 2, deposit: CAPT },
      { withinFreeWindow: true, action: 'REFUND_FULL', refundAmount: 25_000 },
    ],
    [
      'a one-øre deposit is kept on a late cancellation',
      { now: hoursBefore(1), deposit: { state: 'CAPTURED', amount: 1 } },
      { action: 'FORFEIT', cancellationFee: 1 },
    ],
  ];
  for (const [why, over, expected] of cases) {
    it(`when ${why} then ${JSON.stringify(expected)}`, () => {
      const decision = decideCancellation({
        bookingStart: START,
        now: hoursBefore(48),
        cancellationHours: 24,
        cancelledBy: 'CUSTOMER',
        deposit: NONE,
        ...over,
      });
      expect(decision).to.deep.include(expected);
      expect(Number.isInteger(decision.refundAmount) && Number.isInteger(decision.cancellationFee)).to.equal(true);
      expect(decision.event).to.equal(over.cancelledBy === 'SALON' ? 'BookingCancelledBySalon' : 'BookingCancelled');
    });
  }

  describe('invalid money is a programming error', () => {
    const bad: Array<[string, Partial<CancellationInput>]> = [
      ['a fractional amount', { deposit: { state: 'CAPTURED', amount: 100.5 } }],
      ['a negative amount', { deposit: { state: 'AUTHORIZED', amount: -1 } }],
      ['refunded more than captured', { deposit: CAPT, alreadyRefundedAmount: 25_001 }],
      ['a refund on an authorized deposit', { deposit: AUTH, alreadyRefundedAmount: 1 }],
      ['a refund without a deposit', { deposit: NONE, alreadyRefundedAmount: 1 }],
    ];
    for (const [why, over] of bad) {
      it(`when ${why} then it throws RangeError`, () => {
        expect(() =>
          decideCancellation({ bookingStart: START, now: hoursBefore(1), cancellationHours: 24, cancelledBy: 'CUSTOMER', deposit: NONE, ...over }),
        ).to.throw(RangeError);
      });
    }
  });
});
