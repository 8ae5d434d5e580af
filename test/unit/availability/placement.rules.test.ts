import { expect } from 'chai';
import { checkBookingPlacement, type PlacementInput, type PlacementResult, type ProposedItem } from '../../../domain/availability';
import { localToUtc } from '../../../domain/time/salon-time.rules';
import { booking, OSLO, openEveryDay, resource } from './fixtures';

const D = '2026-06-02';
const at = (from: string, to: string, resourceId = 'A', serviceId: string | undefined = 'cut', date = D): ProposedItem => ({
  resourceId,
  serviceId,
  start: localToUtc(date, from, OSLO),
  end: localToUtc(date, to, OSLO),
});

function base(over: Partial<PlacementInput> = {}): PlacementInput {
  return {
    timezone: OSLO,
    businessHours: openEveryDay(['08:00', '12:00'], ['13:00', '20:00']),
    allowDoubleBooking: false,
    resources: [
      resource('A', {
        hours: [['09:00', '17:00']],
        bookings: [booking(D, '10:00', '11:00', 'CONFIRMED', OSLO, 'b-1'), booking(D, '14:00', '15:00', 'CANCELLED', OSLO, 'b-2')],
        timeOff: [{ startDate: D, endDate: D, startTime: '16:00', endTime: '17:00', isApproved: true }],
      }),
      resource('B', { skills: ['color'], hours: [['09:00', '17:00']] }),
      resource('OFF', { isActive: false }),
    ],
    items: [],
    ...over,
  };
}

const summary = (r: PlacementResult) =>
  r.ok ? 'ok' : [r.code, r.issues[0].reason ?? r.issues[0].conflictingBookingId ?? r.issues[0].conflictingItemIndex ?? ''].join(' ').trim();

