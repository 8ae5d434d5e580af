// Payment rules (docs/rules/payments.md), table-driven: integer minor units throughout.
import { expect } from 'chai';
import {
  canTransition,
  checkRefund,
  depositAmount,
  depositStatusFor,
  failureOutcome,
  PAYMENT_RETRY_CAP,
  remainingAmount,
  retryRejection,
} from '../../../domain/payments/payment.rules';

describe('payment rules', () => {
  describe('deposit amount = payable (total - discount) x percent, or fixed', () => {
    const cases: [string, Parameters<typeof depositAmount>[0], number][] = [
      ['20 % of 50000', { totalAmount: 50000, discountAmount: 0, depositType: 'percentage', depositValue: 20 }, 10000],
      ['33 % of 50000 minus 1000 discount', { totalAmount: 50000, discountAmount: 1000, depositType: 'percentage', depositValue: 33 }, 16170],
      ['rounds half up to the minor unit', { totalAmount: 150, discountAmount: 0, depositType: 'percentage', depositValue: 33 }, 50],
      ['100 % is the payable amount', { totalAmount: 12345, discountAmount: 345, depositType: 'percentage', depositValue: 100 }, 12000],
      ['0 % is nothing', { totalAmount: 50000, discountAmount: 0, depositType: 'percentage', depositValue: 0 }, 0],
      ['fixed', { totalAmount: 50000, discountAmount: 0, depositType: 'fixed', depositValue: 15000 }, 15000],
      ['fixed above the payable amount is the payable amount', { totalAmount: 10000, discountAmount: 2000, depositType: 'fixed', depositValue: 15000 }, 8000],
      ['a discount above the total owes nothing', { totalAmount: 1000, discountAmount: 5000, depositType: 'percentage', depositValue: 50 }, 0],
    ];
    for (const [name, input, expected] of cases) {
      it(`${name} -> ${expected}`, () => expect(depositAmount(input)).to.equal(expected));
    }
    it('refuses fractions and percentages above 100', () => {
      expect(() => depositAmount({ totalAmount: 10.5, discountAmount: 0, depositType: 'fixed', depositValue: 1 })).to.throw(RangeError);
      expect(() => depositAmount({ totalAmount: 100, discountAmount: 0, depositType: 'percentage', depositValue: 101 })).to.throw(RangeError);
    });
  });

  describe('refund <= captured - refunded', () => {
    const captured = { status: 'CAPTURED' as const, capturedAmount: 10000, refundedAmount: 0 };
    it('part -> PARTIALLY_REFUNDED', () =>
      expect(checkRefund(captured, 2500)).to.deep.equal({ ok: true, refundedAfter: 2500, statusAfter: 'PARTIALLY_REFUNDED' }));
    it('all -> REFUNDED (at the limit)', () => expect(checkRefund(captured, 10000)).to.deep.equal({ ok: true, refundedAfter: 10000, statusAfter: 'REFUNDED' }));
    it('one past the limit is refused', () => expect(checkRefund(captured, 10001)).to.deep.equal({ ok: false, reason: 'EXCEEDS_REFUNDABLE' }));
    it('the rest of a partly refunded payment, and one past it', () => {
      const part = { status: 'PARTIALLY_REFUNDED' as const, capturedAmount: 10000, refundedAmount: 2500 };
      expect(checkRefund(part, 7500)).to.include({ ok: true, statusAfter: 'REFUNDED' });
      expect(checkRefund(part, 7501)).to.deep.equal({ ok: false, reason: 'EXCEEDS_REFUNDABLE' });
    });
    it('zero, negative and fractional amounts are refused', () => {
      for (const amount of [0, -1, 1.5]) expect(checkRefund(captured, amount)).to.deep.equal({ ok: false, reason: 'AMOUNT_INVALID' });
    });
    it('an uncaptured payment cannot be refunded', () => {
      for (const status of ['INITIATED', 'AUTHORIZED', 'REFUNDED', 'VOIDED'] as const)
        expect(checkRefund({ ...captured, status }, 1)).to.deep.equal({ ok: false, reason: 'NOT_CAPTURED' });
    });
  });

  describe('remaining = total - captured + refunded', () => {
    it('after a deposit', () => expect(remainingAmount(50000, 0, [{ capturedAmount: 10000, refundedAmount: 0 }])).to.equal(40000));
    it('a refund owes again', () => expect(remainingAmount(50000, 0, [{ capturedAmount: 10000, refundedAmount: 2500 }])).to.equal(42500));
    it('everything paid -> 0', () =>
      expect(
        remainingAmount(50000, 0, [
          { capturedAmount: 10000, refundedAmount: 0 },
          { capturedAmount: 40000, refundedAmount: 0 },
        ]),
      ).to.equal(0));
    it('the discount is not owed', () => expect(remainingAmount(50000, 5000, [])).to.equal(45000));
  });

  describe('state machine', () => {
    const allowed: [string, string][] = [
      ['INITIATED', 'AUTHORIZED'],
      ['INITIATED', 'CAPTURED'],
      ['INITIATED', 'FAILED'],
      ['INITIATED', 'EXPIRED'],
      ['AUTHORIZED', 'CAPTURED'],
      ['AUTHORIZED', 'VOIDED'],
      ['AUTHORIZED', 'EXPIRED'],
      ['CAPTURED', 'REFUNDED'],
      ['CAPTURED', 'PARTIALLY_REFUNDED'],
      ['PARTIALLY_REFUNDED', 'REFUNDED'],
    ];
    for (const [from, to] of allowed) it(`${from} -> ${to}`, () => expect(canTransition(from as never, to as never)).to.equal(true));
    const refused: [string, string][] = [
      ['CAPTURED', 'AUTHORIZED'],
      ['FAILED', 'CAPTURED'],
      ['EXPIRED', 'AUTHORIZED'],
      ['REFUNDED', 'CAPTURED'],
      ['VOIDED', 'CAPTURED'],
      ['CAPTURED', 'EXPIRED'],
    ];
    for (const [from, to] of refused) it(`not ${from} -> ${to}`, () => expect(canTransition(from as never, to as never)).to.equal(false));
  });

  describe('failures and the retry cap of 3', () => {
    it('TRANSIENT never counts', () => expect(failureOutcome(2, 'TRANSIENT')).to.deep.equal({ failedCount: 2, cancelBooking: false }));
    it('the second PERMANENT failure is below the cap', () => expect(failureOutcome(1, 'PERMANENT')).to.deep.equal({ failedCount: 2, cancelBooking: false }));
    it('the third PERMANENT failure reaches the cap', () =>
      expect(failureOutcome(2, 'PERMANENT')).to.deep.equal({ failedCount: PAYMENT_RETRY_CAP, cancelBooking: true }));
    it('retry allowed at 2 failures, refused at 3', () => {
      const base = { bookingStatus: 'PENDING', depositStatus: 'RETRY_PENDING', lastPaymentStatus: 'FAILED' as const };
      expect(retryRejection({ ...base, failedCount: 2 })).to.equal(null);
      expect(retryRejection({ ...base, failedCount: 3 })).to.be.a('string');
      expect(retryRejection({ ...base, bookingStatus: 'CONFIRMED', failedCount: 0 })).to.be.a('string');
    });
  });

  describe('deposit status', () => {
    it('depositStatus follows the payment but a forfeited deposit stays FORFEIT until refunded', () => {
      expect(depositStatusFor('CAPTURED', 'PENDING')).to.equal('PAID');
      expect(depositStatusFor('CAPTURED', 'PAID')).to.equal(null);
      expect(depositStatusFor('CAPTURED', 'FORFEIT')).to.equal(null);
      expect(depositStatusFor('PARTIALLY_REFUNDED', 'FORFEIT')).to.equal('PARTIALLY_REFUNDED');
    });
  });
});
