/**
 * THE scheduling engine (docs/rules/availability.md#the-parts-of-a-visit): pure functions over UTC
 * intervals that lay a visit (one or more services, back to back for the customer) out in time,
 * part by part, and decide which staff member and which rooms or equipment can hold every part at a
 * given start. Slots (slots.rules.ts), the next available date, the booking's placement
 * (domain/booking/booking-placement.service.ts) and the waitlist's offers and holds all come through here.
 *
 *   const capacity = capacityOf(resources, fromDate, tz, businessHours, { days })   // working and free time
 *   const candidates = candidatesFor(resources, services, onlineOnly)                // who may hold which part
 *   const fit = fitVisitAt(capacity, services, candidates, start)  // null, or staff and rooms for every part
 *   const plan = planVisit(services); fitPlanAt(capacity, plan, candidates, t)    // many starts, laid out once
 *
 * A service's parts (catalogue/service-shape.rules.ts), from its customer-visible start t:
 * - the staff member: the buffer before [t - before, t), each phase in order, the buffer after; they
 *   must WORK (schedule, business hours, time-off) over the whole of it, and be FREE of other
 *   bookings in every part that blocks: work phases and buffers. A processing phase blocks nothing,
 *   so a staff member may be offered to another client inside it.
 * - each room or piece of equipment it needs: the phases named, or the whole service with its
 *   buffers; any one suitable resource (that type, the service among its skills, active) free over
 *   all of them.
 * Within one visit a staff member's buffer between two of its services may overlap their next
 * service (the visit's own parts never clash; the database's constraint says the same).
 */
import { oneWorkPhase, type RequirementType, type ServiceShape } from '../catalogue/service-shape.rules';
import { fitsWithin, mergeIntervals, type Interval } from '../time/interval.rules';
import { addDays, type LocalDate } from '../time/salon-time.rules';
import { resourceDayTime } from './working-hours.rules';
import type { BusinessHoursDay, HeldPart, ResourceAvailabilityData, ResourceType, SegmentKind, VisitPart } from './availability.types';

const MINUTE_MS = 60_000;

/** Whether a part of this kind on this type of resource holds it against other bookings. */
export function partBlocks(resourceType: ResourceType, kind: SegmentKind): boolean {
  return resourceType !== 'staff' || kind !== 'PROCESSING';
}

/** The parts of one service starting (for the customer) at `start`, and where it ends for them. */
export function layOutService(shape: ServiceShape, itemIndex: number, start: number): { parts: VisitPart[]; end: number } {
  const phases: { kind: SegmentKind; phaseIndex: number | null; start: number; end: number }[] = [];
  if (shape.bufferBeforeMinutes > 0) phases.push({ kind: 'BUFFER_BEFORE', phaseIndex: null, start: start - shape.bufferBeforeMinutes * MINUTE_MS, end: start });
  let cursor = start;
  shape.phases.forEach((p, phaseIndex) => {
    phases.push({ kind: p.kind, phaseIndex, start: cursor, end: (cursor += p.minutes * MINUTE_MS) });
  });
  const end = cursor;
  if (shape.bufferAfterMinutes > 0) phases.push({ kind: 'BUFFER_AFTER', phaseIndex: null, start: end, end: end + shape.bufferAfterMinutes * MINUTE_MS });
  const parts: VisitPart[] = phases.map((p) => ({ itemIndex, resourceType: 'staff', requirementIndex: null, ...p, blocks: partBlocks('staff', p.kind) }));
  shape.requirements.forEach((r, requirementIndex) => {
    for (const p of phases) {
      if (r.phases === null || (p.phaseIndex !== null && r.phases.includes(p.phaseIndex))) {
        parts.push({ itemIndex, resourceType: r.resourceType, requirementIndex, ...p, blocks: true });
      }
    }
  });
  return { parts, end };
}

