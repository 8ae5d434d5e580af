// Tenant settings (docs/rules/salon.md#settings): stored complete, with defaults that depend on the industry.
// Pure: shared by the tenant service, the seeds and (later) workflows.
import { isValidLocalTime, timeToMinutes } from '../time/salon-time.rules';
import { contains, mergeIntervals, type Interval } from '../time/interval.rules';

export type IndustryType = 'beauty' | 'nail' | 'barbershop';

export interface TimeSlot {
  startTime: string;
  endTime: string;
}

export interface BusinessHoursDay {
  dayOfWeek: number;
  isOpen: boolean;
  slots: TimeSlot[];
}

export interface TenantSettings {
  organizationName: string | null;
  currency: string;
  timezone: string;
  walkInEnabled: boolean;
  autoConfirm: boolean;
  bookingMode: 'assigned_only' | 'allow_unassigned';
  allowDoubleBooking: boolean;
  cancellationHours: number;
  maxBookingDaysInAdvance: number;
  posEnabled: boolean;
  depositEnabled: boolean;
  depositType: 'percentage' | 'fixed';
  depositValue: number;
  /** docs/rules/payments.md#deposits-at-any-distance: a deposit requested later is cancelled this many hours before the start when unpaid; 1 to 120, 48 by default */
  depositDeadlineHours: number;
  slotIntervalMinutes: 15 | 30 | 60;
  businessHours: BusinessHoursDay[];
  /** docs/rules/waitlist.md#offers */
  waitlistMode: 'FIRST_IN_LINE' | 'BROADCAST';
  /** 1 to 120 */
  waitlistHoldMinutes: number;
  /** docs/rules/series.md#booking-an-occurrence: how many days either way a standing appointment's occurrence may move; 0 to 7 */
  seriesToleranceDays: number;
  /** docs/rules/reminders.md#when-the-reminder-goes-out: 1 to 168, 24 by default */
  reminderHoursBefore: number;
  /** docs/rules/reminders.md#bookings-without-a-promise: 1 to 168, less than reminderHoursBefore; null: off (the default) */
  unpromisedFlagHoursBefore: number | null;
  /** docs/rules/personal-data.md#retention: months a customer is kept after their last visit or booking; 12 to 120, 36 by default */
  customerRetentionMonths: number;
  /** docs/rules/front-desk.md#the-salon-is-told: the owner's e-mail about bookings waiting for approval and customers' cancellations; true by default */
  notifyOwnerByEmail: boolean;
}

const INDUSTRY_DEFAULTS: Record<IndustryType, Pick<TenantSettings, 'autoConfirm' | 'cancellationHours'>> = {
  beauty: { autoConfirm: false, cancellationHours: 24 },
  nail: { autoConfirm: false, cancellationHours: 24 },
  barbershop: { autoConfirm: true, cancellationHours: 2 },
};

/** Monday to Friday 09:00-17:00, Saturday 10:00-15:00, Sunday closed. */
export function defaultBusinessHours(): BusinessHoursDay[] {
  return [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => {
    if (dayOfWeek === 0) return { dayOfWeek, isOpen: false, slots: [] };
    if (dayOfWeek === 6) return { dayOfWeek, isOpen: true, slots: [{ startTime: '10:00', endTime: '15:00' }] };
    return { dayOfWeek, isOpen: true, slots: [{ startTime: '09:00', endTime: '17:00' }] };
  });
}

export function defaultSettings(industry: IndustryType = 'beauty'): TenantSettings {
  return {
    organizationName: null,
    currency: 'NOK',
    timezone: 'Europe/Oslo',
    walkInEnabled: true,
    ...INDUSTRY_DEFAULTS[industry],
    bookingMode: 'allow_unassigned',
    allowDoubleBooking: false,
    maxBookingDaysInAdvance: 30,
    posEnabled: false,
    depositEnabled: false,
    depositType: 'percentage',
    depositValue: 0,
    depositDeadlineHours: 48,
    slotIntervalMinutes: 15,
    businessHours: defaultBusinessHours(),
    waitlistMode: 'FIRST_IN_LINE',
    waitlistHoldMinutes: 15,
    seriesToleranceDays: 2,
    reminderHoursBefore: 24,
    unpromisedFlagHoursBefore: null,
    customerRetentionMonths: 36,
    notifyOwnerByEmail: true,
  };
}

/** Settings a request may still name by their released names (docs/api/changelog.md: kept until 2027-06-01). */
export type SettingsInput = Partial<TenantSettings> & { /** @deprecated unpromisedFlagHoursBefore */ unconfirmedFlagHoursBefore?: number | null };

