import { expect } from 'chai';
import {
  candidateStarts,
  computeAvailability,
  placeUnassignedItems,
  qualifiedResources,
  type AvailabilityInput,
  type AvailabilityResult,
  type AvailableSlot,
} from '../../../domain/availability';
import { localToUtc } from '../../../domain/time/salon-time.rules';
import { booking, input, iso, OSLO, openEveryDay, resource } from './fixtures';

const WIDE = openEveryDay(['00:00', '24:00']);

function slotsOf(result: AvailabilityResult): AvailableSlot[] {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.slots;
}
const localTimes = (input: AvailabilityInput): string[] => slotsOf(computeAvailability(input)).map((s) => s.localTime);
const utcStarts = (input: AvailabilityInput): string[] => slotsOf(computeAvailability(input)).map((s) => iso(s.start));

describe('slot computation', () => {
  describe('single service, one resource', () => {
    const cases: Array<[string, Partial<AvailabilityInput>, string[]]> = [
      [
        'a 60-minute service in 09:00-12:00 with 15-minute slots',
        { resources: [resource('A', { hours: [['09:00', '12:00']] })] },
        ['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30', '10:45', '11:00'],
      ],
      [
        'the same day with 30-minute slots',
        { slotIntervalMinutes: 30, resources: [resource('A', { hours: [['09:00', '12:00']] })] },
        ['09:00', '09:30', '10:00', '10:30', '11:00'],
      ],
      [
        'the same day with 60-minute slots',
        { slotIntervalMinutes: 60, resources: [resource('A', { hours: [['09:00', '12:00']] })] },
        ['09:00', '10:00', '11:00'],
      ],
      [
        'a booking 10:00-11:00 (touching slots stay: 09:00 ends at 10:00, 11:00 starts at its end)',
        { slotIntervalMinutes: 30, resources: [resource('A', { hours: [['09:00', '13:00']], bookings: [booking('2026-06-02', '10:00', '11:00')] })] },
        ['09:00', '11:00', '11:30', '12:00'],
      ],
      [
        'a cancelled and a no-show booking do not block',
        {
          slotIntervalMinutes: 60,
          resources: [
            resource('A', {
              hours: [['09:00', '12:00']],
              bookings: [booking('2026-06-02', '09:00', '10:00', 'CANCELLED'), booking('2026-06-02', '10:00', '11:00', 'NO_SHOW')],
            }),
          ],
        },
        ['09:00', '10:00', '11:00'],
      ],
      [
        'free time starting at 10:10: the first start is the next clock multiple, 10:15',
        { resources: [resource('A', { hours: [['09:00', '12:00']], bookings: [booking('2026-06-02', '09:00', '10:10')] })] },
        ['10:15', '10:30', '10:45', '11:00'],
      ],
      [
        'allowDoubleBooking ignores bookings but not the schedule',
        {
          slotIntervalMinutes: 60,
          allowDoubleBooking: true,
          resources: [resource('A', { hours: [['09:00', '12:00']], bookings: [booking('2026-06-02', '09:00', '12:00')] })],
        },
        ['09:00', '10:00', '11:00'],
      ],
      [
        'partial time-off 10:00-11:00',
        {
          slotIntervalMinutes: 30,
          resources: [
            resource('A', {
              hours: [['09:00', '13:00']],
              timeOff: [{ startDate: '2026-06-01', endDate: '2026-06-04', startTime: '10:00', endTime: '11:00', isApproved: true }],
            }),
          ],
        },
        ['09:00', '11:00', '11:30', '12:00'],
      ],
      [
        'an override 14:00-16:00 for the date',
        { slotIntervalMinutes: 60, resources: [resource('A', { overrides: [{ date: '2026-06-02', startTime: '14:00', endTime: '16:00' }] })] },
        ['14:00', '15:00'],
      ],
      ['an override day off', { resources: [resource('A', { overrides: [{ date: '2026-06-02', startTime: null, endTime: null }] })] }, []],
      [
        'a service longer than any free interval',
        {
          items: [{ serviceId: 'cut', durationMinutes: 240 }],
          resources: [
            resource('A', {
              hours: [
                ['09:00', '12:00'],
                ['13:00', '17:00'],
              ],
            }),
          ],
          businessHours: WIDE,
          slotIntervalMinutes: 60,
        },
        ['13:00'],
      ],
    ];
    for (const [why, over, expected] of cases) {
      it(`when ${why} then local starts are ${JSON.stringify(expected)}`, () => {
        expect(localTimes(input(over))).to.deep.equal(expected);
      });
    }

    it('when a slot is returned then start/end and the item are UTC instants for the chosen resource', () => {
      const [first] = slotsOf(computeAvailability(input({ resources: [resource('A', { hours: [['09:00', '12:00']] })] })));
      expect(iso(first.start)).to.equal('2026-06-02T07:00:00.000Z');
      expect(iso(first.end)).to.equal('2026-06-02T08:00:00.000Z');
      expect(first.items).to.have.length(1);
      expect(first.items[0]).to.deep.include({ serviceId: 'cut', resourceId: 'A', freeResourceIds: ['A'] });
    });
  });

  describe('now and the booking window', () => {
    const r = [resource('A', { hours: [['09:00', '12:00']] })];
    it('when now is 10:05 local today then only starts from 10:15 remain', () => {
      const now = localToUtc('2026-06-02', '10:05', OSLO);
      expect(localTimes(input({ now, resources: r }))).to.deep.equal(['10:15', '10:30', '10:45', '11:00']);
    });
    it('when now is exactly 10:00 local then 10:00 is still offered', () => {
      const now = localToUtc('2026-06-02', '10:00', OSLO);
      expect(localTimes(input({ now, resources: r }))[0]).to.equal('10:00');
    });
    it('when the date is in the past then the result is ok with no slots and nobody working', () => {
      const result = computeAvailability(input({ date: '2026-05-31', resources: r }));
      expect(result).to.deep.equal({ ok: true, date: '2026-05-31', timezone: OSLO, slots: [], working: false });
    });

    // now = 2026-05-31T22:30Z is already 2026-06-01 00:30 in Oslo: local "today" is 2026-06-01.
    const now = new Date('2026-05-31T22:30:00.000Z');
    const windowCases: Array<[string, number, string, 'ok' | 'DATE_BEYOND_BOOKING_WINDOW']> = [
      ['exactly today + max (local days)', 30, '2026-07-01', 'ok'],
      ['one day past today + max', 30, '2026-07-02', 'DATE_BEYOND_BOOKING_WINDOW'],
      ['today with max 1', 1, '2026-06-01', 'ok'],
      ['tomorrow with max 1', 1, '2026-06-02', 'ok'],
      ['the day after tomorrow with max 1', 1, '2026-06-03', 'DATE_BEYOND_BOOKING_WINDOW'],
      ['a deposit tenant at its 7-day cap', 7, '2026-06-08', 'ok'],
      ['a deposit tenant one day past its 7-day cap', 7, '2026-06-09', 'DATE_BEYOND_BOOKING_WINDOW'],
    ];
    for (const [why, max, date, expected] of windowCases) {
      it(`when ${date} is ${why} then ${expected}`, () => {
        const result = computeAvailability(input({ now, date, maxBookingDaysInAdvance: max, resources: r }));
        if (expected === 'ok') {
          expect(slotsOf(result)).to.have.length.greaterThan(0);
        } else {
          expect(result).to.deep.include({ ok: false });
          if (!result.ok) expect(result.error).to.include({ code: expected });
        }
      });
    }
    it('when the date is past the window then the error names the last bookable date', () => {
      const result = computeAvailability(input({ now, date: '2026-07-02', maxBookingDaysInAdvance: 30, resources: r }));
      expect(result.ok).to.equal(false);
      if (!result.ok) expect(result.error.lastBookableDate).to.equal('2026-07-01');
    });
    it('when maxBookingDaysInAdvance is null then far dates are allowed', () => {
      expect(slotsOf(computeAvailability(input({ now, date: '2027-05-01', maxBookingDaysInAdvance: null, resources: r })))).to.not.be.empty;
    });
  });

  describe('invalid input gives a typed error', () => {
    const cases: Array<[string, Partial<AvailabilityInput>, string]> = [
      ['an unknown timezone', { timezone: 'Europe/Atlantis' }, 'INVALID_TIMEZONE'],
      ['a malformed date', { date: '2026-6-2' }, 'INVALID_DATE'],
      ['an impossible date', { date: '2026-02-30' }, 'INVALID_DATE'],
      ['a 20-minute slot interval', { slotIntervalMinutes: 20 as never }, 'INVALID_SLOT_INTERVAL'],
      ['no items', { items: [] }, 'INVALID_ITEMS'],
      ['a zero duration', { items: [{ serviceId: 'cut', durationMinutes: 0 }] }, 'INVALID_ITEMS'],
      ['a fractional duration', { items: [{ serviceId: 'cut', durationMinutes: 7.5 }] }, 'INVALID_ITEMS'],
    ];
    for (const [why, over, code] of cases) {
      it(`when ${why} then ${code}`, () => {
        const result = computeAvailability(input(over));
        expect(result.ok).to.equal(false);
        if (!result.ok) expect(result.error.code).to.equal(code);
      });
    }
  });

  describe('full or closed: whether someone works that day', () => {
    const result = (over: Partial<AvailabilityInput>) => computeAvailability(input(over)) as Extract<AvailabilityResult, { ok: true }>;
    it('when the staff member works but every time is booked then there are no slots and the day is worked (full)', () => {
      const r = result({ resources: [resource('A', { bookings: [booking('2026-06-02', '09:00', '17:00')] })] });
      expect([r.slots.length, r.working]).to.deep.equal([0, true]);
    });
    it('when nobody who does the service works (time off, no schedule, the salon closed) then the day is not worked (closed)', () => {
      const away = resource('A', { timeOff: [{ startDate: '2026-06-02', endDate: '2026-06-02', startTime: null, endTime: null, isApproved: true }] });
      expect(result({ resources: [away] }).working).to.equal(false);
      expect(result({ resources: [resource('A', { weeklySchedule: [] })] }).working).to.equal(false);
      expect(result({ businessHours: openEveryDay().map((d) => ({ ...d, isOpen: false })) }).working).to.equal(false);
      expect(result({}).working).to.equal(true);
    });
    it('when today is asked for after closing, or too late for the 60 minutes of the service, then the day is over (not worked, never full); an hour before closing it is still worked', () => {
      const today = (localTime: string) => result({ date: '2026-06-02', now: localToUtc('2026-06-02', localTime, OSLO) });
      expect([today('17:30').slots.length, today('17:30').working], 'after closing').to.deep.equal([0, false]);
      expect(today('16:01').working, 'too late for the service').to.equal(false);
      expect(today('16:00').working, 'one last hour').to.equal(true);
      const booked = result({
        date: '2026-06-02',
        now: localToUtc('2026-06-02', '12:00', OSLO),
        resources: [resource('A', { bookings: [booking('2026-06-02', '09:00', '17:00')] })],
      });
      expect([booked.slots.length, booked.working], 'booked to closing with time ahead: full').to.deep.equal([0, true]);
    });
  });

  describe('strict skill match and candidates', () => {
    const resources = [
      resource('A', { skills: ['cut'] }),
      resource('B', { skills: ['color'] }),
      resource('C', { skills: ['cut'], isActive: false }),
      resource('D', { skills: ['cut', 'color'], isBookableOnline: false }),
    ];
    const cases: Array<[string, string, boolean, string[]]> = [
      ['cut, admin', 'cut', false, ['A', 'D']],
      ['cut, public portal', 'cut', true, ['A']],
      ['color, admin', 'color', false, ['B', 'D']],
      ['color, public portal', 'color', true, ['B']],
      ['a service nobody has', 'nails', false, []],
    ];
    for (const [why, serviceId, onlineOnly, expected] of cases) {
      it(`when asking for ${why} then candidates are ${JSON.stringify(expected)}`, () => {
        expect(qualifiedResources(resources, serviceId, onlineOnly).map((r) => r.id)).to.deep.equal(expected);
        const slots = slotsOf(computeAvailability(input({ resources, onlineOnly, slotIntervalMinutes: 60, items: [{ serviceId, durationMinutes: 60 }] })));
        expect(slots.length > 0 ? slots[0].items[0].freeResourceIds : []).to.deep.equal(expected);
      });
    }
    it('when the chosen resource lacks the skill then there are no slots', () => {
      expect(localTimes(input({ resources, items: [{ serviceId: 'cut', durationMinutes: 60, resourceId: 'B' }] }))).to.deep.equal([]);
    });
    it('when the chosen resource is not bookable online on the public portal then there are no slots', () => {
      expect(localTimes(input({ resources, onlineOnly: true, items: [{ serviceId: 'cut', durationMinutes: 60, resourceId: 'D' }] }))).to.deep.equal([]);
    });
    it('when the chosen resource is unknown then there are no slots', () => {
      expect(localTimes(input({ resources, items: [{ serviceId: 'cut', durationMinutes: 60, resourceId: 'Z' }] }))).to.deep.equal([]);
    });
  });

  describe('unassigned requests', () => {
    const d = '2026-06-02';
    const resources = [
      resource('A', { hours: [['09:00', '12:00']], bookings: [booking(d, '10:00', '11:00')] }),
      resource('B', { hours: [['09:00', '12:00']], bookings: [booking(d, '09:00', '10:00'), booking(d, '10:30', '11:00')] }),
    ];
    const slots = () => slotsOf(computeAvailability(input({ resources, slotIntervalMinutes: 30, items: [{ serviceId: 'cut', durationMinutes: 30 }] })));
    const cases: Array<[string, string[]]> = [
      ['09:00', ['A']],
      ['09:30', ['A']],
      ['10:00', ['B']],
      ['11:00', ['A', 'B']],
      ['11:30', ['A', 'B']],
    ];
    for (const [time, free] of cases) {
      it(`when asking for any staff then ${time} is free for ${JSON.stringify(free)}`, () => {
        const slot = slots().find((s) => s.localTime === time);
        expect(slot, time).to.not.equal(undefined);
        expect(slot!.items[0].freeResourceIds).to.deep.equal(free);
        expect(slot!.items[0].resourceId).to.equal(free[0]);
      });
    }
    it('when both are busy at 10:30 then 10:30 is not offered', () => {
      expect(slots().map((s) => s.localTime)).to.deep.equal(['09:00', '09:30', '10:00', '11:00', '11:30']);
    });
  });

  describe('existing unassigned bookings hold capacity (placeUnassignedItems, then slots)', () => {
    const d = '2026-06-02';
    const two = [resource('A', { hours: [['09:00', '12:00']] }), resource('B', { hours: [['09:00', '12:00']] })];
    let n = 0;
    const unassigned = (from: string, to: string, status: 'CONFIRMED' | 'CANCELLED' = 'CONFIRMED', serviceId = 'cut') => {
      const b = booking(d, from, to, status);
      return { bookingId: `u-${++n}`, serviceId, start: b.start, end: b.end, status };
    };
    const cases: Array<[string, ReturnType<typeof unassigned>[], string[], string | null, number]> = [
      ['one unassigned 10:00 booking leaves one of two staff at 10:00', [unassigned('10:00', '11:00')], ['09:00', '10:00', '11:00'], 'B', 0],
      ['two unassigned 10:00 bookings take both staff', [unassigned('10:00', '11:00'), unassigned('10:00', '11:00')], ['09:00', '11:00'], null, 0],
      [
        'three unassigned 10:00 bookings: one is over capacity',
        [unassigned('10:00', '11:00'), unassigned('10:00', '11:00'), unassigned('10:00', '11:00')],
        ['09:00', '11:00'],
        null,
        1,
      ],
      [
        'cancelled unassigned bookings hold nothing',
        [unassigned('10:00', '11:00', 'CANCELLED'), unassigned('10:00', '11:00', 'CANCELLED')],
        ['09:00', '10:00', '11:00'],
        'A',
        0,
      ],
      [
        'an unassigned booking for a service nobody here has holds nothing',
        [unassigned('10:00', '11:00', 'CONFIRMED', 'nails')],
        ['09:00', '10:00', '11:00'],
        'A',
        1,
      ],
    ];
    for (const [why, items, times, freeAt10, unplaced] of cases) {
      it(`when ${why} then starts are ${JSON.stringify(times)}`, () => {
        const placement = placeUnassignedItems(two, items, OSLO, input().businessHours);
        expect(placement.unplaced).to.have.length(unplaced);
        const slots = slotsOf(computeAvailability(input({ resources: placement.resources, slotIntervalMinutes: 60 })));
        expect(slots.map((s) => s.localTime)).to.deep.equal(times);
        const at10 = slots.find((s) => s.localTime === '10:00');
        expect(at10 ? at10.items[0].resourceId : null).to.equal(freeAt10);
      });
    }
  });

  describe('multi-service chains', () => {
    const d = '2026-06-02';
    it('when a cut (30) is followed by a colour (60) with different specialists then each item gets its own resource back to back', () => {
      const resources = [
        resource('CUTTER', { skills: ['cut'], hours: [['09:00', '10:00']] }),
        resource('COLORIST', { skills: ['color'], hours: [['09:30', '12:00']] }),
      ];
      const slots = slotsOf(
        computeAvailability(
          input({
            resources,
            slotIntervalMinutes: 30,
            items: [
              { serviceId: 'cut', durationMinutes: 30 },
              { serviceId: 'color', durationMinutes: 60 },
            ],
          }),
        ),
      );
      expect(slots.map((s) => s.localTime)).to.deep.equal(['09:00', '09:30']);
      const [first] = slots;
      expect(iso(first.end)).to.equal('2026-06-02T08:30:00.000Z');
      expect(first.items.map((i) => [i.resourceId, iso(i.start), iso(i.end)])).to.deep.equal([
        ['CUTTER', '2026-06-02T07:00:00.000Z', '2026-06-02T07:30:00.000Z'],
        ['COLORIST', '2026-06-02T07:30:00.000Z', '2026-06-02T08:30:00.000Z'],
      ]);
    });

    it('when one resource can do every item then the suggestion keeps the customer with that resource', () => {
      const resources = [resource('X', { skills: ['color'] }), resource('ALL', { skills: ['cut', 'color'] })];
      const [first] = slotsOf(
        computeAvailability(
          input({
            resources,
            items: [
              { serviceId: 'cut', durationMinutes: 30 },
              { serviceId: 'color', durationMinutes: 30 },
            ],
          }),
        ),
      );
      expect(first.items.map((i) => i.resourceId)).to.deep.equal(['ALL', 'ALL']);
      expect(first.items[1].freeResourceIds).to.deep.equal(['X', 'ALL']);
    });

    it('when the second item has a chosen resource then only that resource is used for it', () => {
      const resources = [resource('A', { skills: ['cut', 'color'] }), resource('B', { skills: ['color'], hours: [['13:00', '17:00']] })];
      const slots = slotsOf(
        computeAvailability(
          input({
            resources,
            slotIntervalMinutes: 60,
            items: [
              { serviceId: 'cut', durationMinutes: 60 },
              { serviceId: 'color', durationMinutes: 60, resourceId: 'B' },
            ],
          }),
        ),
      );
      expect(slots.map((s) => s.localTime)).to.deep.equal(['12:00', '13:00', '14:00', '15:00']);
      expect(slots[0].items.map((i) => i.resourceId)).to.deep.equal(['A', 'B']);
    });

    it('when the second specialist is booked then chains that would need her then are dropped', () => {
      const resources = [
        resource('CUTTER', { skills: ['cut'], hours: [['09:00', '12:00']] }),
        resource('COLORIST', { skills: ['color'], hours: [['09:00', '13:00']], bookings: [booking(d, '10:00', '11:00')] }),
      ];
      const times = localTimes(
        input({
          resources,
          slotIntervalMinutes: 30,
          items: [
            { serviceId: 'cut', durationMinutes: 30 },
            { serviceId: 'color', durationMinutes: 60 },
          ],
        }),
      );
      // colour must fit 09:00-10:00 or 11:00-13:00: cut at 08:30 impossible (cutter starts 09:00),
      // so cut 10:30 (colour 11:00-12:00), 11:00, 11:30 (colour 12:00-13:00).
      expect(times).to.deep.equal(['10:30', '11:00', '11:30']);
    });

    it('when no one can do one of the items then there are no slots', () => {
      expect(
        localTimes(
          input({
            items: [
              { serviceId: 'cut', durationMinutes: 30 },
              { serviceId: 'nails', durationMinutes: 30 },
            ],
          }),
        ),
      ).to.deep.equal([]);
    });
  });

  describe('DST days and other timezones', () => {
    it('when a staff member works 01:00-04:00 on Oslo spring-forward day then UTC starts cover only 2 real hours', () => {
      const inp = input({
        date: '2026-03-29',
        now: new Date('2026-03-20T00:00:00.000Z'),
        businessHours: WIDE,
        items: [{ serviceId: 'cut', durationMinutes: 30 }],
        resources: [resource('A', { hours: [['01:00', '04:00']] })],
      });
      expect(utcStarts(inp)).to.deep.equal([
        '2026-03-29T00:00:00.000Z',
        '2026-03-29T00:15:00.000Z',
        '2026-03-29T00:30:00.000Z',
        '2026-03-29T00:45:00.000Z',
        '2026-03-29T01:00:00.000Z',
        '2026-03-29T01:15:00.000Z',
        '2026-03-29T01:30:00.000Z',
      ]);
      expect(localTimes(inp)).to.deep.equal(['01:00', '01:15', '01:30', '01:45', '03:00', '03:15', '03:30']);
    });

    it('when a staff member works 01:00-04:00 on Oslo fall-back day then both 02:00 hours are offered', () => {
      const inp = input({
        date: '2026-10-25',
        now: new Date('2026-10-20T00:00:00.000Z'),
        businessHours: WIDE,
        slotIntervalMinutes: 60,
        items: [{ serviceId: 'cut', durationMinutes: 60 }],
        resources: [resource('A', { hours: [['01:00', '04:00']] })],
      });
      expect(utcStarts(inp)).to.deep.equal(['2026-10-24T23:00:00.000Z', '2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00.000Z']);
      expect(localTimes(inp)).to.deep.equal(['01:00', '02:00', '02:00', '03:00']);
    });

    it('when an ordinary 09:00-17:00 day follows the spring-forward night then slots are on summer time', () => {
      const inp = input({ date: '2026-03-29', now: new Date('2026-03-20T00:00:00.000Z'), slotIntervalMinutes: 60 });
      expect(utcStarts(inp)[0]).to.equal('2026-03-29T07:00:00.000Z');
      expect(utcStarts(inp)).to.have.length(8);
    });

    it('when the salon is in Asia/Kolkata with 60-minute slots then starts are on the local hour (:30 UTC)', () => {
      const inp = input({
        timezone: 'Asia/Kolkata',
        slotIntervalMinutes: 60,
        resources: [resource('A', { hours: [['09:00', '12:00']] })],
      });
      expect(utcStarts(inp)).to.deep.equal(['2026-06-02T03:30:00.000Z', '2026-06-02T04:30:00.000Z', '2026-06-02T05:30:00.000Z']);
      expect(localTimes(inp)).to.deep.equal(['09:00', '10:00', '11:00']);
    });

    it('when the salon is in America/New_York on its spring-forward day then 09:00 local is 13:00Z', () => {
      const inp = input({
        timezone: 'America/New_York',
        date: '2026-03-08',
        now: new Date('2026-03-01T00:00:00.000Z'),
        slotIntervalMinutes: 60,
        resources: [resource('A', { hours: [['09:00', '11:00']] })],
      });
      expect(utcStarts(inp)).to.deep.equal(['2026-03-08T13:00:00.000Z', '2026-03-08T14:00:00.000Z']);
    });

    it('when today in New York is still yesterday in UTC terms then the past-date rule uses the salon date', () => {
      // 2026-06-02T02:00Z is 2026-06-01 22:00 in New York: 2026-06-01 is "today", not the past.
      const inp = input({
        timezone: 'America/New_York',
        date: '2026-06-01',
        now: new Date('2026-06-02T02:00:00.000Z'),
        businessHours: WIDE,
        slotIntervalMinutes: 60,
        resources: [resource('A', { hours: [['22:00', '24:00']] })],
      });
      expect(localTimes(inp)).to.deep.equal(['22:00', '23:00']);
    });

    const gridCases: Array<[string, string, number, number]> = [
      ['Europe/Oslo', '2026-03-29', 15, 92],
      ['Europe/Oslo', '2026-10-25', 15, 100],
      ['Europe/Oslo', '2026-06-02', 60, 24],
      ['Asia/Kolkata', '2026-06-02', 30, 48],
    ];
    for (const [tz, date, step, count] of gridCases) {
      it(`when listing ${step}-minute candidates for ${date} in ${tz} then there are ${count}`, () => {
        expect(candidateStarts(date, tz, step)).to.have.length(count);
      });
    }
  });

  // Latency is measured by `npm run bench:bookings` (availability for a day), not asserted here.
  describe('a busy day', () => {
    it('when 20 staff with 200 bookings are asked for a 3-service chain on one day then it finds slots for the chain', () => {
      const d = '2026-06-02';
      const resources = Array.from({ length: 20 }, (_, k) =>
        resource(`S${k}`, {
          skills: ['cut', 'color', 'wash'],
          hours: [
            ['08:00', '12:00'],
            ['12:30', '20:00'],
          ],
          bookings: Array.from({ length: 10 }, (_, j) => {
            const h = 8 + j + (k % 2);
            return booking(d, `${String(h).padStart(2, '0')}:00`, `${String(h).padStart(2, '0')}:${k % 3 === 0 ? '45' : '30'}`);
          }),
          timeOff: [{ startDate: d, endDate: d, startTime: '15:00', endTime: '15:30', isApproved: k % 4 === 0 }],
        }),
      );
      const inp = input({
        resources,
        businessHours: openEveryDay(['07:00', '21:00']),
        items: [
          { serviceId: 'wash', durationMinutes: 15 },
          { serviceId: 'cut', durationMinutes: 30 },
          { serviceId: 'color', durationMinutes: 45 },
        ],
      });
      const slots = slotsOf(computeAvailability(inp));
      expect(slots.length).to.be.greaterThan(0);
    });
  });
});
