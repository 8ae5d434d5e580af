// Deposit now, later or none (docs/rules/payments.md#deposits-at-any-distance).
import { expect } from 'chai';
import { DEPOSIT_REQUEST_LEAD_MS, depositMoments, depositTiming, type DepositTimingInput } from '../../../domain/payments/deposit-timing.rules';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date('2026-03-02T09:00:00Z');

function timing(startInMs: number, overrides: Partial<DepositTimingInput> = {}) {
  return depositTiming({
    settings: { depositEnabled: true, depositType: 'fixed', depositValue: 20000, depositDeadlineHours: 48 },
    paymentMode: 'ONLINE',
    totalAmount: 60000,
    discountAmount: 0,
    startTime: new Date(now.getTime() + startInMs),
    now,
    ...overrides,
  });
}

describe('deposit timing rules', () => {
  it('when the visit is within 6 days then the deposit is reserved now; from just past 6 days it is requested later', () => {
    expect(DEPOSIT_REQUEST_LEAD_MS).to.equal(6 * DAY);
    expect(timing(6 * DAY)).to.deep.equal({ when: 'NOW', amount: 20000 });
    expect(timing(6 * DAY + 1).when).to.equal('LATER');
  });

  it('when a booking is 30 days ahead then its deposit is requested 6 days before, reminded halfway to the deadline, and due 48 hours before the start', () => {
    const start = new Date(now.getTime() + 30 * DAY);
    expect(timing(30 * DAY)).to.deep.equal({
      when: 'LATER',
      amount: 20000,
      requestAt: new Date(start.getTime() - 6 * DAY),
      reminderAt: new Date(start.getTime() - 4 * DAY),
      deadline: new Date(start.getTime() - 2 * DAY),
    });
  });

  it('when the salon sets the deadline at its bounds (1 and 120 hours) then the moments follow it; unset it is 48 hours', () => {
    const start = new Date('2026-04-01T10:00:00Z');
    expect(depositMoments(start, 1).deadline).to.deep.equal(new Date(start.getTime() - HOUR));
    expect(depositMoments(start, 120).deadline).to.deep.equal(new Date(start.getTime() - 5 * DAY));
    expect(depositMoments(start, 120).reminderAt).to.deep.equal(new Date(start.getTime() - 5.5 * DAY));
    expect(depositMoments(start, undefined).deadline).to.deep.equal(new Date(start.getTime() - 2 * DAY));
  });

  it('when deposits are off, the booking is paid in person, or the deposit is 0 then no deposit is owed at any distance', () => {
    expect(timing(30 * DAY, { settings: { depositEnabled: false, depositType: 'fixed', depositValue: 20000 } })).to.deep.equal({ when: 'NONE' });
    expect(timing(30 * DAY, { paymentMode: 'IN_PERSON' })).to.deep.equal({ when: 'NONE' });
    expect(timing(2 * DAY, { settings: { depositEnabled: true, depositType: 'percentage', depositValue: 0 } })).to.deep.equal({ when: 'NONE' });
  });
});