describe('booking placement check (creation and update)', () => {
  const cases: Array<[string, Partial<PlacementInput>, string]> = [
    ['inside the schedule and free', { items: [at('09:00', '10:00')] }, 'ok'],
    ['touching an existing booking on both sides', { items: [at('09:00', '10:00'), at('11:00', '11:30')] }, 'ok'],
    ['overlapping an existing booking by one minute', { items: [at('09:00', '10:01')] }, 'BOOKING_CONFLICT b-1'],
    ['containing an existing booking', { items: [at('09:30', '11:30')] }, 'BOOKING_CONFLICT b-1'],
    ['over a CANCELLED booking', { items: [at('14:00', '15:00')] }, 'ok'],
    ['overlapping a booking with allowDoubleBooking', { items: [at('10:00', '11:00')], allowDoubleBooking: true }, 'ok'],
    ['overlapping the booking being updated (excluded)', { items: [at('10:15', '11:15')], excludeBookingId: 'b-1' }, 'ok'],
    ['before the schedule starts', { items: [at('08:30', '09:30')] }, 'RESOURCE_NOT_AVAILABLE OUTSIDE_SCHEDULE'],
    ['across the business-hours lunch break', { items: [at('11:30', '12:30')] }, 'RESOURCE_NOT_AVAILABLE OUTSIDE_SCHEDULE'],
    ['outside hours even with allowDoubleBooking', { items: [at('17:00', '18:00')], allowDoubleBooking: true }, 'RESOURCE_NOT_AVAILABLE OUTSIDE_SCHEDULE'],
    ['during approved time-off', { items: [at('16:00', '16:30')] }, 'RESOURCE_NOT_AVAILABLE TIME_OFF'],
    [
      'on a date overridden as a day off',
      {
        items: [at('09:00', '10:00')],
        resources: [resource('A', { overrides: [{ date: D, startTime: null, endTime: null }] })],
      },
      'RESOURCE_NOT_AVAILABLE OUTSIDE_SCHEDULE',
    ],
    ['on an inactive resource', { items: [at('09:00', '10:00', 'OFF')] }, 'RESOURCE_NOT_AVAILABLE INACTIVE'],
    ['on a resource without the skill', { items: [at('09:00', '10:00', 'B', 'cut')] }, 'RESOURCE_NOT_QUALIFIED'],
    ['without a serviceId the skill is not checked', { items: [{ ...at('09:00', '10:00', 'B'), serviceId: undefined }] }, 'ok'],
    ['on an unknown resource', { items: [at('09:00', '10:00', 'NOPE')] }, 'RESOURCE_NOT_FOUND'],
    ['with end before start', { items: [at('10:00', '09:00')] }, 'INVALID_ITEM'],
    ['two items of the proposal overlapping on one resource', { items: [at('09:00', '09:45'), at('09:30', '10:00')] }, 'BOOKING_CONFLICT 0'],
    ['two items back to back on one resource', { items: [at('09:00', '09:30'), at('09:30', '10:00')] }, 'ok'],
    ['two items at the same time on different resources', { items: [at('09:00', '10:00', 'A'), at('09:00', '10:00', 'B', 'color')] }, 'ok'],
  ];
  for (const [why, over, expected] of cases) {
    it(`when a booking is placed ${why} then ${expected}`, () => {
      expect(summary(checkBookingPlacement(base(over)))).to.equal(expected);
    });
  }

  it('when several items fail then every issue is listed with its item index', () => {
    const result = checkBookingPlacement(base({ items: [at('08:00', '09:00'), at('09:00', '10:00'), at('10:30', '11:00')] }));
    expect(result.ok).to.equal(false);
    if (!result.ok) {
      expect(result.code).to.equal('RESOURCE_NOT_AVAILABLE');
      expect(result.issues.map((i) => [i.itemIndex, i.code])).to.deep.equal([
        [0, 'RESOURCE_NOT_AVAILABLE'],
        [2, 'BOOKING_CONFLICT'],
      ]);
    }
  });

  it('when the public portal places on a resource not bookable online then RESOURCE_NOT_QUALIFIED', () => {
    const result = checkBookingPlacement(base({ onlineOnly: true, resources: [resource('A', { isBookableOnline: false })], items: [at('09:00', '10:00')] }));
    expect(summary(result)).to.equal('RESOURCE_NOT_QUALIFIED');
  });

  describe('on Oslo DST days', () => {
    const wide = openEveryDay(['00:00', '24:00']);
    const cases: Array<[string, string, string, string, string]> = [
      ['spring-forward: 01:00-04:00 shift, an hour from 00:30Z', '2026-03-29', '2026-03-29T00:30:00.000Z', '2026-03-29T01:30:00.000Z', 'ok'],
      [
        'spring-forward: 01:00-04:00 shift has no third real hour',
        '2026-03-29',
        '2026-03-29T01:30:00.000Z',
        '2026-03-29T02:30:00.000Z',
        'RESOURCE_NOT_AVAILABLE OUTSIDE_SCHEDULE',
      ],
      ['fall-back: 01:00-04:00 shift, the second 02:00 hour', '2026-10-25', '2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00.000Z', 'ok'],
      ['fall-back: 01:00-04:00 shift, its last real hour', '2026-10-25', '2026-10-25T02:00:00.000Z', '2026-10-25T03:00:00.000Z', 'ok'],
    ];
    for (const [why, date, start, end, expected] of cases) {
      it(`when ${why} then ${expected}`, () => {
        const result = checkBookingPlacement({
          timezone: OSLO,
          businessHours: wide,
          allowDoubleBooking: false,
          resources: [resource('A', { hours: [['01:00', '04:00']] })],
          items: [{ resourceId: 'A', serviceId: 'cut', start: new Date(start), end: new Date(end) }],
        });
        expect(summary(result), date).to.equal(expected);
      });
    }
  });

  it('when an item runs past local midnight on a resource working 22:00-24:00 and 00:00-02:00 then it fits', () => {
    const result = checkBookingPlacement({
      timezone: OSLO,
      businessHours: openEveryDay(['00:00', '24:00']),
      allowDoubleBooking: false,
      resources: [
        resource('A', {
          hours: [
            ['00:00', '02:00'],
            ['22:00', '24:00'],
          ],
        }),
      ],
      items: [{ resourceId: 'A', start: localToUtc(D, '23:30', OSLO), end: localToUtc('2026-06-03', '00:30', OSLO) }],
    });
    expect(result).to.deep.equal({ ok: true });
  });
});
