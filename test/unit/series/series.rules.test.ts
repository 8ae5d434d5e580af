// The standing appointments' and rebooking nudges' pure rules (docs/rules/series.md): planned times
// across a daylight-saving change in Europe/Oslo, the end of a series by count and by date, when an
// occurrence enters the booking window, the tolerance's days, the nearest free start, the nudge's interval.
import { expect } from 'chai';
import { bookableFrom, isInSeries, nearestStart, plannedStartOf, toleranceDates, toleranceDaysOf, type SeriesPlan } from '../../../domain/series/series.rules';
import { nudgeDueAt, nudgeIntervalWeeks } from '../../../domain/rebooking/rebooking.rules';
import { localToUtc } from '../../../domain/time/salon-time.rules';

const TZ = 'Europe/Oslo';
const at = (date: string, time: string) => localToUtc(date, time, TZ);

function plan(fields: Partial<SeriesPlan> = {}): SeriesPlan {
  return { intervalWeeks: 1, anchorIndex: 0, anchorStart: at('2027-03-18', '10:00'), occurrenceCount: 5, untilDate: null, ...fields };
}

describe('series rules', () => {
  describe('plannedStartOf', () => {
    it('keeps the salon-local time of day across the spring and autumn changes (10:00 stays 10:00)', () => {
      const weekly = plan();
      expect(plannedStartOf(weekly, 0, TZ).toISOString()).to.equal('2027-03-18T09:00:00.000Z');
      // 2027-03-28: clocks go forward
      expect(plannedStartOf(weekly, 2, TZ).toISOString()).to.equal(at('2027-04-01', '10:00').toISOString());
      expect(plannedStartOf(weekly, 2, TZ).toISOString()).to.equal('2027-04-01T08:00:00.000Z');
      const autumn = plan({ anchorStart: at('2027-10-21', '10:00'), intervalWeeks: 2 });
      expect(plannedStartOf(autumn, 1, TZ).toISOString()).to.equal('2027-11-04T09:00:00.000Z');
    });

    it('counts a changed interval from the anchor: occurrence k is (k - anchorIndex) intervals after it', () => {
      const changed = plan({ anchorIndex: 3, anchorStart: at('2027-04-08', '10:00'), intervalWeeks: 4 });
      expect(plannedStartOf(changed, 3, TZ).toISOString()).to.equal(at('2027-04-08', '10:00').toISOString());
      expect(plannedStartOf(changed, 4, TZ).toISOString()).to.equal(at('2027-05-06', '10:00').toISOString());
      expect(plannedStartOf(changed, 6, TZ).toISOString()).to.equal(at('2027-07-01', '10:00').toISOString());
    });
  });

  describe('isInSeries', () => {
    it('ends after occurrenceCount occurrences (the first included), or on untilDate inclusive, salon-local', () => {
      const counted = plan({ occurrenceCount: 2 });
      expect(isInSeries(counted, 1, plannedStartOf(counted, 1, TZ), TZ)).to.equal(true);
      expect(isInSeries(counted, 2, plannedStartOf(counted, 2, TZ), TZ)).to.equal(false);
      const dated = plan({ occurrenceCount: null, untilDate: '2027-04-01' });
      expect(isInSeries(dated, 2, at('2027-04-01', '23:30'), TZ)).to.equal(true);
      expect(isInSeries(dated, 3, at('2027-04-08', '10:00'), TZ)).to.equal(false);
    });
  });

  describe('bookableFrom', () => {
    it("is the start of the salon-local day maxBookingDaysInAdvance days before the occurrence's date", () => {
      expect(new Date(bookableFrom(at('2027-04-01', '10:00'), TZ, 14)).toISOString()).to.equal(at('2027-03-18', '00:00').toISOString());
      expect(new Date(bookableFrom(at('2027-04-01', '10:00'), TZ, 1)).toISOString()).to.equal(at('2027-03-31', '00:00').toISOString());
    });
  });

  describe('toleranceDates and the setting', () => {
    it('lists the day itself, then a day after and before, out to the tolerance; 0 is the day alone; the default is 2', () => {
      expect(toleranceDates(at('2027-04-01', '10:00'), TZ, 2)).to.deep.equal(['2027-04-01', '2027-04-02', '2027-03-31', '2027-04-03', '2027-03-30']);
      expect(toleranceDates(at('2027-04-01', '10:00'), TZ, 0)).to.deep.equal(['2027-04-01']);
      expect(toleranceDaysOf({})).to.equal(2);
      expect(toleranceDaysOf({ seriesToleranceDays: 7 })).to.equal(7);
    });
  });

  describe('nearestStart', () => {
    const target = at('2027-04-01', '10:00');
    it('prefers the same day at the nearest time, the earlier of two as near', () => {
      expect(nearestStart([at('2027-04-01', '11:00'), at('2027-04-01', '09:00'), at('2027-04-01', '16:00')], target, TZ)?.toISOString()).to.equal(
        at('2027-04-01', '09:00').toISOString(),
      );
      expect(nearestStart([at('2027-04-01', '11:15'), at('2027-04-01', '09:30')], target, TZ)?.toISOString()).to.equal(at('2027-04-01', '09:30').toISOString());
    });
    it('prefers a nearer day over a nearer instant: 10:00 the day before, not 16:00 the day before', () => {
      expect(nearestStart([at('2027-03-31', '16:00'), at('2027-03-31', '10:00'), at('2027-04-02', '10:00')], target, TZ)?.toISOString()).to.equal(
        at('2027-03-31', '10:00').toISOString(),
      );
      expect(nearestStart([at('2027-04-03', '10:00'), at('2027-04-02', '14:00')], target, TZ)?.toISOString()).to.equal(at('2027-04-02', '14:00').toISOString());
    });
    it('answers null when nothing is free', () => {
      expect(nearestStart([], target, TZ)).to.equal(null);
    });
  });
});

describe('rebooking nudge rules', () => {
  it("is due after the shortest typical interval among the visit's services; none without one", () => {
    expect(nudgeIntervalWeeks([{ typicalIntervalWeeks: 6 }, { typicalIntervalWeeks: null }, { typicalIntervalWeeks: 4 }])).to.equal(4);
    expect(nudgeIntervalWeeks([{ typicalIntervalWeeks: null }])).to.equal(null);
    expect(nudgeDueAt(new Date('2027-03-01T09:00:00.000Z'), 5).toISOString()).to.equal('2027-04-05T09:00:00.000Z');
  });
});
