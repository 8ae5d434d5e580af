/**
 * Input and output types of the availability rules. These mirror the database rows the booking
 * service loads (docs/rules/availability.md, docs/rules/catalogue.md); times of day are salon-local 'HH:mm', booking times are
 * UTC instants. See ./index.ts for how to call the rules.
 */
import type { LocalDate, LocalTime } from '../time/salon-time.rules';
import type { RequirementType, ServiceShape } from '../catalogue/service-shape.rules';

/** What a resource is (docs/rules/catalogue.md#resources): staff perform services; rooms and equipment are needed by them. */
export type ResourceType = 'staff' | RequirementType;

/** The part of a service a segment of time is (docs/rules/booking.md#the-parts-of-a-booking). */
export type SegmentKind = 'BUFFER_BEFORE' | 'WORK' | 'PROCESSING' | 'BUFFER_AFTER';

/** One part of a visit's time on one resource (visit.rules.ts lays them out). */
export interface VisitPart {
  itemIndex: number;
  resourceType: ResourceType;
  /** the requirement of the item's service it fills (rooms and equipment); null: the staff member */
  requirementIndex: number | null;
  kind: SegmentKind;
  /** the service's phase, 0-based; null for a buffer */
  phaseIndex: number | null;
  start: number;
  end: number;
  /** holds its resource against other bookings; false only for the staff member's processing phase */
  blocks: boolean;
}

/** A part with the resource that holds it (null: an unassigned item's staff member). */
export interface HeldPart extends VisitPart {
  resourceId: string | null;
}

/** Booking states (docs/rules/booking.md#statuses). Kept here as a string union so availability does not depend on booking. */
export type BookingStatusValue = 'PENDING' | 'CONFIRMED' | 'ARRIVED' | 'IN_PROGRESS' | 'COMPLETED' | 'CANCELLED' | 'NO_SHOW';

/** Statuses that do NOT occupy a resource (docs/rules/availability.md#overlap). Every other status blocks. */
export const NON_BLOCKING_BOOKING_STATUSES: readonly BookingStatusValue[] = ['CANCELLED', 'NO_SHOW'];

export interface TimeSlot {
  startTime: LocalTime;
  /** 'HH:mm'; '24:00' allowed for end of day. A slot with end <= start is ignored (no overnight slots). */
  endTime: LocalTime;
}

/** One entry of tenant `settings.businessHours` (docs/rules/salon.md#business-hours). A day without an entry is CLOSED. */
export interface BusinessHoursDay {
  /** 0 = Sunday ... 6 = Saturday */
  dayOfWeek: number;
  isOpen: boolean;
  slots: TimeSlot[];
}

/** ResourceSchedule row: weekly recurring, several rows per day allowed (docs/rules/catalogue.md#schedules-and-overrides). */
export interface WeeklyScheduleSlot {
  dayOfWeek: number;
  startTime: LocalTime;
  endTime: LocalTime;
  isActive: boolean;
}

/** ResourceScheduleOverride row. Null start or end time = day off (docs/rules/catalogue.md#schedules-and-overrides). */
export interface ScheduleOverride {
  date: LocalDate;
  startTime: LocalTime | null;
  endTime: LocalTime | null;
}

/** TimeOff row (docs/rules/catalogue.md#time-off). Only `isApproved` entries are applied. */
export interface TimeOffEntry {
  startDate: LocalDate;
  endDate: LocalDate;
  /** null (with endTime null) = full day. See working-hours.rules.ts for partial multi-day rules. */
  startTime: LocalTime | null;
  endTime: LocalTime | null;
  isApproved: boolean;
}

/**
 * A time range in which this resource is occupied by a booking: one part of it that blocks the
 * resource (docs/rules/booking.md#the-parts-of-a-booking) - a staff member's work phase or buffer,
 * a room's phase - or a waitlist hold; never the whole booking.
 */
export interface ExistingBooking {
  /** Booking id; used to exclude the booking being updated in the placement check. */
  id?: string;
  start: Date;
  end: Date;
  status: BookingStatusValue;
}