/** One service of a visit: what it is, who is asked for, and (optionally) when it starts. */
export interface VisitService {
  serviceId: string;
  shape: ServiceShape;
  /** the chosen staff member; null = any qualified one */
  resourceId: string | null;
  /** epoch ms; unset: when the previous service ends (the first: at the visit's start) */
  start?: number;
}

export interface ItemLayout {
  serviceId: string;
  start: number;
  /** the customer-visible end (buffers excluded) */
  end: number;
  parts: VisitPart[];
}

/** Every service of a visit laid out from `start`, back to back unless a service has its own start. */
export function layOutVisit(services: readonly VisitService[], start: number): ItemLayout[] {
  let cursor = start;
  return services.map((svc, i) => {
    const at = svc.start ?? cursor;
    const { parts, end } = layOutService(svc.shape, i, at);
    cursor = end;
    return { serviceId: svc.serviceId, start: at, end, parts };
  });
}

/** The staff member's time in an item: the whole span they must work, and the parts they must be free in. */
export function staffTimeOf(parts: readonly VisitPart[]): { span: Interval; blocks: Interval[]; work: Interval[] } {
  const staff = parts.filter((p) => p.resourceType === 'staff');
  return {
    span: { start: Math.min(...staff.map((p) => p.start)), end: Math.max(...staff.map((p) => p.end)) },
    blocks: mergeIntervals(staff.filter((p) => p.blocks)),
    work: mergeIntervals(staff.filter((p) => p.kind === 'WORK')),
  };
}

/** The time one requirement of an item holds its room or piece of equipment, merged. */
export function requirementTimeOf(parts: readonly VisitPart[], requirementIndex: number): Interval[] {
  return mergeIntervals(parts.filter((p) => p.requirementIndex === requirementIndex));
}

// ---------------------------------------------------------------- capacity

/** A resource's working and free time over the days a computation covers (normalized intervals). */
export interface ResourceTime {
  working: Interval[];
  free: Interval[];
}

export interface Capacity {
  resources: readonly ResourceAvailabilityData[];
  /** working and free time of one of `resources`, computed once */
  timeOf(resource: ResourceAvailabilityData): ResourceTime;
}

/**
 * The working and free time of `resources` over `days` salon-local dates from `fromDate`, each
 * computed on first use. `ignoreBookings` (allowDoubleBooking): free time is working time.
 * `excludeBookingId`: that booking's own time counts as free (it is being moved).
 */
export function capacityOf(
  resources: readonly ResourceAvailabilityData[],
  fromDate: LocalDate,
  timezone: string,
  businessHours: readonly BusinessHoursDay[],
  opts: { days: number; ignoreBookings?: boolean; excludeBookingId?: string },
): Capacity {
  const cache = new Map<string, ResourceTime>();
  return {
    resources,
    timeOf(resource) {
      let time = cache.get(resource.id);
      if (!time) {
        const t = resourceDayTime(resource, fromDate, timezone, businessHours, opts);
        cache.set(resource.id, (time = { working: t.working, free: t.free }));
      }
      return time;
    },
  };
}

/** The dates a capacity must cover for visits starting on `date`: the day before for buffers before midnight, and as many after as the longest visit reaches. */
export function capacityDays(date: LocalDate, visitMinutes: number, bufferBeforeMinutes: number): { fromDate: LocalDate; days: number } {
  const before = bufferBeforeMinutes > 0 ? 1 : 0;
  return { fromDate: addDays(date, -before), days: before + 1 + Math.ceil(visitMinutes / 1440) };
}

// ---------------------------------------------------------------- who may hold the parts

/**
 * Strict skill match (docs/rules/catalogue.md#skills): a staff member, active, with the service among
 * their skills, and, when `onlineOnly` (public portal), bookable online.
 */
export function isQualified(resource: ResourceAvailabilityData, serviceId: string, onlineOnly = false): boolean {
  return resource.type === 'staff' && resource.isActive && resource.skills.includes(serviceId) && (!onlineOnly || resource.isBookableOnline);
}