/** A request's settings in their current names: a released name counts when the current one is not given. */
export function settingsInCurrentNames(given: SettingsInput = {}): Partial<TenantSettings> {
  const { unconfirmedFlagHoursBefore, ...current } = given;
  if (current.unpromisedFlagHoursBefore === undefined && unconfirmedFlagHoursBefore !== undefined)
    current.unpromisedFlagHoursBefore = unconfirmedFlagHoursBefore;
  return current;
}

/** The settings as the API shows them: with the released names beside their current ones (docs/api/changelog.md: kept until 2027-06-01). */
export function settingsWithReleasedNames(settings: TenantSettings): TenantSettings & { unconfirmedFlagHoursBefore: number | null } {
  return { ...settings, unconfirmedFlagHoursBefore: settings.unpromisedFlagHoursBefore };
}

/** Defaults for the industry, overlaid with what was given; the result is complete. */
export function completeSettings(industry: IndustryType, given: SettingsInput = {}): TenantSettings {
  const defined = Object.fromEntries(Object.entries(settingsInCurrentNames(given)).filter(([, v]) => v !== undefined));
  return { ...defaultSettings(industry), ...defined } as TenantSettings;
}

export interface SettingsProblem {
  field: string;
  message: string;
}

/** Validates the rules a JSON schema cannot express (cross-field and time-zone checks). */
export function settingsProblems(settings: TenantSettings, isValidTimezone: (tz: string) => boolean): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  if (!isValidTimezone(settings.timezone)) problems.push({ field: 'settings.timezone', message: 'must be an IANA time zone name' });
  if (settings.depositType === 'percentage' && (settings.depositValue < 0 || settings.depositValue > 100)) {
    problems.push({ field: 'settings.depositValue', message: 'must be between 0 and 100 for a percentage deposit' });
  }
  if (settings.unpromisedFlagHoursBefore !== null && settings.unpromisedFlagHoursBefore >= settings.reminderHoursBefore) {
    // the customer is asked first: a flag before the reminder would flag everyone
    problems.push({ field: 'settings.unpromisedFlagHoursBefore', message: 'must be less than reminderHoursBefore (the reminder asks first)' });
  }
  problems.push(...businessHoursProblems(settings.businessHours, 'settings.businessHours'));
  return problems;
}

export function businessHoursProblems(days: BusinessHoursDay[], field: string): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  const seen = new Set<number>();
  days.forEach((day, i) => {
    if (seen.has(day.dayOfWeek)) problems.push({ field: `${field}[${i}].dayOfWeek`, message: 'each day may appear only once' });
    seen.add(day.dayOfWeek);
    problems.push(...slotProblems(day.slots, `${field}[${i}].slots`));
  });
  return problems;
}

/** Slots on one day: valid HH:mm, end after start, no overlaps. */
export function slotProblems(slots: TimeSlot[], field: string): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  slots.forEach((slot, i) => {
    if (!isValidLocalTime(slot.startTime) || !isValidLocalTime(slot.endTime)) {
      problems.push({ field: `${field}[${i}]`, message: 'times must be HH:mm' });
    } else if (timeToMinutes(slot.endTime) <= timeToMinutes(slot.startTime)) {
      problems.push({ field: `${field}[${i}].endTime`, message: 'must be after startTime' });
    }
  });
  const sorted = slots
    .filter((s) => isValidLocalTime(s.startTime) && isValidLocalTime(s.endTime))
    .map((s) => [timeToMinutes(s.startTime), timeToMinutes(s.endTime)] as const)
    .sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i][0] < sorted[i - 1][1]) {
      problems.push({ field, message: 'slots on one day must not overlap' });
      break;
    }
  }
  return problems;
}

/** The open intervals (minutes of the day) of one day of the week, merged. */
function openIntervals(days: BusinessHoursDay[], dayOfWeek: number): Interval[] {
  return mergeIntervals(
    days
      .filter((d) => d.dayOfWeek === dayOfWeek && d.isOpen)
      .flatMap((d) => d.slots.map((s) => ({ start: timeToMinutes(s.startTime), end: timeToMinutes(s.endTime) }))),
  );
}

/** Whether the salon's business hours open on a day of the week at all (docs/rules/salon.md#business-hours). */
export function isOpenDay(days: BusinessHoursDay[], dayOfWeek: number): boolean {
  return openIntervals(days, dayOfWeek).length > 0;
}

/**
 * Days of the week whose business hours gained time (opened, or open at a time they were closed).
 * The waitlist offers those days again (docs/rules/waitlist.md#when-time-frees-up).
 */
export function daysWithLongerHours(before: BusinessHoursDay[], after: BusinessHoursDay[]): number[] {
  return [0, 1, 2, 3, 4, 5, 6].filter((d) => {
    const was = openIntervals(before, d);
    return openIntervals(after, d).some((slot) => !was.some((w) => contains(w, slot)));
  });
}
