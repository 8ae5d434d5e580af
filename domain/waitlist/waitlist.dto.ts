// Waitlist rows to the API's shapes (openapi.yaml: WaitlistEntry, WaitlistOffer).
import { toIso } from '../time/iso';
import type { AccountEntryRow, EntryRow, OfferRow } from './waitlist.repository';

export interface WaitlistEntryDto {
  id: string;
  status: string;
  source: string;
  serviceIds: string[];
  resourceId: string | null;
  fromDate: string;
  toDate: string;
  earliestTime: string | null;
  latestTime: string | null;
  customer: { name: string; phone: string; email: string | null };
  bookingId: string | null;
  createdAt: string;
  updatedAt: string;
}

export function entryDto(e: EntryRow): WaitlistEntryDto {
  return {
    id: e.id,
    status: e.status,
    source: e.source,
    serviceIds: e.serviceIds,
    resourceId: e.resourceId,
    fromDate: e.fromDate,
    toDate: e.toDate,
    earliestTime: e.earliestTime,
    latestTime: e.latestTime,
    customer: { name: e.contactName, phone: e.contactPhone, email: e.contactEmail },
    bookingId: e.bookingId,
    createdAt: toIso(e.createdAt),
    updatedAt: toIso(e.updatedAt),
  };
}

export function accountEntryDto(e: AccountEntryRow): WaitlistEntryDto & { tenant: { name: string; slug: string } } {
  return { ...entryDto(e), tenant: { name: e.tenantName, slug: e.tenantSlug } };
}

export interface WaitlistOfferDto {
  id: string;
  entryId: string;
  status: string;
  startTime: string;
  endTime: string;
  expiresAt: string;
  items: { serviceId: string; resourceId: string; startTime: string; endTime: string }[];
  bookingId: string | null;
}

export function offerDto(o: OfferRow): WaitlistOfferDto {
  return {
    id: o.id,
    entryId: o.entryId,
    status: o.status,
    startTime: toIso(o.startTime),
    endTime: toIso(o.endTime),
    expiresAt: toIso(o.expiresAt),
    items: o.items,
    bookingId: o.bookingId,
  };
}
