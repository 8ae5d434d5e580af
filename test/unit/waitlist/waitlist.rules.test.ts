// The waitlist's pure rules (docs/rules/waitlist.md): the range limit, which entries a freed
// interval can go to, whether a slot suits an entry (salon-local, DST included), the held time.
import { expect } from 'chai';
import { candidateEntries, entryEndsAtMs, entryWishProblems, slotSuitsEntry, type WaitingEntry } from '../../../domain/waitlist/waitlist.rules';
import { localToUtc } from '../../../domain/time/salon-time.rules';
import { daysWithLongerHours, defaultBusinessHours } from '../../../domain/tenant/tenant-settings.rules';

const TZ = 'Europe/Oslo';
const ms = (date: string, time: string) => localToUtc(date, time, TZ).getTime();

function entry(fields: Partial<WaitingEntry> = {}): WaitingEntry {
  return { id: 'e', serviceIds: ['cut'], resourceId: null, fromDate: '2027-03-01', toDate: '2027-03-31', earliestTime: null, latestTime: null, ...fields };
}

describe('waitlist rules', () => {
  describe('entryWishProblems', () => {
    const wish = (fromDate: string, toDate: string, earliestTime: string | null = null, latestTime: string | null = null) => ({
      fromDate,
      toDate,
      earliestTime,
      latestTime,
    });
    it('accepts a range of exactly 60 days and refuses 61, a start before today, and an end before the start', () => {
      expect(entryWishProblems(wish('2027-03-01', '2027-04-30'), '2027-03-01')).to.deep.equal([]);
      expect(entryWishProblems(wish('2027-03-01', '2027-05-01'), '2027-03-01').map((p) => p.field)).to.deep.equal(['toDate']);
      expect(entryWishProblems(wish('2027-02-28', '2027-03-05'), '2027-03-01').map((p) => p.field)).to.deep.equal(['fromDate']);
      expect(entryWishProblems(wish('2027-03-05', '2027-03-04'), '2027-03-01').map((p) => p.field)).to.deep.equal(['toDate']);
      expect(entryWishProblems(wish('2027-03-01', '2027-03-02', '12:00', '11:59'), '2027-03-01').map((p) => p.field)).to.deep.equal(['latestTime']);
    });
  });

  describe('candidateEntries', () => {
    const freed = { resourceId: 'ingrid', start: ms('2027-03-10', '10:00'), end: ms('2027-03-10', '11:00') };
    const durations: Record<string, number> = { cut: 60, colour: 90, wash: 15 };
    const of = (entries: WaitingEntry[]) => candidateEntries(entries, freed, TZ, (id) => durations[id]).map((e) => e.id);
    it('keeps the order and drops other staff, other dates, services that do not fit together, and services no longer offered', () => {
      expect(
        of([
          entry({ id: 'any' }),
          entry({ id: 'ingrid', resourceId: 'ingrid' }),
          entry({ id: 'lars', resourceId: 'lars' }),
          entry({ id: 'later', fromDate: '2027-03-11' }),
          entry({ id: 'earlier', toDate: '2027-03-09' }),
          entry({ id: 'too-long', serviceIds: ['colour'] }),
          entry({ id: 'two-fit', serviceIds: ['wash', 'wash'] }),
          entry({ id: 'gone', serviceIds: ['perm'] }),
        ]),
      ).to.deep.equal(['any', 'ingrid', 'two-fit']);
    });
  });

  describe('slotSuitsEntry', () => {
    const freed = { start: ms('2027-03-10', '10:00'), end: ms('2027-03-10', '12:00') };
    const slot = (from: string, to: string, date = '2027-03-10') => ({ start: ms(date, from), end: ms(date, to) });
    it("needs the slot inside the freed time, on the entry's dates, from the earliest start and ending by the latest end", () => {
      expect(slotSuitsEntry(slot('10:00', '11:00'), entry(), freed, TZ)).to.equal(true);
      expect(slotSuitsEntry(slot('11:30', '12:30'), entry(), freed, TZ)).to.equal(false);
      expect(slotSuitsEntry(slot('10:00', '11:00'), entry({ earliestTime: '10:15' }), freed, TZ)).to.equal(false);
      expect(slotSuitsEntry(slot('10:15', '11:15'), entry({ earliestTime: '10:15' }), freed, TZ)).to.equal(true);
      expect(slotSuitsEntry(slot('10:00', '11:00'), entry({ latestTime: '11:00' }), freed, TZ)).to.equal(true);
      expect(slotSuitsEntry(slot('10:00', '11:00'), entry({ latestTime: '10:59' }), freed, TZ)).to.equal(false);
      expect(slotSuitsEntry(slot('10:00', '11:00'), entry({ toDate: '2027-03-09' }), freed, TZ)).to.equal(false);
    });

    it("reads times of day in the salon's zone on a DST day (2027-03-28, clocks go 02:00 -> 03:00)", () => {
      const dst = { start: ms('2027-03-28', '09:00'), end: ms('2027-03-28', '12:00') };
      expect(
        slotSuitsEntry({ start: ms('2027-03-28', '09:00'), end: ms('2027-03-28', '10:00') }, entry({ earliestTime: '09:00', latestTime: '10:00' }), dst, TZ),
      ).to.equal(true);
      expect(entryEndsAtMs('2027-03-28', TZ) - ms('2027-03-28', '00:00')).to.equal(23 * 3600_000);
    });
  });

  describe('daysWithLongerHours (business hours that may give the waitlist time)', () => {
    it('names the days open longer, newly open or with moved slots; shorter and unchanged days are left out', () => {
      const before = defaultBusinessHours();
      const after = before.map((d) => {
        if (d.dayOfWeek === 1) return { ...d, slots: [{ startTime: '09:00', endTime: '19:00' }] }; // longer
        if (d.dayOfWeek === 2) return { ...d, slots: [{ startTime: '10:00', endTime: '18:00' }] }; // moved
        if (d.dayOfWeek === 3) return { ...d, slots: [{ startTime: '09:00', endTime: '12:00' }] }; // shorter
        if (d.dayOfWeek === 0) return { ...d, isOpen: true, slots: [{ startTime: '12:00', endTime: '16:00' }] }; // opened
        return d;
      });
      expect(daysWithLongerHours(before, after)).to.deep.equal([0, 1, 2]);
      expect(daysWithLongerHours(before, before)).to.deep.equal([]);
    });
  });
});
