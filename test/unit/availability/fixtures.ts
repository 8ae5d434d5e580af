// Builders for availability unit tests (not a test file itself).
import type { AvailabilityInput, BusinessHoursDay, ExistingBooking, ResourceAvailabilityData, TimeSlot } from '../../../domain/availability';
import { localToUtc } from '../../../domain/time/salon-time.rules';

export const OSLO = 'Europe/Oslo';

/** Every day of the week open with the same slots. */
export function openEveryDay(...slots: Array<[string, string]>): BusinessHoursDay[] {
  const s: TimeSlot[] = slots.map(([startTime, endTime]) => ({ startTime, endTime }));
  return [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, isOpen: true, slots: s }));
}

export function resource(id: string, over: Partial<ResourceAvailabilityData> & { hours?: Array<[string, string]> } = {}): ResourceAvailabilityData {
  const hours = over.hours ?? [['09:00', '17:00']];
  return {
    id,
    type: 'staff',
    isActive: true,
    isBookableOnline: true,
    skills: ['cut'],
    weeklySchedule: [0, 1, 2, 3, 4, 5, 6].flatMap((dayOfWeek) => hours.map(([startTime, endTime]) => ({ dayOfWeek, startTime, endTime, isActive: true }))),
    overrides: [],
    timeOff: [],
    bookings: [],
    ...over,
  };
}

/** A booking on a local date/time range in a timezone. */
export function booking(date: string, from: string, to: string, status: ExistingBooking['status'] = 'CONFIRMED', tz = OSLO, id?: string): ExistingBooking {
  return { id, start: localToUtc(date, from, tz), end: localToUtc(date, to, tz), status };
}

export function input(over: Partial<AvailabilityInput> = {}): AvailabilityInput {
  return {
    timezone: OSLO,
    now: new Date('2026-06-01T00:00:00.000Z'), // Monday 2026-06-01 02:00 in Oslo
    date: '2026-06-02',
    businessHours: openEveryDay(['08:00', '20:00']),
    maxBookingDaysInAdvance: 30,
    slotIntervalMinutes: 15,
    items: [{ serviceId: 'cut', durationMinutes: 60 }],
    resources: [resource('A')],
    ...over,
  };
}

export const iso = (d: Date): string => d.toISOString();
