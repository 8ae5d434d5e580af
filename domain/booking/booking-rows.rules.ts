/**
 * The rows of a new booking (docs/rules/booking.md#fields): the booking at version 1, its items and
 * their segments, built from the planned and placed visit. Pure: the ids, the clock reading and the
 * manage token's hash come from the caller, which writes the rows in one statement
 * (booking-change.service.ts createBooking).
 */
import type { HeldPart } from '../availability/availability.types';
import { isBlockingStatus } from '../availability/working-hours.rules';
import type { TenantContext } from '../tenant/tenant-context';
import { languageOfLocale, type Language } from '../language/language.rules';
import type { BookingStatus } from './booking-status.rules';
import { RECORDED_AFTER_THE_FACT } from './booking-past.rules';
import { segmentRows, segmentsOfItem, spanOf, type PlannedItem } from './booking-plan.rules';
import type { NewItemRow, NewSegmentRow } from './booking.repository';
import type { BookingRow, BookingSource, ContactInput, ItemRow } from './booking.types';

/** Everything a new booking's rows are made of. */
export interface NewBooking {
  id: string;
  tenant: TenantContext;
  status: BookingStatus;
  source: BookingSource;
  planned: readonly PlannedItem[];
  /** each item's parts with the resource that holds it (the placement's answer) */
  parts: readonly HeldPart[][];
  customerId: string | null;
  /** the contact as given, its phone already in E.164 */
  contact?: ContactInput;
  contactPhone: string | null;
  isGuest: boolean;
  notes?: string | null;
  voucher: { appliedVoucherId: string; discountAmount: number } | null;
  manageTokenHash: string | null;
  recordedAfterTheFact?: boolean;
  customerAccountId?: string;
  language?: Language;
  createdBy: string | null;
  now: Date;
}

/** `paymentMode` of a new booking: online bookings of deposit tenants pay online; the salon's own bookings are IN_PERSON (docs/rules/payments.md#deposits). */
export function bookingPaymentMode(settings: { depositEnabled: boolean }, source: BookingSource): 'ONLINE' | 'IN_PERSON' {
  return settings.depositEnabled && source === 'ONLINE' ? 'ONLINE' : 'IN_PERSON';
}

/** The booking row at version 1. */
export function newBookingRow(b: NewBooking): BookingRow {
  const s = b.tenant.settings;
  const locale = (s as unknown as { locale?: string }).locale ?? 'nb-NO';
  const { start: startTime, end: endTime } = spanOf(b.planned);
  return {
    id: b.id,
    tenantId: b.tenant.id,
    customerId: b.customerId,
    resourceId: b.planned[0].resourceId,
    startTime,
    endTime,
    status: b.status,
    source: b.source,
    paymentMode: bookingPaymentMode(s, b.source),
    totalAmount: totalOf(b.planned),
    discountAmount: b.voucher?.discountAmount ?? 0,
    appliedVoucherId: b.voucher?.appliedVoucherId ?? null,
    cancellationFee: 0,
    depositStatus: null,
    processedForLoyalty: false,
    metadata: {
      displaySnapshot: { timezone: s.timezone, currency: s.currency, locale },
      ...(b.recordedAfterTheFact ? { [RECORDED_AFTER_THE_FACT]: true } : {}),
    },
    isGuest: b.isGuest,
    contactName: b.contact?.name?.trim() ?? null,
    contactPhone: b.contactPhone,
    contactEmail: b.contact?.email ? b.contact.email.trim().toLowerCase() : null,
    notes: b.notes ?? b.contact?.notes ?? null,
    version: 1,
    cancelReason: null,
    cancelledBy: null,
    cancelledAt: null,
    manageTokenHash: b.manageTokenHash,
    allowDoubleBooking: s.allowDoubleBooking,
    createdBy: b.createdBy,
    customerAccountId: b.customerAccountId ?? null,
    language: b.language ?? languageOfLocale(locale),
    calendarSequence: 0,
    promisedAt: null,
    promisedVia: null,
    unpromisedFlaggedAt: null,
    createdAt: b.now,
    updatedAt: b.now,
  };
}

/** What the visit costs before a voucher: the sum of its services' prices. */
export function totalOf(planned: readonly PlannedItem[]): number {
  return planned.reduce((sum, i) => sum + i.price, 0);
}

/** The items (as written and as the answer shows them) and their segments, each item with its id from `itemIds`. */
export function newItemRows(
  b: NewBooking,
  serviceNames: ReadonlyMap<string, string>,
  itemIds: readonly string[],
  newId: () => string,
): { items: NewItemRow[]; answer: ItemRow[]; segments: NewSegmentRow[] } {
  const flags = { isActive: isBlockingStatus(b.status), isExclusive: !b.tenant.settings.allowDoubleBooking };
  const segments = segmentRows({ tenantId: b.tenant.id, bookingId: b.id, itemIds, flags }, b.parts, newId);
  const answer: ItemRow[] = b.planned.map((i, index) => ({
    id: itemIds[index],
    bookingId: b.id,
    serviceId: i.serviceId,
    serviceName: serviceNames.get(i.serviceId)!,
    resourceId: i.resourceId,
    startTime: i.start,
    endTime: i.end,
    duration: i.duration,
    price: i.price,
    sortOrder: index,
    segments: segmentsOfItem(segments, itemIds[index]),
  }));
  const items = answer.map(({ serviceName: _name, segments: _segments, ...item }) => ({
    ...item,
    tenantId: b.tenant.id,
    ...flags,
    createdAt: b.now,
    updatedAt: b.now,
  }));
  return { items, answer, segments };
}
