/**
 * Public booking portal reads (docs/rules/booking.md#the-public-portal): salon search, profile, catalogue grouped by category,
 * staff per service. No auth; only public fields. Inactive salons are left out of the list.
 */
import type { Db } from '../../db/db-handle';
import { errors } from '../errors';
import { isAcceptingBookings } from '../booking/accepting-bookings.rules';
import type { ServiceDto } from '../catalogue/catalogue.dto';
import * as repo from './public-portal.repository';

/** The listed salons as of `now` (a trial that ended by then is not listed). */
export async function listPublicTenants(db: Db, q: { search?: string; page: number; limit: number }, now: Date) {
  return { ...(await repo.pageOfListedTenants(db, q, now)), page: q.page, limit: q.limit };
}

/** The salon's public profile as of `now` (whether it takes bookings depends on its subscription). */
export function publicProfile(tenant: repo.PublicTenant, now: Date) {
  const s = tenant.settings;
  return {
    id: tenant.id,
    name: tenant.name,
    slug: tenant.slug,
    industryType: tenant.industryType,
    description: tenant.description ?? null,
    address: (tenant.address as Record<string, unknown> | null) ?? null,
    contactPhone: tenant.contactPhone ?? null,
    contactEmail: tenant.contactEmail ?? null,
    branding: (tenant.branding as Record<string, unknown>) ?? {},
    acceptingBookings: isAcceptingBookings(tenant, now),
    settings: {
      currency: s.currency,
      timezone: s.timezone,
      bookingMode: s.bookingMode,
      autoConfirm: s.autoConfirm,
      cancellationHours: s.cancellationHours,
      // what the portal may offer: capped at 7 days while deposits are on (docs/rules/availability.md#booking-window)
      maxBookingDaysInAdvance: s.maxBookingDaysInAdvance,
      slotIntervalMinutes: s.slotIntervalMinutes ?? 15,
      businessHours: s.businessHours,
    },
  };
}

/** Unknown slug -> 404 TENANT_NOT_FOUND. Inactive salons are returned (profile shows acceptingBookings false). */
export async function publicTenantBySlug(db: Db, slug: string): Promise<repo.PublicTenant> {
  const row = await repo.findPublicTenant(db, slug);
  if (!row) throw errors.notFound('tenant');
  return row;
}

/** The public fields of a catalogue service. */
export type PublicServiceDto = Pick<ServiceDto, 'id' | 'name' | 'description' | 'duration' | 'price' | 'currency' | 'imageKey' | 'sortOrder'>;

/** Active services grouped by category (categories by sortOrder, then name; uncategorised last). */
export async function publicServices(db: Db, tenantId: string) {
  const [categories, services] = await Promise.all([repo.categoriesOf(db, tenantId), repo.activeServicesOf(db, tenantId)]);
  const strip = ({ categoryId: _c, ...rest }: repo.PublicServiceRow): PublicServiceDto => rest;
  const groups: { category: repo.PublicCategoryRow | null; services: PublicServiceDto[] }[] = categories
    .map((c) => ({ category: c, services: services.filter((s) => s.categoryId === c.id).map(strip) }))
    .filter((g) => g.services.length > 0);
  const loose = services.filter((s) => s.categoryId === null).map(strip);
  if (loose.length) groups.push({ category: null, services: loose });
  return groups;
}

/** Active, online-bookable resources; with serviceId only those with that skill (strict match). */
export async function publicResources(db: Db, tenantId: string, serviceId?: string) {
  if (serviceId && !(await repo.isActiveService(db, tenantId, serviceId))) throw errors.notFound('service');
  const rows = await repo.bookableResourcesOf(db, tenantId, serviceId);
  const skills = await repo.skillsOfResources(
    db,
    tenantId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    name: r.name,
    color: r.color,
    avatarKey: r.avatarKey,
    imageKey: r.imageKey,
    description: r.description,
    sortOrder: r.sortOrder,
    jobTitle: r.metadata?.jobTitle ?? null,
    serviceIds: skills.filter((s) => s.resourceId === r.id).map((s) => s.serviceId),
  }));
}
