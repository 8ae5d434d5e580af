/** What a guest sees of a booking on the public portal (openapi PublicBooking). */
import type { TenantContext } from '../tenant/tenant-context';
import type { BookingStatus } from './booking-status.rules';
import { freeCancellationUntil, type BookingDto } from './booking.dto';
import type { Db } from '../../db/db-handle';
import { resourceNames } from '../resource/resource.repository';

export interface PublicBookingDto {
  id: string;
  status: BookingStatus;
  startTime: string;
  endTime: string;
  totalAmount: number;
  currency: string;
  displaySnapshot: { timezone: string; currency: string; locale: string };
  customerName: string | null;
  freeCancellationUntil: string;
  /** when the customer promised to come (docs/rules/reminders.md#promising-to-come) */
  promisedAt: string | null;
  /** @deprecated released name of promisedAt (docs/api/changelog.md: kept until 2027-06-01) */
  confirmedAt: string | null;
  items: {
    serviceId: string;
    serviceName: string;
    resourceId: string | null;
    resourceName: string | null;
    startTime: string;
    endTime: string;
    price: number;
  }[];
  /** on the booking's own read: the deposit's state (SCHEDULED, REQUESTED, PENDING, AUTHORIZED, PAID, REFUNDED...) and what was paid online */
  depositStatus?: string | null;
  paidAmount?: number;
}

/** `known`: resource names the caller already has (else they are read). */
export async function publicDto(db: Db, tenant: TenantContext, b: BookingDto, known?: Map<string, string>): Promise<PublicBookingDto> {
  const resourceIds = b.items.map((i) => i.resourceId).filter((x): x is string => !!x);
  const names = known ?? (await resourceNames(db, resourceIds));
  return {
    id: b.id,
    status: b.status,
    startTime: b.startTime,
    endTime: b.endTime,
    totalAmount: b.totalAmount,
    currency: b.metadata.displaySnapshot.currency,
    displaySnapshot: b.metadata.displaySnapshot,
    customerName: b.contact?.name ?? null,
    freeCancellationUntil: freeCancellationUntil(b.startTime, tenant.settings.cancellationHours),
    promisedAt: b.promisedAt,
    confirmedAt: b.promisedAt,
    items: b.items.map((i) => ({
      serviceId: i.serviceId,
      serviceName: i.serviceName,
      resourceId: i.resourceId,
      resourceName: i.resourceId ? (names.get(i.resourceId) ?? null) : null,
      startTime: i.startTime,
      endTime: i.endTime,
      price: i.price,
    })),
  };
}