/** A room or piece of equipment suitable for a service's requirement: that type, active, the service among its skills (online or not: customers do not choose it). */
export function isSuitable(resource: ResourceAvailabilityData, serviceId: string, resourceType: RequirementType): boolean {
  return resource.type === resourceType && resource.isActive && resource.skills.includes(serviceId);
}

/** Resources that may perform a service, in input order (use it for the public staff list, too). */
export function qualifiedResources(resources: readonly ResourceAvailabilityData[], serviceId: string, onlineOnly = false): ResourceAvailabilityData[] {
  return resources.filter((r) => isQualified(r, serviceId, onlineOnly));
}

/** Each service's candidates among `resources` (in their order): the chosen staff member or every qualified one, and the suitable rooms or equipment. */
export function candidatesFor(resources: readonly ResourceAvailabilityData[], services: readonly VisitService[], onlineOnly = false): ItemCandidates[] {
  return services.map((svc) => ({
    staff: resources.filter((r) => (svc.resourceId === null || r.id === svc.resourceId) && isQualified(r, svc.serviceId, onlineOnly)),
    requirements: svc.shape.requirements.map((req) => ({
      resourceType: req.resourceType,
      resources: resources.filter((r) => isSuitable(r, svc.serviceId, req.resourceType)),
    })),
  }));
}

/** True when every service has a candidate staff member and a candidate for each requirement. */
export function everyPartHasCandidates(candidates: readonly ItemCandidates[]): boolean {
  return candidates.every((c) => c.staff.length > 0 && c.requirements.every((r) => r.resources.length > 0));
}

// ---------------------------------------------------------------- fitting a visit

/** Who may hold the parts of one item: its staff candidates and, per requirement, its suitable rooms or equipment, in preference order. */
export interface ItemCandidates {
  staff: readonly ResourceAvailabilityData[];
  requirements: readonly { resourceType: RequirementType; resources: readonly ResourceAvailabilityData[] }[];
}

/** Which resources could hold one item at a start, and the suggestion. */
export interface ItemFit {
  serviceId: string;
  start: number;
  end: number;
  /** the suggested staff member (the previous item's when free, else the first free) */
  resourceId: string;
  /** every candidate staff member free for the item, in candidate order */
  freeResourceIds: string[];
  requirements: { resourceType: RequirementType; resourceId: string; freeResourceIds: string[] }[];
  /** every part with its suggested resource */
  parts: HeldPart[];
}

/** Is the staff member working over the item's span and free in each part that blocks (each moved by `at` ms)? */
export function staffFits(capacity: Capacity, staff: ResourceAvailabilityData, time: { span: Interval; blocks: readonly Interval[] }, at = 0): boolean {
  const t = capacity.timeOf(staff);
  if (!fitsWithin(t.working, time.span.start + at, time.span.end + at)) return false;
  for (const b of time.blocks) if (!fitsWithin(t.free, b.start + at, b.end + at)) return false;
  return true;
}

/** Is the room or piece of equipment free over every interval (each moved by `at` ms)? */
export function resourceFree(capacity: Capacity, resource: ResourceAvailabilityData, intervals: readonly Interval[], at = 0): boolean {
  const free = capacity.timeOf(resource).free;
  for (const i of intervals) if (!fitsWithin(free, i.start + at, i.end + at)) return false;
  return true;
}

/** Why no room or piece of equipment could be chosen: none is suitable, none is open then, or every open one is taken. */
export type ChoiceProblem = 'NONE_SUITABLE' | 'NOT_OPEN' | 'TAKEN';

/**
 * The room or piece of equipment to hold `intervals`: the first of `prefer` that is free then, else
 * the first free candidate (candidates in preference order, e.g. sort order). `taken` is time the
 * same visit already holds elsewhere in it. Answers the problem when there is none.
 */
