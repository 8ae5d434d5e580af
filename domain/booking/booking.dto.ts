/** The staff-side booking DTO (openapi BookingsBooking) and its mapping from database rows. */
import type { BookingFields, BookingItemFields, BookingRow, ItemRow, SegmentRow } from './booking.types';
import { toIso } from '../time/iso';
import { allowedTransitions, type BookingStatus } from './booking-status.rules';
import { waitingFor, type WaitingFor } from './booking-waiting.rules';

/** One part of an item's time: which staff member, room or piece of equipment holds it, and when. */
export interface BookingSegmentDto extends Omit<SegmentRow, 'bookingItemId' | 'startTime' | 'endTime'> {
  startTime: string;
  endTime: string;
}

export interface BookingItemDto extends BookingItemFields {
  startTime: string;
  endTime: string;
  segments: BookingSegmentDto[];
}

export interface BookingDto extends BookingFields {
  /** on GET /bookings/:id: minor units paid online and not refunded (BookingHooks.paidAmount) */
  paidAmount?: number;
  startTime: string;
  endTime: string;
  contact: { name: string | null; phone: string | null; email: string | null } | null;
  cancelledAt: string | null;
  promisedAt: string | null;
  promisedVia: 'LINK' | 'SMS' | 'STAFF' | null;
  unpromisedFlaggedAt: string | null;
  /** @deprecated released name of promisedAt (docs/api/changelog.md: kept until 2027-06-01) */
  confirmedAt: string | null;
  /** @deprecated released name of promisedVia */
  confirmedVia: 'LINK' | 'SMS' | 'STAFF' | null;
  /** @deprecated released name of unpromisedFlaggedAt */
  unconfirmedFlaggedAt: string | null;
  tenantTimezone: string;
  items: BookingItemDto[];
  createdAt: string;
  updatedAt: string;
  /** docs/rules/front-desk.md#a-bookings-card: what the status machine allows next, and what a PENDING booking waits for */
  nextStatuses: BookingStatus[];
  waitingFor: WaitingFor;
}

const TYPE_ORDER = { staff: 0, room: 1, equipment: 2 } as const;
/** Segments in time order, the staff member's before a room's at one instant. */
const segmentOrder = (a: SegmentRow, b: SegmentRow) =>
  new Date(a.startTime).getTime() - new Date(b.startTime).getTime() ||
  TYPE_ORDER[a.resourceType] - TYPE_ORDER[b.resourceType] ||
  new Date(a.endTime).getTime() - new Date(b.endTime).getTime();

const isoOrNull = (d: Date | null): string | null => (d ? toIso(d) : null);

/** End of the free cancellation window: `cancellationHours` before the start. */
export function freeCancellationUntil(start: Date | string, cancellationHours: number): string {
  return new Date(new Date(start).getTime() - cancellationHours * 3_600_000).toISOString();
}

/** The booking with its items (`items` may hold other bookings' items: they are left out). */
export function toDto(b: BookingRow, items: ItemRow[]): BookingDto {
  const hasContact = b.contactName !== null || b.contactPhone !== null || b.contactEmail !== null;
  return {
    id: b.id,
    tenantId: b.tenantId,
    customerId: b.customerId,
    resourceId: b.resourceId,
    startTime: toIso(b.startTime),
    endTime: toIso(b.endTime),
    status: b.status,
    source: b.source,
    paymentMode: b.paymentMode,
    totalAmount: b.totalAmount,
    discountAmount: b.discountAmount,
    appliedVoucherId: b.appliedVoucherId,
    cancellationFee: b.cancellationFee,
    depositStatus: b.depositStatus,
    processedForLoyalty: b.processedForLoyalty,
    metadata: b.metadata,
    isGuest: b.isGuest,
    contact: hasContact ? { name: b.contactName, phone: b.contactPhone, email: b.contactEmail } : null,
    notes: b.notes,
    version: b.version,
    cancelReason: b.cancelReason,
    cancelledBy: b.cancelledBy,
    cancelledAt: isoOrNull(b.cancelledAt),
    promisedAt: isoOrNull(b.promisedAt),
    promisedVia: b.promisedVia,
    unpromisedFlaggedAt: isoOrNull(b.unpromisedFlaggedAt),
    // released names (docs/api/changelog.md: kept until 2027-06-01)
    confirmedAt: isoOrNull(b.promisedAt),
    confirmedVia: b.promisedVia,
    unconfirmedFlaggedAt: isoOrNull(b.unpromisedFlaggedAt),
    createdBy: b.createdBy,
    tenantTimezone: b.metadata?.displaySnapshot?.timezone,
    items: items
      .filter((i) => i.bookingId === b.id)
      .sort((x, y) => x.sortOrder - y.sortOrder)
      .map((i) => ({
        id: i.id,
        serviceId: i.serviceId,
        serviceName: i.serviceName,
        resourceId: i.resourceId,
        startTime: toIso(i.startTime),
        endTime: toIso(i.endTime),
        duration: i.duration,
        price: i.price,
        segments: [...i.segments].sort(segmentOrder).map((g) => ({
          kind: g.kind,
          phaseIndex: g.phaseIndex,
          resourceType: g.resourceType,
          resourceId: g.resourceId,
          startTime: toIso(g.startTime),
          endTime: toIso(g.endTime),
        })),
      })),
    createdAt: toIso(b.createdAt),
    updatedAt: toIso(b.updatedAt),
    nextStatuses: allowedTransitions(b.status),
    waitingFor: waitingFor(b),
  };
}
