import { expect } from 'chai';
import { freeIntervals, workingIntervals, type BusinessHoursDay, type Interval, type ResourceAvailabilityData } from '../../../domain/availability';
import { utcToLocalTime } from '../../../domain/time/salon-time.rules';
import { booking, OSLO, openEveryDay, resource } from './fixtures';

/** Render intervals as local 'HH:mm-HH:mm' for readable expectations. */
const local = (ivs: Interval[], tz = OSLO): string[] => ivs.map((i) => `${utcToLocalTime(i.start, tz)}-${utcToLocalTime(i.end, tz)}`);
const utc = (ivs: Interval[]): string[] => ivs.map((i) => `${new Date(i.start).toISOString()}/${new Date(i.end).toISOString()}`);

const TUESDAY = '2026-06-02'; // dayOfWeek 2
const WIDE = openEveryDay(['00:00', '24:00']);

describe('working and free time of one resource on one date', () => {
  const cases: Array<[string, ResourceAvailabilityData, BusinessHoursDay[], string[]]> = [
    ['the weekly schedule inside business hours is used as is', resource('A'), openEveryDay(['08:00', '20:00']), ['09:00-17:00']],
    [
      'several weekly slots on one day are all used',
      resource('A', {
        hours: [
          ['09:00', '12:00'],
          ['13:00', '17:00'],
        ],
      }),
      WIDE,
      ['09:00-12:00', '13:00-17:00'],
    ],
    [
      'an inactive weekly row is ignored',
      resource('A', {
        weeklySchedule: [
          { dayOfWeek: 2, startTime: '09:00', endTime: '12:00', isActive: true },
          { dayOfWeek: 2, startTime: '13:00', endTime: '17:00', isActive: false },
        ],
      }),
      WIDE,
      ['09:00-12:00'],
    ],
    [
      'rows for other days of the week are ignored',
      resource('A', { weeklySchedule: [{ dayOfWeek: 3, startTime: '09:00', endTime: '12:00', isActive: true }] }),
      WIDE,
      [],
    ],
    ['business hours with a lunch break cut the schedule', resource('A'), openEveryDay(['10:00', '12:00'], ['12:30', '16:00']), ['10:00-12:00', '12:30-16:00']],
    ['a day with isOpen false is closed', resource('A'), [{ dayOfWeek: 2, isOpen: false, slots: [{ startTime: '08:00', endTime: '20:00' }] }], []],
    ['a day with no business-hours entry is closed', resource('A'), [], []],
    [
      'an overnight or malformed weekly slot is ignored',
      resource('A', {
        hours: [
          ['22:00', '02:00'],
          ['9:00', '10:00'],
          ['10:00', '11:00'],
        ],
      }),
      WIDE,
      ['10:00-11:00'],
    ],
    [
      'an override for the date replaces the weekly schedule',
      resource('A', { overrides: [{ date: TUESDAY, startTime: '12:00', endTime: '19:00' }] }),
      WIDE,
      ['12:00-19:00'],
    ],
    [
      'an override is still cut by business hours',
      resource('A', { overrides: [{ date: TUESDAY, startTime: '06:00', endTime: '22:00' }] }),
      openEveryDay(['08:00', '20:00']),
      ['08:00-20:00'],
    ],
    ['an override with null times is a day off', resource('A', { overrides: [{ date: TUESDAY, startTime: null, endTime: null }] }), WIDE, []],
    [
      'an override for another date does not apply',
      resource('A', { overrides: [{ date: '2026-06-03', startTime: null, endTime: null }] }),
      WIDE,
      ['09:00-17:00'],
    ],
    [
      'approved full-day time-off spanning several days removes the whole date',
      resource('A', { timeOff: [{ startDate: '2026-06-01', endDate: '2026-06-05', startTime: null, endTime: null, isApproved: true }] }),
      WIDE,
      [],
    ],
    [
      'time-off that is not approved is ignored',
      resource('A', { timeOff: [{ startDate: TUESDAY, endDate: TUESDAY, startTime: null, endTime: null, isApproved: false }] }),
      WIDE,
      ['09:00-17:00'],
    ],
    [
      'partial multi-day time-off applies its window on each covered date',
      resource('A', { timeOff: [{ startDate: '2026-06-01', endDate: '2026-06-03', startTime: '12:00', endTime: '13:30', isApproved: true }] }),
      WIDE,
      ['09:00-12:00', '13:30-17:00'],
    ],
    [
      'partial time-off with only a start time runs to the end of the day',
      resource('A', { timeOff: [{ startDate: TUESDAY, endDate: TUESDAY, startTime: '15:00', endTime: null, isApproved: true }] }),
      WIDE,
      ['09:00-15:00'],
    ],
    [
      'several time-off rows on one day are all removed',
      resource('A', {
        timeOff: [
          { startDate: TUESDAY, endDate: TUESDAY, startTime: '09:00', endTime: '10:00', isApproved: true },
          { startDate: TUESDAY, endDate: TUESDAY, startTime: '16:00', endTime: '17:00', isApproved: true },
        ],
      }),
      WIDE,
      ['10:00-16:00'],
    ],
    [
      'a malformed partial time-off blocks the whole date (fail closed)',
      resource('A', { timeOff: [{ startDate: TUESDAY, endDate: TUESDAY, startTime: '14:00', endTime: '10:00', isApproved: true }] }),
      WIDE,
      [],
    ],
    [
      'time-off that ended the day before does not apply',
      resource('A', { timeOff: [{ startDate: '2026-05-25', endDate: '2026-06-01', startTime: null, endTime: null, isApproved: true }] }),
      WIDE,
      ['09:00-17:00'],
    ],
  ];
  for (const [why, r, hours, expected] of cases) {
    it(`when ${why} then working time is ${JSON.stringify(expected)}`, () => {
      expect(local(workingIntervals(r, TUESDAY, OSLO, hours))).to.deep.equal(expected);
    });
  }

  describe('bookings', () => {
    const statuses: Array<[string, boolean]> = [
      ['PENDING', true],
      ['CONFIRMED', true],
      ['ARRIVED', true],
      ['IN_PROGRESS', true],
      ['COMPLETED', true],
      ['CANCELLED', false],
      ['NO_SHOW', false],
    ];
    for (const [status, blocks] of statuses) {
      it(`when a ${status} booking sits at 10:00-11:00 then it ${blocks ? 'removes' : 'does not remove'} that hour`, () => {
        const r = resource('A', { bookings: [booking(TUESDAY, '10:00', '11:00', status as never)] });
        expect(local(freeIntervals(r, TUESDAY, OSLO, WIDE))).to.deep.equal(blocks ? ['09:00-10:00', '11:00-17:00'] : ['09:00-17:00']);
      });
    }
  });

  describe('DST days in Europe/Oslo', () => {
    it('when a staff member works 01:00-04:00 on spring-forward day 2026-03-29 then only 2 real hours exist', () => {
      const r = resource('A', { hours: [['01:00', '04:00']] });
      expect(utc(workingIntervals(r, '2026-03-29', OSLO, WIDE))).to.deep.equal(['2026-03-29T00:00:00.000Z/2026-03-29T02:00:00.000Z']);
    });
    it('when a staff member works 01:00-04:00 on fall-back day 2026-10-25 then 4 real hours exist', () => {
      const r = resource('A', { hours: [['01:00', '04:00']] });
      expect(utc(workingIntervals(r, '2026-10-25', OSLO, WIDE))).to.deep.equal(['2026-10-24T23:00:00.000Z/2026-10-25T03:00:00.000Z']);
    });
    it('when a schedule slot lies entirely inside the spring-forward gap then both ends shift forward an hour', () => {
      const r = resource('A', { hours: [['02:00', '02:45']] });
      expect(local(workingIntervals(r, '2026-03-29', OSLO, WIDE))).to.deep.equal(['03:00-03:45']);
    });
    it('when a full-day time-off covers the fall-back day then all 25 hours are removed', () => {
      const r = resource('A', {
        hours: [['00:00', '24:00']],
        timeOff: [{ startDate: '2026-10-25', endDate: '2026-10-25', startTime: null, endTime: null, isApproved: true }],
      });
      expect(workingIntervals(r, '2026-10-25', OSLO, WIDE)).to.deep.equal([]);
    });
  });

  it('when the salon is in Asia/Kolkata then local hours map to :30 UTC', () => {
    const r = resource('A');
    expect(utc(workingIntervals(r, TUESDAY, 'Asia/Kolkata', WIDE))).to.deep.equal(['2026-06-02T03:30:00.000Z/2026-06-02T11:30:00.000Z']);
  });
});
