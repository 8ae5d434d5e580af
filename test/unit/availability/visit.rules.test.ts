import { expect } from 'chai';
import {
  capacityOf,
  checkBookingPlacement,
  chooseResource,
  computeAvailability,
  firstSlot,
  layOutService,
  layOutVisit,
  nextAvailableDateFromInput,
  placeUnassignedItems,
  staffForAnyone,
  type AvailabilityInput,
  type AvailableSlot,
  type ResourceAvailabilityData,
} from '../../../domain/availability';
import type { ServiceShape } from '../../../domain/catalogue/service-shape.rules';
import { localToUtc } from '../../../domain/time/salon-time.rules';
import { booking, input, OSLO, openEveryDay, resource } from './fixtures';

const DAY = '2026-06-02';
const t = (time: string, date = DAY) => localToUtc(date, time, OSLO).getTime();
const hhmm = (ms: number) => new Date(ms).toLocaleTimeString('en-GB', { timeZone: OSLO, hour: '2-digit', minute: '2-digit' });

/** The colour of the issue: 30 minutes of application, 35 developing, 25 of rinse and finish; the colour station while it develops. */
const COLOUR: ServiceShape = {
  phases: [
    { kind: 'WORK', minutes: 30 },
    { kind: 'PROCESSING', minutes: 35 },
    { kind: 'WORK', minutes: 25 },
  ],
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  requirements: [{ resourceType: 'equipment', phases: [1] }],
};
const colourItem = (resourceId?: string) => ({ serviceId: 'colour', durationMinutes: 90, shape: COLOUR, resourceId });
const cutItem = (minutes = 30, resourceId?: string) => ({ serviceId: 'cut', durationMinutes: minutes, resourceId });

const stylist = (over: Partial<ResourceAvailabilityData> = {}) => resource('A', { skills: ['cut', 'colour'], ...over });
const station = (id = 'S1', over: Partial<ResourceAvailabilityData> = {}): ResourceAvailabilityData =>
  resource(id, { type: 'equipment', skills: ['colour'], weeklySchedule: [], isBookableOnline: false, ...over });

/** The colour booked at 10:00 as its segments block: the stylist's two work phases, the station while it develops. */
const colourAtTen = {
  stylist: [booking(DAY, '10:00', '10:30', 'CONFIRMED', OSLO, 'b1'), booking(DAY, '11:05', '11:30', 'CONFIRMED', OSLO, 'b1')],
  station: [booking(DAY, '10:30', '11:05', 'CONFIRMED', OSLO, 'b1')],
};

function slots(over: Partial<AvailabilityInput>): AvailableSlot[] {
  const result = computeAvailability(input(over));
  if (!result.ok) throw new Error(result.error.message);
  return result.slots;
}
const starts = (over: Partial<AvailabilityInput>) => slots(over).map((s) => s.localTime);

