import { expect } from 'chai';
import { findNextAvailableDate, isWithinBookingWindow, nextAvailableDateFromInput, normalizeMaxDaysAhead } from '../../../domain/availability';
import { OSLO, input, resource } from './fixtures';

describe('next available date', () => {
  describe('window size', () => {
    const cases: Array<[string, number | null | undefined, number]> = [
      ['omitted', undefined, 30],
      ['null', null, 30],
      ['7', 7, 7],
      ['exactly the cap 90', 90, 90],
      ['above the cap', 365, 90],
      ['zero', 0, 1],
      ['negative', -5, 1],
      ['fractional', 10.9, 10],
      ['NaN', Number.NaN, 30],
    ];
    for (const [why, given, effective] of cases) {
      it(`when maxDaysAhead is ${why} then ${effective} days are scanned`, () => {
        expect(normalizeMaxDaysAhead(given)).to.equal(effective);
        const seen: string[] = [];
        const result = findNextAvailableDate({
          fromDate: '2026-06-01',
          maxDaysAhead: given,
          hasAvailability: (d) => {
            seen.push(d);
            return false;
          },
        });
        expect(result).to.equal(null);
        expect(seen).to.have.length(effective);
        expect(seen[0]).to.equal('2026-06-02'); // starts at fromDate + 1, never fromDate itself
      });
    }
  });

  const stopCases: Array<[string, (d: string) => boolean | 'STOP', string | null, number]> = [
    ['the first day after fromDate has a slot', () => true, '2026-06-02', 1],
    ['only 2026-06-10 has a slot', (d) => d === '2026-06-10', '2026-06-10', 9],
    ['the slot is on the last day of the default window', (d) => d === '2026-07-01', '2026-07-01', 30],
    ['the slot is one day after the default window', (d) => d === '2026-07-02', null, 30],
    ['the callback says STOP on the 3rd day', (d) => (d === '2026-06-04' ? 'STOP' : false), null, 3],
  ];
  for (const [why, cb, expected, calls] of stopCases) {
    it(`when ${why} then the answer is ${expected} after ${calls} look-ups`, () => {
      let n = 0;
      const result = findNextAvailableDate({ fromDate: '2026-06-01', hasAvailability: (d) => (n++, cb(d)) });
      expect(result).to.equal(expected);
      expect(n).to.equal(calls);
    });
  }

  it('when fromDate is malformed then it throws', () => {
    expect(() => findNextAvailableDate({ fromDate: '01.06.2026', hasAvailability: () => true })).to.throw(RangeError);
  });

  describe('over preloaded data', () => {
    const { date: _omit, ...rest } = input();
    it('when the resource works only on Fridays then the next Friday is found', () => {
      const r = resource('A', { weeklySchedule: [{ dayOfWeek: 5, startTime: '09:00', endTime: '17:00', isActive: true }] });
      expect(nextAvailableDateFromInput({ ...rest, resources: [r] }, '2026-06-01')).to.equal('2026-06-05');
    });
    it('when the resource is on vacation for two weeks then the first day after it is found', () => {
      const r = resource('A', {
        timeOff: [{ startDate: '2026-06-02', endDate: '2026-06-15', startTime: null, endTime: null, isApproved: true }],
      });
      expect(nextAvailableDateFromInput({ ...rest, resources: [r] }, '2026-06-01')).to.equal('2026-06-16');
    });
    it('when the only free day is past maxBookingDaysInAdvance then null (the scan stops at the window)', () => {
      const r = resource('A', {
        timeOff: [{ startDate: '2026-06-02', endDate: '2026-06-20', startTime: null, endTime: null, isApproved: true }],
      });
      expect(nextAvailableDateFromInput({ ...rest, maxBookingDaysInAdvance: 14, resources: [r] }, '2026-06-01', 90)).to.equal(null);
      expect(nextAvailableDateFromInput({ ...rest, maxBookingDaysInAdvance: 30, resources: [r] }, '2026-06-01', 90)).to.equal('2026-06-21');
    });
    it('when nobody has the skill then null', () => {
      expect(nextAvailableDateFromInput({ ...rest, items: [{ serviceId: 'nails', durationMinutes: 30 }] }, '2026-06-01')).to.equal(null);
    });
  });

  describe('booking window for creation', () => {
    const now = new Date('2026-05-31T22:30:00.000Z'); // 2026-06-01 00:30 in Oslo
    const cases: Array<[string, string, boolean]> = [
      ['the last minute of today + 30', '2026-07-01T21:59:00.000Z', true], // 23:59 Oslo on 07-01
      ['the first minute after today + 30', '2026-07-01T22:00:00.000Z', false], // 00:00 Oslo on 07-02
    ];
    for (const [why, start, ok] of cases) {
      it(`when a booking starts at ${why} then within window is ${ok}`, () => {
        expect(isWithinBookingWindow(new Date(start), now, OSLO, 30)).to.equal(ok);
      });
    }
  });
});
