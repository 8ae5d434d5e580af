import { expect } from 'chai';
import { CLAIM_WINDOW_MINUTES, isWithinClaimWindow } from '../../../domain/customer-account/claim.rules';

describe('claim window (within 60 minutes of creation)', () => {
  const created = new Date('2027-03-01T10:00:00.000Z');
  const after = (ms: number) => new Date(created.getTime() + ms);
  const cases: [string, number, boolean][] = [
    ['right after creation', 0, true],
    ['59:59.999 later', CLAIM_WINDOW_MINUTES * 60_000 - 1, true],
    ['exactly 60 minutes later (at the limit)', CLAIM_WINDOW_MINUTES * 60_000, true],
    ['60 minutes and 1 ms later (past it)', CLAIM_WINDOW_MINUTES * 60_000 + 1, false],
    ['a day later', 86_400_000, false],
  ];
  for (const [when, ms, expected] of cases) {
    it(`when claimed ${when} then ${expected ? 'allowed' : 'refused'}`, () => {
      expect(isWithinClaimWindow(created, after(ms))).to.equal(expected);
    });
  }
});
