/**
 * Public booking portal reads (spec 4.7): salon search, profile, catalogue grouped by category,
 * staff per service. No auth; only public fields. Inactive salons are left out of the list.
 */
import type { Knex } from 'knex';
import { errors } from '../errors';
import { likePattern } from '../customer/customer.rules';
import { isAcceptingBookings } from '../booking/accepting-bookings.rules';
import type { TenantContext } from '../tenant/tenant-context';
import type { ServiceDto } from '../catalogue/catalogue.dto';

/**
 * Filter hook for the public salon list: billing will add "lapsed subscription" here (spec 4.7:
 * lapsed-subscription salons are left out). Today it only hides inactive salons.
 */
export function excludeNonListedTenants(query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query.where('isActive', true);
}

export interface PublicTenantSummary {
  id: string;
  name: string;
  slug: string;
  industryType: string;
  description: string | null;
  address: Record<string, unknown> | null;
  branding: Record<string, unknown>;
}

export async function listPublicTenants(knex: Knex, q: { search?: string; page: number; limit: number }) {
  const base = excludeNonListedTenants(knex('tenants'));
  if (q.search && q.search.trim()) {
    const pattern = likePattern(q.search.trim().toLowerCase());
    base.where((w) => w.whereRaw('lower(name) LIKE ?', [pattern]).orWhereRaw('slug LIKE ?', [pattern]));
  }
  const [{ count }] = await base.clone().count({ count: '*' });
  const rows = await base
    .select('id', 'name', 'slug', 'industryType', 'description', 'address', 'branding')
    .orderBy([{ column: 'name' }, { column: 'id' }])
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  return { rows: rows as PublicTenantSummary[], total: Number(count), page: q.page, limit: q.limit };
}

export function publicProfile(tenant: TenantContext & { industryType?: string; description?: string | null; address?: unknown; branding?: unknown }) {
  const s = tenant.settings;
  return {
    id: tenant.id,
    name: tenant.name,
    slug: tenant.slug,
    industryType: tenant.industryType,
    description: tenant.description ?? null,
    address: (tenant.address as Record<string, unknown> | null) ?? null,
    branding: (tenant.branding as Record<string, unknown>) ?? {},
    acceptingBookings: isAcceptingBookings(tenant),
    settings: {
      currency: s.currency,
      timezone: s.timezone,
      bookingMode: s.bookingMode,
      autoConfirm: s.autoConfirm,
      cancellationHours: s.cancellationHours,
      maxBookingDaysInAdvance: s.maxBookingDaysInAdvance,
      slotIntervalMinutes: s.slotIntervalMinutes ?? 15,
      businessHours: s.businessHours,
    },
  };
}

/** Unknown slug -> 404 TENANT_NOT_FOUND. Inactive salons are returned (profile shows acceptingBookings false). */
export async function publicTenantBySlug(knex: Knex, slug: string) {
  const row = await knex('tenants')
    .select('id', 'slug', 'name', 'isActive', 'settings', 'industryType', 'description', 'address', 'branding')
    .where({ slug })
    .first();
  if (!row) throw errors.notFound('tenant');
  return row as TenantContext & { industryType: string; description: string | null; address: unknown; branding: unknown };
}

/** The public fields of a catalogue service. */
export type PublicServiceDto = Pick<ServiceDto, 'id' | 'name' | 'description' | 'duration' | 'price' | 'currency' | 'imageKey' | 'sortOrder'>;

/** Active services grouped by category (categories by sortOrder, then name; uncategorised last). */
export async function publicServices(knex: Knex, tenantId: string) {
  const [categories, services] = await Promise.all([
    knex('serviceCategories').select('id', 'name', 'sortOrder').where({ tenantId }).orderBy([{ column: 'sortOrder' }, { column: 'name' }, { column: 'id' }]),
    knex('services')
      .select('id', 'name', 'description', 'duration', 'price', 'currency', 'imageKey', 'sortOrder', 'categoryId')
      .where({ tenantId, isActive: true })
      .orderBy([{ column: 'sortOrder' }, { column: 'name' }, { column: 'id' }]),
  ]);
  const strip = ({ categoryId: _c, ...rest }: PublicServiceDto & { categoryId: string | null }): PublicServiceDto => rest;
  const groups: { category: { id: string; name: string; sortOrder: number } | null; services: PublicServiceDto[] }[] = categories
    .map((c: { id: string; name: string; sortOrder: number }) => ({
      category: c,
      services: services.filter((s: { categoryId: string | null }) => s.categoryId === c.id).map(strip),
    }))
    .filter((g: { services: unknown[] }) => g.services.length > 0);
  const loose = services.filter((s: { categoryId: string | null }) => s.categoryId === null).map(strip);
  if (loose.length) groups.push({ category: null, services: loose });
  return groups;
}

/** Active, online-bookable resources; with serviceId only those with that skill (strict match). */
export async function publicResources(knex: Knex, tenantId: string, serviceId?: string) {
  if (serviceId) {
    const svc = await knex('services').select('id').where({ tenantId, id: serviceId, isActive: true }).first();
    if (!svc) throw errors.notFound('service');
  }
  const q = knex('resources')
    .select('id', 'type', 'name', 'color', 'avatarKey', 'imageKey', 'description', 'sortOrder', 'metadata')
    .where({ tenantId, isActive: true, isBookableOnline: true })
    .orderBy([{ column: 'sortOrder' }, { column: 'name' }, { column: 'id' }]);
  if (serviceId) q.whereIn('id', knex('resourceSkills').select('resourceId').where({ tenantId, serviceId }));
  const rows = await q;
  const skills = rows.length
    ? await knex('resourceSkills').select('resourceId', 'serviceId').where({ tenantId }).whereIn('resourceId', rows.map((r: { id: string }) => r.id))
    : [];
  return rows.map((r: { id: string; type: string; name: string; color: string | null; avatarKey: string | null; imageKey: string | null; description: string | null; sortOrder: number; metadata: { jobTitle?: string | null } }) => ({
    id: r.id,
    type: r.type,
    name: r.name,
    color: r.color,
    avatarKey: r.avatarKey,
    imageKey: r.imageKey,
    description: r.description,
    sortOrder: r.sortOrder,
    jobTitle: r.metadata?.jobTitle ?? null,
    serviceIds: skills.filter((s: { resourceId: string }) => s.resourceId === r.id).map((s: { serviceId: string }) => s.serviceId),
  }));
}
