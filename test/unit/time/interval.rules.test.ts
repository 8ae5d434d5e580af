import { expect } from 'chai';
import { contains, fitsWithin, intersectIntervals, mergeIntervals, overlaps, subtractIntervals, type Interval } from '../../../domain/time/interval.rules';

const iv = (start: number, end: number): Interval => ({ start, end });
const list = (...pairs: Array<[number, number]>): Interval[] => pairs.map(([s, e]) => iv(s, e));

describe('interval rules', () => {
  describe('overlap is start < otherEnd && end > otherStart', () => {
    const cases: Array<[string, Interval, Interval, boolean]> = [
      ['touching at the end is not an overlap', iv(0, 10), iv(10, 20), false],
      ['touching at the start is not an overlap', iv(10, 20), iv(0, 10), false],
      ['one minute shared is an overlap', iv(0, 11), iv(10, 20), true],
      ['containment is an overlap', iv(0, 30), iv(10, 20), true],
      ['identical intervals overlap', iv(5, 6), iv(5, 6), true],
      ['disjoint intervals do not overlap', iv(0, 5), iv(6, 9), false],
    ];
    for (const [why, a, b, expected] of cases) {
      it(`when ${JSON.stringify(a)} vs ${JSON.stringify(b)} then ${expected} (${why})`, () => {
        expect(overlaps(a, b)).to.equal(expected);
        expect(overlaps(b, a)).to.equal(expected);
      });
    }
  });

  describe('merge', () => {
    const cases: Array<[string, Interval[], Interval[]]> = [
      ['unsorted overlapping intervals merge', list([10, 20], [0, 12]), list([0, 20])],
      ['touching intervals merge', list([0, 10], [10, 20]), list([0, 20])],
      ['empty intervals are dropped', list([5, 5], [7, 6], [1, 2]), list([1, 2])],
      ['disjoint intervals stay apart and sorted', list([30, 40], [0, 10]), list([0, 10], [30, 40])],
    ];
    for (const [why, input, expected] of cases) {
      it(`when ${why} then ${JSON.stringify(expected)}`, () => {
        const copy = JSON.stringify(input);
        expect(mergeIntervals(input)).to.deep.equal(expected);
        expect(JSON.stringify(input)).to.equal(copy); // input untouched
      });
    }
  });

  describe('intersect', () => {
    const cases: Array<[string, Interval[], Interval[], Interval[]]> = [
      ['schedule with a lunch break against open hours', list([9, 17]), list([8, 12], [13, 20]), list([9, 12], [13, 17])],
      ['no common time', list([0, 5]), list([5, 9]), []],
      ['several pieces on both sides', list([0, 4], [6, 10]), list([2, 8]), list([2, 4], [6, 8])],
      ['empty side', list([0, 4]), [], []],
    ];
    for (const [why, a, b, expected] of cases) {
      it(`when ${why} then ${JSON.stringify(expected)}`, () => {
        expect(intersectIntervals(a, b)).to.deep.equal(expected);
        expect(intersectIntervals(b, a)).to.deep.equal(expected);
      });
    }
  });

  describe('subtract', () => {
    const cases: Array<[string, Interval[], Interval[], Interval[]]> = [
      ['a booking in the middle splits the day', list([9, 17]), list([10, 11]), list([9, 10], [11, 17])],
      ['bookings at both edges trim', list([9, 17]), list([8, 10], [16, 18]), list([10, 16])],
      ['touching removals leave nothing', list([9, 17]), list([9, 13], [13, 17]), []],
      ['a removal outside changes nothing', list([9, 17]), list([1, 2], [17, 20]), list([9, 17])],
      ['one removal spanning two base pieces', list([0, 4], [6, 10]), list([3, 7]), list([0, 3], [7, 10])],
      ['unsorted overlapping removals', list([0, 20]), list([12, 15], [2, 5], [4, 8]), list([0, 2], [8, 12], [15, 20])],
    ];
    for (const [why, base, remove, expected] of cases) {
      it(`when ${why} then ${JSON.stringify(expected)}`, () => {
        expect(subtractIntervals(base, remove)).to.deep.equal(expected);
      });
    }
  });

  describe('fits within a normalized list', () => {
    const free = list([0, 10], [20, 30], [40, 50]);
    const cases: Array<[number, number, boolean]> = [
      [0, 10, true],
      [20, 30, true],
      [25, 30, true],
      [5, 21, false],
      [10, 20, false],
      [45, 51, false],
      [-1, 2, false],
      [41, 42, true],
    ];
    for (const [s, e, ok] of cases) {
      it(`when [${s}, ${e}) then fits is ${ok}`, () => {
        expect(fitsWithin(free, s, e)).to.equal(ok);
        expect(free.some((f) => contains(f, iv(s, e)))).to.equal(ok);
      });
    }
  });
});