export function chooseResource(
  capacity: Capacity,
  candidates: readonly ResourceAvailabilityData[],
  intervals: readonly Interval[],
  prefer: readonly string[],
  taken: readonly { resourceId: string; intervals: readonly Interval[] }[] = [],
): { resourceId: string } | { problem: ChoiceProblem } {
  if (candidates.length === 0) return { problem: 'NONE_SUITABLE' };
  const open = candidates.filter((r) => intervals.every((i) => fitsWithin(capacity.timeOf(r).working, i.start, i.end)));
  if (open.length === 0) return { problem: 'NOT_OPEN' };
  const clashes = (r: ResourceAvailabilityData) =>
    taken.some((t) => t.resourceId === r.id && t.intervals.some((a) => intervals.some((b) => a.start < b.end && a.end > b.start)));
  const free = open.filter((r) => resourceFree(capacity, r, intervals) && !clashes(r)).map((r) => r.id);
  if (free.length === 0) return { problem: 'TAKEN' };
  return { resourceId: prefer.find((id) => free.includes(id)) ?? free[0] };
}

/** `preferred` when it is among `ids`, else the first of them. */
const suggest = (ids: readonly string[], preferred: string | null | undefined): string => (preferred && ids.includes(preferred) ? preferred : ids[0]);

/** The candidates (in their order) who work over the staff time and are free in its blocking parts, each moved by `at` ms. */
function freeStaffIds(
  capacity: Capacity,
  candidates: readonly ResourceAvailabilityData[],
  time: { span: Interval; blocks: readonly Interval[] },
  at: number,
): string[] {
  const free: string[] = [];
  for (const s of candidates) if (staffFits(capacity, s, time, at)) free.push(s.id);
  return free;
}

/**
 * A visit laid out once, relative to its start: each item's parts and the intervals to check (the
 * staff member's span and blocking parts, each requirement's time), as offsets in ms. Fitting it at
 * a start adds the start to them, so a day of candidate starts lays the visit out once
 * (planVisit), not once per start.
 */
export interface VisitPlan {
  items: {
    serviceId: string;
    start: number;
    end: number;
    parts: VisitPart[];
    staff: { span: Interval; blocks: Interval[] };
    requirements: Interval[][];
  }[];
}

/** The plan of a visit of back-to-back services (an item's own `start`, when set, is taken relative to `origin`). */
export function planVisit(services: readonly VisitService[], origin = 0): VisitPlan {
  return {
    items: layOutVisit(services, origin).map((item, i) => {
      const staff = staffTimeOf(item.parts);
      return {
        serviceId: item.serviceId,
        start: item.start - origin,
        end: item.end - origin,
        parts: item.parts.map((p) => ({ ...p, start: p.start - origin, end: p.end - origin })),
        staff: { span: shift(staff.span, -origin), blocks: staff.blocks.map((b) => shift(b, -origin)) },
        requirements: services[i].shape.requirements.map((_, j) => requirementTimeOf(item.parts, j).map((r) => shift(r, -origin))),
      };
    }),
  };
}

const shift = (i: Interval, by: number): Interval => ({ start: i.start + by, end: i.end + by });

/**
 * Can one item of a plan run at `at` (its visit's start) with its candidates? Null when no
 * candidate staff member, or no suitable room or piece of equipment for one of its requirements,
 * can hold its parts. `prefer` keeps the previous item's staff member and rooms when they are free.
 */
function fitPlannedItem(
  capacity: Capacity,
  item: VisitPlan['items'][number],
  candidates: ItemCandidates,
  at: number,
  prefer: { staff?: string | null; rooms?: ReadonlyMap<RequirementType, string> },
): ItemFit | null {
  const freeStaff = freeStaffIds(capacity, candidates.staff, item.staff, at);
  if (freeStaff.length === 0) return null;
  const requirements: ItemFit['requirements'] = [];
  for (const [j, req] of candidates.requirements.entries()) {
    const free: string[] = [];
    for (const r of req.resources) if (resourceFree(capacity, r, item.requirements[j], at)) free.push(r.id);
    if (free.length === 0) return null;
    requirements.push({ resourceType: req.resourceType, resourceId: suggest(free, prefer.rooms?.get(req.resourceType)), freeResourceIds: free });
  }
  const resourceId = suggest(freeStaff, prefer.staff);
  let parts: HeldPart[] | undefined;
  return {
    serviceId: item.serviceId,
    start: item.start + at,
    end: item.end + at,
    resourceId,
    freeResourceIds: freeStaff,
    requirements,
    // made when asked for (the waitlist's hold): a day of slots mostly never asks
    get parts() {
      parts ??= item.parts.map((p) => ({
        ...p,
        start: p.start + at,
        end: p.end + at,
        resourceId: p.requirementIndex === null ? resourceId : requirements[p.requirementIndex].resourceId,
      }));
      return parts;
    },
  };
}