describe('the scheduling engine (visit.rules)', () => {
  describe('laying a service out', () => {
    it('when a service has buffers, phases and a room for one phase then each part has its kind, time and whether it blocks', () => {
      const shape: ServiceShape = {
        ...COLOUR,
        bufferBeforeMinutes: 5,
        bufferAfterMinutes: 10,
        requirements: [
          { resourceType: 'room', phases: null },
          { resourceType: 'equipment', phases: [1] },
        ],
      };
      const { parts, end } = layOutService(shape, 0, t('10:00'));
      expect(hhmm(end)).to.equal('11:30');
      expect(
        parts.map((p) => `${p.resourceType} ${p.kind} ${p.phaseIndex ?? '-'} ${hhmm(p.start)}-${hhmm(p.end)} ${p.blocks ? 'blocks' : 'free'}`),
      ).to.deep.equal([
        'staff BUFFER_BEFORE - 09:55-10:00 blocks',
        'staff WORK 0 10:00-10:30 blocks',
        'staff PROCESSING 1 10:30-11:05 free',
        'staff WORK 2 11:05-11:30 blocks',
        'staff BUFFER_AFTER - 11:30-11:40 blocks',
        'room BUFFER_BEFORE - 09:55-10:00 blocks',
        'room WORK 0 10:00-10:30 blocks',
        'room PROCESSING 1 10:30-11:05 blocks',
        'room WORK 2 11:05-11:30 blocks',
        'room BUFFER_AFTER - 11:30-11:40 blocks',
        'equipment PROCESSING 1 10:30-11:05 blocks',
      ]);
    });
  });

  describe('processing time', () => {
    const base = { slotIntervalMinutes: 15 as const, businessHours: openEveryDay(['09:00', '17:00']) };

    it('when a colour is booked at 10:00 then a 30-minute cut is offered inside its processing (10:30) but not over its application or finish', () => {
      const got = starts({ ...base, items: [cutItem()], resources: [stylist({ bookings: colourAtTen.stylist })] });
      expect(got).to.include.members(['09:00', '09:30', '10:30', '11:30']);
      for (const taken of ['09:45', '10:00', '10:15', '10:45', '11:00', '11:15']) expect(got, taken).to.not.include(taken);
    });

    it('when a cut fits the processing phase exactly then it is offered; one minute longer and it is not (the phase boundaries)', () => {
      const exact = starts({ ...base, items: [cutItem(35)], resources: [stylist({ bookings: colourAtTen.stylist })] });
      expect(exact).to.include('10:30');
      const longer = starts({ ...base, items: [cutItem(36)], resources: [stylist({ bookings: colourAtTen.stylist })] });
      expect(longer).to.not.include('10:30');
      // ending when the application starts, starting when the finish ends: touching is fine
      expect(starts({ ...base, items: [cutItem(60)], resources: [stylist({ bookings: colourAtTen.stylist })] })).to.include.members(['09:00', '11:30']);
    });

    it('when a colour is asked for then its processing phase may hold another client of the stylist, but its work phases may not', () => {
      // a 30-minute cut at 10:30 sits in the processing of a colour started at 10:00
      const cutAt = [booking(DAY, '10:30', '11:00', 'CONFIRMED', OSLO, 'c1')];
      const got = starts({ ...base, items: [colourItem()], resources: [stylist({ bookings: cutAt }), station()] });
      expect(got).to.include('10:00');
      expect(got).to.not.include('09:45').and.not.include('10:15');
    });

    it('when the colour station is taken during the processing phase then no colour is offered over it, whoever the stylist; a second station keeps it open', () => {
      const other = resource('B', { skills: ['colour'] });
      const taken = [stylist(), other, station('S1', { bookings: colourAtTen.station })];
      const got = starts({ ...base, items: [colourItem()], resources: taken });
      // a colour at t develops from t+30 to t+65: it clashes with 10:30-11:05 for t from 09:30 to 10:30
      for (const t0 of ['09:30', '09:45', '10:00', '10:15', '10:30']) expect(got, t0).to.not.include(t0);
      expect(got).to.include.members(['09:15', '10:45']);
      const two = starts({ ...base, items: [colourItem()], resources: [...taken, station('S2')] });
      expect(two).to.include('10:00');
      const slot = slots({ ...base, items: [colourItem()], resources: [...taken, station('S2')] }).find((s) => s.localTime === '10:00')!;
      expect(slot.items[0].requirements).to.deep.equal([{ resourceType: 'equipment', resourceId: 'S2', freeResourceIds: ['S2'] }]);
    });

    it('when no room or equipment is suitable for the service then it has no slots; an inactive one does not count and a room is never offered as staff', () => {
      expect(starts({ ...base, items: [colourItem()], resources: [stylist()] })).to.deep.equal([]);
      expect(starts({ ...base, items: [colourItem()], resources: [stylist(), station('S1', { isActive: false })] })).to.deep.equal([]);
      expect(starts({ ...base, items: [cutItem()], resources: [resource('R', { type: 'room' })] })).to.deep.equal([]);
    });

    it('when a slot is offered then every part carries the resource that would hold it', () => {
      const slot = slots({ ...base, items: [colourItem()], resources: [stylist(), station()] }).find((s) => s.localTime === '10:00')!;
      expect(slot.end.getTime()).to.equal(t('11:30'));
      expect(slot.items[0].parts.map((p) => `${p.resourceId} ${p.kind} ${hhmm(p.start)}`)).to.deep.equal([
        'A WORK 10:00',
        'A PROCESSING 10:30',
        'A WORK 11:05',
        'S1 PROCESSING 10:30',
      ]);
    });
  });

  describe('buffers', () => {
    const buffered = (before: number, after: number) => ({
      serviceId: 'cut',
      durationMinutes: 60,
      shape: { phases: [{ kind: 'WORK' as const, minutes: 60 }], bufferBeforeMinutes: before, bufferAfterMinutes: after, requirements: [] },
    });
    const day = { businessHours: openEveryDay(['09:00', '17:00']), slotIntervalMinutes: 15 as const };

    it('when a service has buffers of 15 minutes then the first start is 09:15 and the last 15:45 in a 09:00-17:00 day (the buffers at the ends of the day)', () => {
      const got = starts({ ...day, items: [buffered(15, 15)], resources: [resource('A')] });
      expect(got[0]).to.equal('09:15');
      expect(got[got.length - 1]).to.equal('15:45');
      const none = starts({ ...day, items: [buffered(0, 0)], resources: [resource('A')] });
      expect([none[0], none[none.length - 1]]).to.deep.equal(['09:00', '16:00']);
    });

    it('when another booking ends at 10:00 then a service with a 15-minute buffer before starts at 10:15, not 10:00; one with a buffer after ends 15 minutes before the next booking', () => {
      const bookings = [booking(DAY, '09:00', '10:00'), booking(DAY, '13:00', '14:00')];
      const got = starts({ ...day, items: [buffered(15, 15)], resources: [resource('A', { bookings })] });
      expect(got).to.not.include('10:00');
      expect(got).to.include.members(['10:15', '11:45']);
      expect(got).to.not.include('12:00');
    });

    it('when two services of one visit follow each other then the buffer between them does not clash with the visit itself', () => {
      const got = starts({ ...day, items: [buffered(0, 15), buffered(15, 0)], resources: [resource('A')] });
      expect(got[0]).to.equal('09:00');
      expect(got[got.length - 1]).to.equal('15:00');
    });
  });

  describe('rooms and equipment', () => {
    it('when a room has no schedule of its own then it is there whenever the salon is open; with one, only then; time-off closes it', () => {
      const resources = [
        stylist(),
        station('S1', { weeklySchedule: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: '12:00', endTime: '17:00', isActive: true })) }),
      ];
      const got = starts({ businessHours: openEveryDay(['09:00', '17:00']), items: [colourItem()], resources });
      expect(got[0]).to.equal('11:30'); // processing from 12:00
      const off = [stylist(), station('S1', { timeOff: [{ startDate: DAY, endDate: DAY, startTime: null, endTime: null, isApproved: true }] })];
      expect(starts({ businessHours: openEveryDay(['09:00', '17:00']), items: [colourItem()], resources: off })).to.deep.equal([]);
    });

    it('when the choice of a room is asked for then the preferred free one wins, else the first free; none suitable, none open and all taken are told apart', () => {
      const resources = [station('S1', { bookings: colourAtTen.station }), station('S2'), station('S3')];
      const capacity = capacityOf(resources, DAY, OSLO, openEveryDay(['09:00', '17:00']), { days: 1 });
      const during = [{ start: t('10:30'), end: t('11:05') }];
      expect(chooseResource(capacity, resources, during, [])).to.deep.equal({ resourceId: 'S2' });
      expect(chooseResource(capacity, resources, during, ['S3'])).to.deep.equal({ resourceId: 'S3' });
      expect(chooseResource(capacity, resources, during, ['S1'])).to.deep.equal({ resourceId: 'S2' });
      expect(chooseResource(capacity, [], during, [])).to.deep.equal({ problem: 'NONE_SUITABLE' });
      expect(chooseResource(capacity, resources, [{ start: t('17:00'), end: t('17:30') }], [])).to.deep.equal({ problem: 'NOT_OPEN' });
      expect(chooseResource(capacity, resources.slice(0, 1), during, [])).to.deep.equal({ problem: 'TAKEN' });
      // the same visit holding S2 elsewhere at that time takes it too
      expect(chooseResource(capacity, resources.slice(0, 2), during, [], [{ resourceId: 'S2', intervals: during }])).to.deep.equal({ problem: 'TAKEN' });
    });
  });

  describe('placement and unassigned capacity', () => {
    const parts = (start: string) => layOutService(COLOUR, 0, t(start)).parts;

    it("when a proposed item works inside another booking's processing then it is placed; over its work phases it conflicts", () => {
      const place = (start: string, minutes: number) =>
        checkBookingPlacement({
          timezone: OSLO,
          businessHours: openEveryDay(['09:00', '17:00']),
          resources: [stylist({ bookings: colourAtTen.stylist })],
          items: [{ resourceId: 'A', serviceId: 'cut', start: new Date(t(start)), end: new Date(t(start) + minutes * 60_000) }],
          allowDoubleBooking: false,
        });
      expect(place('10:30', 35)).to.deep.equal({ ok: true });
      expect(place('10:30', 36)).to.include({ ok: false, code: 'BOOKING_CONFLICT' });
      expect(place('10:15', 30)).to.include({ ok: false, code: 'BOOKING_CONFLICT' });
    });

    it("when a colour is proposed over another client's cut then only its work phases count; its span must lie in working time", () => {
      const place = (start: string, bookings = [booking(DAY, '10:30', '11:00')]) =>
        checkBookingPlacement({
          timezone: OSLO,
          businessHours: openEveryDay(['09:00', '17:00']),
          resources: [stylist({ bookings })],
          items: [{ resourceId: 'A', serviceId: 'colour', start: new Date(t(start)), end: new Date(t(start) + 90 * 60_000), parts: parts(start) }],
          allowDoubleBooking: false,
        });
      expect(place('10:00')).to.deep.equal({ ok: true });
      expect(place('10:15')).to.include({ ok: false, code: 'BOOKING_CONFLICT' });
      expect(place('15:31', [])).to.include({ ok: false, code: 'RESOURCE_NOT_AVAILABLE' });
    });

    it('when an unassigned colour sits on paper then its processing phase leaves that staff member free for a cut', () => {
      const colour = {
        bookingId: 'u1',
        serviceId: 'colour',
        start: new Date(t('10:00')),
        end: new Date(t('11:30')),
        status: 'CONFIRMED' as const,
        blocks: [
          { start: t('10:00'), end: t('10:30') },
          { start: t('11:05'), end: t('11:30') },
        ],
      };
      const placed = placeUnassignedItems([stylist()], [colour], OSLO, openEveryDay(['09:00', '17:00']));
      expect(placed.unplaced).to.deep.equal([]);
      const got = starts({ businessHours: openEveryDay(['09:00', '17:00']), items: [cutItem()], resources: placed.resources });
      expect(got).to.include('10:30').and.not.include('10:00').and.not.include('11:00');
    });
  });

  describe('full or closed', () => {
    const day = (resources: ResourceAvailabilityData[]) => {
      const result = computeAvailability(input({ businessHours: openEveryDay(['09:00', '17:00']), items: [colourItem()], resources }));
      if (!result.ok) throw new Error(result.error.message);
      return { slots: result.slots.length, working: result.working };
    };
    it('when the only colour station is taken all day then the day is full; away that day, or none suitable, then it is closed', () => {
      expect(day([stylist(), station()]).working).to.equal(true);
      expect(day([stylist(), station('S1', { bookings: [booking(DAY, '09:00', '17:00')] })])).to.deep.equal({ slots: 0, working: true });
      expect(day([stylist(), station('S1', { timeOff: [{ startDate: DAY, endDate: DAY, startTime: null, endTime: null, isApproved: true }] })])).to.deep.equal({
        slots: 0,
        working: false,
      });
      expect(day([stylist()])).to.deep.equal({ slots: 0, working: false });
      expect(day([stylist({ timeOff: [{ startDate: DAY, endDate: DAY, startTime: null, endTime: null, isApproved: true }] }), station()])).to.deep.equal({
        slots: 0,
        working: false,
      });
    });
  });

  describe('first day with a start', () => {
    it('when the only colour station is away for a day then the next day with a colour is the one after; the first slot is the first start', () => {
      const resources = [
        stylist(),
        station('S1', { timeOff: [{ startDate: '2026-06-03', endDate: '2026-06-03', startTime: null, endTime: null, isApproved: true }] }),
      ];
      const base = input({ businessHours: openEveryDay(['09:00', '17:00']), items: [colourItem()], resources });
      const { date: _date, ...withoutDate } = base;
      expect(nextAvailableDateFromInput(withoutDate, '2026-06-02', 5)).to.equal('2026-06-04');
      const first = firstSlot({ ...base, date: '2026-06-04' });
      expect(first !== 'STOP' && first !== null && first.localTime).to.equal('09:00');
      expect(firstSlot({ ...base, date: '2026-06-03' })).to.equal(null);
      expect(firstSlot({ ...base, date: '2027-06-03' })).to.equal('STOP');
    });
  });

  describe('who takes "anyone" where every booking is assigned', () => {
    const shape = (minutes: number): ServiceShape => ({ phases: [{ kind: 'WORK', minutes }], bufferBeforeMinutes: 0, bufferAfterMinutes: 0, requirements: [] });
    const team = () => [
      resource('A', { bookings: [booking(DAY, '10:00', '11:00')] }),
      resource('B', { bookings: [booking(DAY, '11:00', '12:00')] }),
      resource('C'),
    ];
    const visitAt = (time: string, items: { minutes: number; resourceId: string | null }[]) =>
      layOutVisit(
        items.map((i) => ({ serviceId: 'cut', shape: shape(i.minutes), resourceId: i.resourceId })),
        t(time),
      ).map((laid, index) => ({ serviceId: 'cut', resourceId: items[index].resourceId, parts: laid.parts }));
    const capacity = (resources: ResourceAvailabilityData[]) => capacityOf(resources, DAY, OSLO, openEveryDay(['08:00', '20:00']), { days: 1 });

    it('when the first staff member is busy then "anyone" goes to the staff member the slot offers at that start, the next one in order', () => {
      const resources = team();
      const slot = slots({ items: [cutItem(60)], resources }).find((x) => x.localTime === '10:00')!;
      expect(slot.items[0].resourceId).to.equal('B');
      expect(staffForAnyone(capacity(resources), resources, visitAt('10:00', [{ minutes: 60, resourceId: null }]), true)).to.deep.equal(['B']);
    });

    it("when a visit has two services then the second keeps the first one's staff member while free, else the first free one, as the slot offers", () => {
      const resources = team();
      const slot = slots({ items: [cutItem(60), cutItem(60)], resources }).find((x) => x.localTime === '10:00')!;
      const chosen = staffForAnyone(
        capacity(resources),
        resources,
        visitAt('10:00', [
          { minutes: 60, resourceId: null },
          { minutes: 60, resourceId: null },
        ]),
        true,
      );
      expect(chosen).to.deep.equal(slot.items.map((i) => i.resourceId));
      expect(chosen).to.deep.equal(['B', 'A']);
    });

    it('when an item names its staff member then it keeps them; when nobody qualified is free or bookable online then null', () => {
      const resources = team();
      expect(staffForAnyone(capacity(resources), resources, visitAt('10:00', [{ minutes: 60, resourceId: 'A' }]), true)).to.deep.equal(['A']);
      const busy = [resource('A', { bookings: [booking(DAY, '10:00', '11:00')] }), resource('B', { isBookableOnline: false })];
      expect(staffForAnyone(capacity(busy), busy, visitAt('10:00', [{ minutes: 60, resourceId: null }]), true)).to.deep.equal([null]);
      expect(staffForAnyone(capacity(busy), busy, visitAt('10:00', [{ minutes: 60, resourceId: null }]), false)).to.deep.equal(['B']);
    });
  });
});
