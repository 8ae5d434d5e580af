import { expect } from 'chai';
import moment from 'moment-timezone';
import {
  addDays,
  dayOfWeek,
  daysBetween,
  isValidEndTime,
  isValidLocalDate,
  isValidLocalTime,
  isValidTimeZone,
  localDayBoundsUtcMs,
  localToUtc,
  minutesToTime,
  parseEndTimeMinutes,
  timeToMinutes,
  utcOffsetMinutes,
  utcToLocal,
  utcToLocalDate,
  utcToLocalTime,
} from '../../../domain/time/salon-time.rules';

const OSLO = 'Europe/Oslo';
const NY = 'America/New_York';
const KOLKATA = 'Asia/Kolkata';

describe('salon-time rules', () => {
  describe('local date + HH:mm + timezone -> UTC', () => {
    const cases: Array<[string, string, string, string, string]> = [
      // [why, tz, date, time, expected UTC]
      ['Oslo winter is +01:00', OSLO, '2026-01-15', '09:00', '2026-01-15T08:00:00.000Z'],
      ['Oslo summer is +02:00', OSLO, '2026-07-15', '09:00', '2026-07-15T07:00:00.000Z'],
      ['Oslo spring-forward day, before the gap', OSLO, '2026-03-29', '01:30', '2026-03-29T00:30:00.000Z'],
      ['Oslo spring-forward day, gap start 02:00 shifts forward to 03:00 CEST', OSLO, '2026-03-29', '02:00', '2026-03-29T01:00:00.000Z'],
      ['Oslo spring-forward day, 02:30 (in the gap) shifts forward to 03:30 CEST', OSLO, '2026-03-29', '02:30', '2026-03-29T01:30:00.000Z'],
      ['Oslo spring-forward day, 03:00 is the first real time after the gap', OSLO, '2026-03-29', '03:00', '2026-03-29T01:00:00.000Z'],
      ['Oslo spring-forward day, 04:00 CEST', OSLO, '2026-03-29', '04:00', '2026-03-29T02:00:00.000Z'],
      ['Oslo fall-back day, 01:59 still summer time', OSLO, '2026-10-25', '01:59', '2026-10-24T23:59:00.000Z'],
      ['Oslo fall-back day, ambiguous 02:00 resolves to the first occurrence (CEST)', OSLO, '2026-10-25', '02:00', '2026-10-25T00:00:00.000Z'],
      ['Oslo fall-back day, ambiguous 02:30 resolves to the first occurrence (CEST)', OSLO, '2026-10-25', '02:30', '2026-10-25T00:30:00.000Z'],
      ['Oslo fall-back day, 03:00 is winter time only', OSLO, '2026-10-25', '03:00', '2026-10-25T02:00:00.000Z'],
      ['Oslo midnight ending a date (24:00)', OSLO, '2026-01-15', '24:00', '2026-01-15T23:00:00.000Z'],
      ['New York winter is -05:00', NY, '2026-01-15', '09:00', '2026-01-15T14:00:00.000Z'],
      ['New York spring-forward 2026-03-08, 02:30 in the gap shifts to 03:30 EDT', NY, '2026-03-08', '02:30', '2026-03-08T07:30:00.000Z'],
      ['New York spring-forward, 03:00 EDT', NY, '2026-03-08', '03:00', '2026-03-08T07:00:00.000Z'],
      ['New York fall-back 2026-11-01, ambiguous 01:30 is the first (EDT)', NY, '2026-11-01', '01:30', '2026-11-01T05:30:00.000Z'],
      ['New York fall-back, 02:00 is EST', NY, '2026-11-01', '02:00', '2026-11-01T07:00:00.000Z'],
      ['Kolkata is +05:30 all year', KOLKATA, '2026-03-29', '09:00', '2026-03-29T03:30:00.000Z'],
      ['Kolkata local midnight is the previous UTC day', KOLKATA, '2026-06-01', '00:00', '2026-05-31T18:30:00.000Z'],
    ];
    for (const [why, tz, date, time, expected] of cases) {
      it(`when ${date} ${time} in ${tz} then ${expected} (${why})`, () => {
        expect(localToUtc(date, time, tz).toISOString()).to.equal(expected);
      });
    }

    it('when compared with moment-timezone over every quarter hour of the DST days then both agree', () => {
      for (const [tz, date] of [
        [OSLO, '2026-03-29'],
        [OSLO, '2026-10-25'],
        [NY, '2026-03-08'],
        [NY, '2026-11-01'],
        [KOLKATA, '2026-03-29'],
      ]) {
        for (let m = 0; m < 1440; m += 15) {
          const time = minutesToTime(m);
          const ours = localToUtc(date, time, tz).toISOString();
          const theirs = moment.tz(`${date} ${time}`, 'YYYY-MM-DD HH:mm', true, tz).toISOString();
          expect(ours, `${tz} ${date} ${time}`).to.equal(theirs);
        }
      }
    });

    it('when the input is invalid then it throws a RangeError', () => {
      expect(() => localToUtc('2026-02-30', '10:00', OSLO)).to.throw(RangeError);
      expect(() => localToUtc('2026-02-01', '25:00', OSLO)).to.throw(RangeError);
      expect(() => localToUtc('2026-02-01', '10:00', 'Mars/Olympus')).to.throw(RangeError);
    });
  });

  describe('UTC -> local date, time, day of week', () => {
    const cases: Array<[string, string, string, string, number]> = [
      // [utc, tz, local date, local time, offset minutes]
      ['2026-03-29T00:59:00.000Z', OSLO, '2026-03-29', '01:59', 60],
      ['2026-03-29T01:00:00.000Z', OSLO, '2026-03-29', '03:00', 120],
      ['2026-10-25T00:30:00.000Z', OSLO, '2026-10-25', '02:30', 120],
      ['2026-10-25T01:30:00.000Z', OSLO, '2026-10-25', '02:30', 60],
      ['2026-01-15T23:30:00.000Z', OSLO, '2026-01-16', '00:30', 60],
      ['2026-01-16T03:00:00.000Z', NY, '2026-01-15', '22:00', -300],
      ['2026-05-31T18:30:00.000Z', KOLKATA, '2026-06-01', '00:00', 330],
    ];
    for (const [utc, tz, date, time, offset] of cases) {
      it(`when ${utc} is shown in ${tz} then it is ${date} ${time} (offset ${offset})`, () => {
        const local = utcToLocal(new Date(utc), tz);
        expect(local).to.include({ date, time, offsetMinutes: offset });
        expect(utcToLocalDate(new Date(utc), tz)).to.equal(date);
        expect(utcToLocalTime(Date.parse(utc), tz)).to.equal(time);
        expect(utcOffsetMinutes(new Date(utc), tz)).to.equal(offset);
        expect(local.dayOfWeek).to.equal(dayOfWeek(date));
      });
    }
  });

  describe('day of week from noon UTC', () => {
    const cases: Array<[string, number]> = [
      ['2026-03-29', 0], // Sunday
      ['2026-03-30', 1],
      ['2026-10-24', 6],
      ['2024-02-29', 4],
      ['2026-01-01', 4],
    ];
    for (const [date, dow] of cases) {
      it(`when the date is ${date} then the day of week is ${dow}`, () => {
        expect(dayOfWeek(date)).to.equal(dow);
      });
    }
  });

  describe('validation', () => {
    const dates: Array<[unknown, boolean]> = [
      ['2026-03-29', true],
      ['2024-02-29', true],
      ['2026-02-29', false],
      ['2026-13-01', false],
      ['2026-00-10', false],
      ['2026-3-29', false],
      ['2026-03-29T00:00', false],
      [20260329, false],
      ['', false],
    ];
    for (const [value, ok] of dates) {
      it(`when the date is ${JSON.stringify(value)} then valid is ${ok}`, () => {
        expect(isValidLocalDate(value)).to.equal(ok);
      });
    }
    const times: Array<[unknown, boolean, boolean]> = [
      // [value, valid HH:mm, valid end time]
      ['00:00', true, true],
      ['23:59', true, true],
      ['24:00', false, true],
      ['24:01', false, false],
      ['9:00', false, false],
      ['09:60', false, false],
      ['09:00:00', false, false],
      [null, false, false],
    ];
    for (const [value, ok, endOk] of times) {
      it(`when the time is ${JSON.stringify(value)} then HH:mm valid is ${ok} and end-time valid is ${endOk}`, () => {
        expect(isValidLocalTime(value)).to.equal(ok);
        expect(isValidEndTime(value)).to.equal(endOk);
      });
    }
    const zones: Array<[unknown, boolean]> = [
      ['Europe/Oslo', true],
      ['America/New_York', true],
      ['Asia/Kolkata', true],
      ['UTC', true],
      ['europe/oslo', false],
      ['Europe/Atlantis', false],
      ['+01:00', false],
      ['', false],
      [undefined, false],
    ];
    for (const [value, ok] of zones) {
      it(`when the zone is ${JSON.stringify(value)} then valid is ${ok}`, () => {
        expect(isValidTimeZone(value)).to.equal(ok);
      });
    }
  });

  describe('date and minute arithmetic', () => {
    const adds: Array<[string, number, string]> = [
      ['2026-03-28', 1, '2026-03-29'],
      ['2026-03-29', 1, '2026-03-30'],
      ['2026-12-31', 1, '2027-01-01'],
      ['2024-02-28', 1, '2024-02-29'],
      ['2026-03-01', -1, '2026-02-28'],
      ['2026-01-01', 365, '2027-01-01'],
    ];
    for (const [date, n, expected] of adds) {
      it(`when adding ${n} day(s) to ${date} then ${expected}`, () => {
        expect(addDays(date, n)).to.equal(expected);
        expect(daysBetween(date, expected)).to.equal(n);
      });
    }
    it('when converting minutes of day then HH:mm round-trips and 24:00 is 1440', () => {
      expect(timeToMinutes('00:00')).to.equal(0);
      expect(timeToMinutes('13:45')).to.equal(825);
      expect(minutesToTime(825)).to.equal('13:45');
      expect(parseEndTimeMinutes('24:00')).to.equal(1440);
      expect(minutesToTime(1440)).to.equal('24:00');
      expect(() => timeToMinutes('24:00')).to.throw(RangeError);
    });
    const days: Array<[string, string, number]> = [
      [OSLO, '2026-03-29', 23],
      [OSLO, '2026-10-25', 25],
      [OSLO, '2026-06-01', 24],
      [NY, '2026-03-08', 23],
      [NY, '2026-11-01', 25],
      [KOLKATA, '2026-03-29', 24],
    ];
    for (const [tz, date, hours] of days) {
      it(`when ${date} in ${tz} then the local day lasts ${hours} hours`, () => {
        const { start, end } = localDayBoundsUtcMs(date, tz);
        expect((end - start) / 3_600_000).to.equal(hours);
      });
    }
  });
});