/**
 * Can a planned visit start at `start`? Every item needs a staff member and its rooms or
 * equipment; null when one cannot be had. The suggestion keeps one staff member, and one room of a
 * type, across items where they are free.
 */
export function fitPlanAt(capacity: Capacity, plan: VisitPlan, candidates: readonly ItemCandidates[], start: number): ItemFit[] | null {
  const fits: ItemFit[] = [];
  let staff: string | null = null;
  const rooms = new Map<RequirementType, string>();
  for (let i = 0; i < plan.items.length; i++) {
    const fit = fitPlannedItem(capacity, plan.items[i], candidates[i], start, { staff, rooms });
    if (!fit) return null;
    fits.push(fit);
    staff = fit.resourceId;
    for (const r of fit.requirements) rooms.set(r.resourceType, r.resourceId);
  }
  return fits;
}

/**
 * Can the whole visit start at `start`? Every item (back to back unless it has its own start) needs
 * a staff member and its rooms or equipment; null when one cannot be had (fitPlanAt, laid out once
 * for this start). The entry point for "can these services start at t with this staff member, and
 * which rooms": pass the services with `resourceId` set.
 */
export function fitVisitAt(capacity: Capacity, services: readonly VisitService[], candidates: readonly ItemCandidates[], start: number): ItemFit[] | null {
  return fitPlanAt(capacity, planVisit(services, start), candidates, start);
}

/**
 * Who takes each "anyone" item of a visit at a salon that assigns every booking
 * (docs/rules/availability.md#unassigned-bookings): the staff member the slots offer at that start,
 * by the same choice as fitPlanAt (the previous item's staff member when free, else the first free
 * qualified one in the resources' order), so a booking made from a slot gets the person the slot
 * showed, whichever page or client made it. An item with its staff member keeps it; null where no
 * qualified staff member is free.
 */
export function staffForAnyone(
  capacity: Capacity,
  resources: readonly ResourceAvailabilityData[],
  items: readonly { serviceId: string; resourceId: string | null; parts: readonly VisitPart[] }[],
  onlineOnly: boolean,
): (string | null)[] {
  let previous: string | null = null;
  return items.map((item) => {
    if (item.resourceId !== null) return (previous = item.resourceId);
    const free = freeStaffIds(capacity, qualifiedResources(resources, item.serviceId, onlineOnly), staffTimeOf(item.parts), 0);
    return (previous = free.length ? suggest(free, previous) : null);
  });
}

/** The minutes a visit spans for the customer, and the longest buffers around it (to size a capacity). */
export function visitExtent(services: readonly VisitService[]): { minutes: number; bufferBefore: number; bufferAfter: number } {
  let minutes = 0;
  let bufferBefore = 0;
  let bufferAfter = 0;
  for (const s of services) {
    minutes += s.shape.phases.reduce((sum, p) => sum + p.minutes, 0);
    bufferBefore = Math.max(bufferBefore, s.shape.bufferBeforeMinutes);
    bufferAfter = Math.max(bufferAfter, s.shape.bufferAfterMinutes);
  }
  return { minutes, bufferBefore, bufferAfter };
}

/** The shape of an availability item: its own, or one work phase of its duration. */
export function shapeOfItem(item: { durationMinutes: number; shape?: ServiceShape }): ServiceShape {
  return item.shape ?? oneWorkPhase(item.durationMinutes);
}
