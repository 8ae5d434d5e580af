import { expect } from 'chai';
import {
  VOUCHER_ALPHABET,
  nextStamp,
  normaliseVoucherCode,
  pointsEarned,
  qualifiesForStamp,
  voucherCodeFromBytes,
  voucherDiscount,
  voucherExpiresAt,
} from '../../../domain/loyalty/loyalty.rules';
import { renderVoucherMessage } from '../../../domain/notifications/voucher-messages.rules';

describe('loyalty rules', () => {
  describe('normaliseVoucherCode', () => {
    for (const [input, out] of [
      ['STAMP-7K2M-Q9XD', 'STAMP-7K2M-Q9XD'],
      ['  stamp-7k2m-q9xd ', 'STAMP-7K2M-Q9XD'],
      ['stamp7k2mq9xd', 'STAMP-7K2M-Q9XD'],
      ['7K2M-Q9XD', 'STAMP-7K2M-Q9XD'],
      ['7k2mq9xd', 'STAMP-7K2M-Q9XD'],
      ['S-T-A-M-P-7K2M-Q9XD', 'STAMP-7K2M-Q9XD'],
    ] as const) {
      it(`when the input is ${JSON.stringify(input)} then it is ${out}`, () => expect(normaliseVoucherCode(input)).to.equal(out));
    }
    for (const input of [
      'STAMP-7K2M-Q9XI',
      'STAMP-7K2M-Q9XL',
      'STAMP-7K2M-Q9XO',
      'STAMP-7K2M-Q9XU',
      'STAMP-7K2M Q9XD',
      'STAMP-7K2M-Q9X',
      'STAMP-7K2M-Q9XDD',
      '',
      'STAMP',
      'STAMP-7K2M-Q9XÆ',
    ]) {
      it(`when the input is ${JSON.stringify(input)} then it is refused`, () => expect(normaliseVoucherCode(input)).to.equal(null));
    }
  });

  it('when codes are made from bytes then every character is in the alphabet and every byte value maps', () => {
    expect(VOUCHER_ALPHABET).to.have.length(32);
    expect(voucherCodeFromBytes(new Uint8Array([0, 31, 32, 255, 10, 17, 18, 30]))).to.equal('STAMP-0Z0Z-AHJY');
  });

  it('when the reward is applied then it never exceeds the total (excess forfeited) and percentages round down', () => {
    expect(voucherDiscount({ rewardType: 'DISCOUNT_AMOUNT', rewardValue: 20000 }, 50000)).to.equal(20000);
    expect(voucherDiscount({ rewardType: 'DISCOUNT_AMOUNT', rewardValue: 80000 }, 50000)).to.equal(50000);
    expect(voucherDiscount({ rewardType: 'FREE_SERVICE', rewardValue: 65000 }, 50000)).to.equal(50000);
    expect(voucherDiscount({ rewardType: 'DISCOUNT_PERCENT', rewardValue: 15 }, 33333)).to.equal(4999);
    expect(voucherDiscount({ rewardType: 'DISCOUNT_PERCENT', rewardValue: 100 }, 33333)).to.equal(33333);
    expect(voucherDiscount({ rewardType: 'DISCOUNT_AMOUNT', rewardValue: 100 }, 0)).to.equal(0);
  });

  it('when expiresAt is computed then months are calendar months clamped to the month end; null never expires', () => {
    expect(voucherExpiresAt(new Date('2026-01-31T10:00:00.000Z'), 1)!.toISOString()).to.equal('2026-02-28T10:00:00.000Z');
    expect(voucherExpiresAt(new Date('2026-11-15T23:30:00.000Z'), 3)!.toISOString()).to.equal('2027-02-15T23:30:00.000Z');
    expect(voucherExpiresAt(new Date('2024-02-29T00:00:00.000Z'), 12)!.toISOString()).to.equal('2025-02-28T00:00:00.000Z');
    expect(voucherExpiresAt(new Date(), null)).to.equal(null);
  });

  it('when stamps are counted then the stamp at (or past, after a lowered requirement) requiredStamps completes the cycle', () => {
    expect(nextStamp(0, 0, 5)).to.deep.equal({ cycleNumber: 1, stampNumber: 1, completesCycle: false });
    expect(nextStamp(0, 4, 5)).to.deep.equal({ cycleNumber: 1, stampNumber: 5, completesCycle: true });
    expect(nextStamp(1, 0, 5)).to.deep.equal({ cycleNumber: 2, stampNumber: 1, completesCycle: false });
    expect(nextStamp(0, 3, 2)).to.deep.equal({ cycleNumber: 1, stampNumber: 4, completesCycle: true });
    expect(nextStamp(0, 0, 1).completesCycle).to.equal(true);
  });

  it('when the minimum is checked then the paid amount at the minimum qualifies and null always does', () => {
    expect(qualifiesForStamp(49999, 50000)).to.equal(false);
    expect(qualifiesForStamp(50000, 50000)).to.equal(true);
    expect(qualifiesForStamp(0, null)).to.equal(true);
  });

  it('when points are earned then only whole kroner count', () => {
    expect(pointsEarned(50099, 2)).to.equal(1000);
    expect(pointsEarned(99, 5)).to.equal(0);
  });

  it('when voucher messages are rendered then they are in the customer’s language, with the code, the reward and the validity', () => {
    const facts = {
      salonName: 'Klipp',
      customerName: 'Kari',
      code: 'STAMP-7K2M-Q9XD',
      rewardType: 'DISCOUNT_PERCENT' as const,
      rewardValue: 20,
      expiresAt: null,
      timezone: 'Europe/Oslo',
    };
    const issued = renderVoucherMessage('ISSUED', facts);
    expect(issued.text).to.equal(
      'Hei Kari! Stempelkortet ditt hos Klipp er fullt, og du har fått 20 % rabatt. Bruk koden STAMP-7K2M-Q9XD når du bestiller neste time. Den har ingen utløpsdato.',
    );
    const restored = renderVoucherMessage('RESTORED', {
      ...facts,
      rewardType: 'FREE_SERVICE',
      rewardValue: 50000,
      expiresAt: new Date('2027-06-01T10:00:00.000Z'),
    });
    expect(restored.text).to.contain('en gratis behandling (verdi inntil 500 kr)').and.contain('Gyldig til tirsdag 1. juni kl. 12:00');
    expect(renderVoucherMessage('ISSUED', { ...facts, rewardType: 'DISCOUNT_AMOUNT', rewardValue: 15050 }, 'en').text).to.equal(
      'Hi Kari! Your stamp card at Klipp is full, and you have earned kr 150.50 off. Use the code STAMP-7K2M-Q9XD when you book your next appointment. It does not expire.',
    );
    expect(renderVoucherMessage('RESTORED', { ...facts, expiresAt: new Date('2027-06-01T10:00:00.000Z') }, 'en').text).to.contain(
      'Valid until Tuesday 1 June at 12:00',
    );
  });
});