export interface ResourceAvailabilityData {
  id: string;
  type: ResourceType;
  isActive: boolean;
  isBookableOnline: boolean;
  /** service ids this resource can perform, or (a room, equipment) is suitable for: ResourceSkill rows */
  skills: readonly string[];
  weeklySchedule: readonly WeeklyScheduleSlot[];
  overrides: readonly ScheduleOverride[];
  timeOff: readonly TimeOffEntry[];
  bookings: readonly ExistingBooking[];
}

export interface AvailabilityItem {
  serviceId: string;
  /** Service duration in minutes (positive integer): the customer-visible length, the phases' sum. */
  durationMinutes: number;
  /** Chosen resource; omit (or null) for "any qualified resource". */
  resourceId?: string | null;
  /** The service's phases, buffers and rooms; unset: one work phase of durationMinutes. */
  shape?: ServiceShape;
}

export type SlotIntervalMinutes = 15 | 30 | 60;
export const DEFAULT_SLOT_INTERVAL_MINUTES: SlotIntervalMinutes = 15;

export interface AvailabilityInput {
  /** IANA name from tenant settings.timezone */
  timezone: string;
  /** The current instant, passed in (never read from the clock inside the rules). */
  now: Date;
  /** Salon-local date to compute slots for. */
  date: LocalDate;
  businessHours: readonly BusinessHoursDay[];
  /**
   * settings.maxBookingDaysInAdvance (1..365). Counted in salon-local calendar days from the local
   * date of `now`: date <= today + N is allowed, later dates are rejected. null = no limit (e.g. an
   * internal tool that must see far ahead); the availability API enforces it.
   */
  maxBookingDaysInAdvance: number | null;
  /** 15, 30 or 60; default 15. */
  slotIntervalMinutes?: SlotIntervalMinutes;
  /** One item = one service; several items are performed back to back in this order. */
  items: readonly AvailabilityItem[];
  resources: readonly ResourceAvailabilityData[];
  /**
   * true for the public portal: only resources with isBookableOnline are candidates.
   * Default false (admin/staff availability).
   */
  onlineOnly?: boolean;
  /**
   * settings.allowDoubleBooking. When true, existing bookings do not remove free time (schedule,
   * business hours, overrides and time-off still apply). Default false. The booking service may
   * pass false on the public portal even when the setting is on, to keep customers from stacking.
   */
  allowDoubleBooking?: boolean;
  /** A booking being moved (docs/rules/booking.md#moving-a-booking): its own time counts as free. */
  excludeBookingId?: string;
}

/** Where one item of a slot would run and who could do it. */
export interface SlotItemAssignment {
  serviceId: string;
  /** the customer-visible start and end (buffers excluded) */
  start: Date;
  end: Date;
  /** Suggested resource (the chosen one, else the previous item's resource if free, else the first free in input order). */
  resourceId: string;
  /** Every qualified resource free for this item's parts (input order); includes resourceId. */
  freeResourceIds: string[];
  /** Per requirement of the service: the suggested room or piece of equipment and every suitable free one. */
  requirements: { resourceType: RequirementType; resourceId: string; freeResourceIds: string[] }[];
  /** Every part of the item (buffers, phases, rooms) with its suggested resource. */
  parts: HeldPart[];
}

export interface AvailableSlot {
  /** UTC start of the first item. */
  start: Date;
  /** UTC end of the last item. */
  end: Date;
  /** Salon-local 'HH:mm' of `start` (display convenience). */
  localTime: LocalTime;
  items: SlotItemAssignment[];
}

export type AvailabilityErrorCode = 'INVALID_TIMEZONE' | 'INVALID_DATE' | 'INVALID_SLOT_INTERVAL' | 'INVALID_ITEMS' | 'DATE_BEYOND_BOOKING_WINDOW';

export interface AvailabilityError {
  code: AvailabilityErrorCode;
  message: string;
  /** For DATE_BEYOND_BOOKING_WINDOW: the last bookable local date. */
  lastBookableDate?: LocalDate;
}

export type AvailabilityResult =
  /** working: some staff member who does the services works on the date (schedule, opening hours, no time off); false: the day is closed for this request */
  { ok: true; date: LocalDate; timezone: string; slots: AvailableSlot[]; working: boolean } | { ok: false; error: AvailabilityError };
