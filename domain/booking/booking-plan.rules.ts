/**
 * A visit planned part by part (docs/rules/booking.md#the-parts-of-a-booking), before it is placed:
 * new items from the request (planItems) or a booking's own items (plannedFromItems, for a move or
 * a re-activated status), and the booking_segments rows of a placed visit (segmentRows). Pure: the
 * placement (booking-placement.service.ts) places what these plan, the services write what they
 * return.
 *
 *   const planned = planItems(services, items, start);
 *   const placed = await placeVisit(trx, tenant, planned, { mode, onlineOnly, allowDoubleBooking });
 *   const rows = segmentRows({ tenantId, bookingId, itemIds, flags }, placed.parts, crypto.randomUUID);
 */
import { requireApiDateTime } from '../time/iso';
import { layOutService, partBlocks } from '../availability/visit.rules';
import type { HeldPart, ResourceType, SegmentKind, VisitPart } from '../availability/availability.types';
import type { ServiceInfo } from '../availability/availability.service';
import type { RequirementType } from '../catalogue/service-shape.rules';
import type { NewSegmentRow } from './booking.repository';
import type { ItemInput, ItemRow, SegmentRow } from './booking.types';

export interface PlannedItem {
  serviceId: string;
  /** the staff member; null = unassigned (any qualified one) */
  resourceId: string | null;
  /** the customer-visible start and end (buffers excluded) */
  start: Date;
  end: Date;
  duration: number;
  price: number;
  /** every part of the item's time, resources not yet chosen (visit.rules.ts layOutService) */
  parts: VisitPart[];
  /** the rooms or equipment the item holds now, by type: a move keeps them where they are free */
  heldRooms?: ReadonlyMap<RequirementType, string>;
}

/** New items from the request: each starts at its startTime or where the previous one ends; laid out by its service's shape. */
export function planItems(services: Map<string, ServiceInfo>, items: readonly ItemInput[], start: Date): PlannedItem[] {
  let cursor = start.getTime();
  return items.map((item, index) => {
    const svc = services.get(item.serviceId)!;
    const s = item.startTime ? requireApiDateTime(item.startTime, `items.${index}.startTime`).getTime() : cursor;
    const laid = layOutService(svc.shape, index, s);
    cursor = laid.end;
    return {
      serviceId: item.serviceId,
      resourceId: item.resourceId ?? null,
      start: new Date(s),
      end: new Date(laid.end),
      duration: svc.duration,
      price: svc.price,
      parts: laid.parts,
    };
  });
}

/** An item's stored segments as the parts it was booked with (an item without segments is one work phase). */
function partsOfItem(item: ItemRow, itemIndex: number, shiftMs: number): { parts: VisitPart[]; heldRooms: Map<RequirementType, string> } {
  const heldRooms = new Map<RequirementType, string>();
  if (!item.segments.length) {
    const whole = { start: new Date(item.startTime).getTime() + shiftMs, end: new Date(item.endTime).getTime() + shiftMs };
    return { parts: [{ itemIndex, resourceType: 'staff', requirementIndex: null, kind: 'WORK', phaseIndex: 0, ...whole, blocks: true }], heldRooms };
  }
  const roomTypes: RequirementType[] = [];
  const parts = item.segments.map((g): VisitPart => {
    let requirementIndex: number | null = null;
    if (g.resourceType !== 'staff') {
      const type = g.resourceType;
      if (!roomTypes.includes(type)) roomTypes.push(type);
      requirementIndex = roomTypes.indexOf(type);
      if (g.resourceId) heldRooms.set(type, g.resourceId);
    }
    const start = new Date(g.startTime).getTime() + shiftMs;
    const end = new Date(g.endTime).getTime() + shiftMs;
    return {
      itemIndex,
      resourceType: g.resourceType,
      requirementIndex,
      kind: g.kind,
      phaseIndex: g.phaseIndex,
      start,
      end,
      blocks: partBlocks(g.resourceType, g.kind),
    };
  });
  return { parts, heldRooms };
}

/** A booking's own items as planned ones, optionally shifted by `shiftMs` and/or given a staff member: the parts it was booked with, not its services' current shape. */
export function plannedFromItems(
  items: readonly ItemRow[],
  change: { shiftMs?: number; resourceId?: (item: ItemRow) => string | null } = {},
): (PlannedItem & { id: string })[] {
  const shift = change.shiftMs ?? 0;
  return [...items]
    .sort((a, b) => a.sortOrder - b.sortOrder)
    .map((i, index) => ({
      id: i.id,
      serviceId: i.serviceId,
      resourceId: change.resourceId ? change.resourceId(i) : i.resourceId,
      start: new Date(new Date(i.startTime).getTime() + shift),
      end: new Date(new Date(i.endTime).getTime() + shift),
      duration: i.duration,
      price: i.price,
      ...partsOfItem(i, index, shift),
    }));
}

/** First start and last end of the items (customer-visible). */
export function spanOf(items: readonly { start: Date; end: Date }[]): { start: Date; end: Date } {
  return {
    start: new Date(Math.min(...items.map((i) => i.start.getTime()))),
    end: new Date(Math.max(...items.map((i) => i.end.getTime()))),
  };
}

/** Whether a visit's placement chose rooms or equipment (a race for them is retried: another one may be free). */
export function choosesRooms(items: readonly PlannedItem[]): boolean {
  return items.some((i) => i.parts.some((p) => p.requirementIndex !== null));
}

/** Whose rows the segments are (a booking's items, or a waitlist round's hold), and the denormalised flags. */
export type SegmentOwner = { tenantId: string; flags: { isActive: boolean; isExclusive: boolean } } & (
  { bookingId: string; /** the id of each item, by item index */ itemIds: readonly string[] } | { waitlistRoundId: string }
);

/** The booking_segments rows of a placed visit: one per part, each with an id from `newId`. */
export function segmentRows(owner: SegmentOwner, parts: readonly HeldPart[][], newId: () => string): NewSegmentRow[] {
  const booking = 'bookingId' in owner ? owner : null;
  return parts.flat().map((p) => ({
    id: newId(),
    tenantId: owner.tenantId,
    bookingId: booking?.bookingId ?? null,
    bookingItemId: booking?.itemIds[p.itemIndex] ?? null,
    waitlistRoundId: 'waitlistRoundId' in owner ? owner.waitlistRoundId : null,
    resourceType: p.resourceType,
    resourceId: p.resourceId,
    kind: p.kind,
    phaseIndex: p.phaseIndex,
    startTime: new Date(p.start),
    endTime: new Date(p.end),
    ...owner.flags,
  }));
}

/** The rows of one item as the booking module reads them back (SegmentRow), for the new booking's answer. */
export function segmentsOfItem(rows: readonly NewSegmentRow[], itemId: string): SegmentRow[] {
  return rows
    .filter((g) => g.bookingItemId === itemId)
    .map((g) => ({
      bookingItemId: itemId,
      kind: g.kind as SegmentKind,
      phaseIndex: g.phaseIndex,
      resourceType: g.resourceType as ResourceType,
      resourceId: g.resourceId,
      startTime: g.startTime,
      endTime: g.endTime,
    }));
}
