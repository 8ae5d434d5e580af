// Tenants (docs/rules/salon.md#tenant): creation with an OWNER in one transaction, reads scoped to the caller's
// tenant (another tenant is TENANT_NOT_FOUND, never data), and partial updates merged onto the
// stored complete settings.
import { DEFAULT_PHONE_REGION, optionalPhone, phoneRegionOf } from '../phone/phone.rules';
import type { Db } from '../../db/db-handle';
import type { PageResult } from '../../db/paginate';
import { findUserById, insertUser, type UserRow } from '../users/user.repository';
import * as repo from './tenant.repository';
import { errors } from '../errors';
import { assertAcceptablePassword, hashPassword } from '../users/passwords';
import type { Role } from '../users/roles.rules';
import { seedTenantDefaults } from './tenant-defaults.service';
import { daysWithLongerHours } from './tenant-settings.rules';
import { completeSettings, settingsInCurrentNames, type IndustryType, type SettingsInput } from './tenant-settings.rules';
import { assertValidSettings, sanitizeDescription } from './tenant-validation';
import { syncUploadFields } from '../upload/upload-links';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import type { TenantHooks } from './tenant-hooks';

export interface Actor {
  userId: string;
  tenantId: string | null;
  role: Role;
}

export interface NewTenantInput {
  name: string;
  slug: string;
  industryType?: IndustryType;
  settings?: SettingsInput;
  owner: { email: string; password: string; name?: string; phone?: string };
  contactPhone?: string | null;
  contactEmail?: string | null;
}

const notFound = () => errors.notFound('tenant', 'Tenant not found');
const slugTaken = () => errors.conflict('TENANT_SLUG_EXISTS', 'This slug is already taken');

/**
 * Creates the tenant (settings completed with the industry defaults and validated), its OWNER, and
 * the per-tenant default rows (seedTenantDefaults), in one transaction (the caller's, when `db` is
 * one). A slug taken by a concurrent request is caught by the tenants_slug_unique constraint
 * (mapped in api/middleware/constraint-errors.ts).
 */
export async function createTenantWithOwner(
  db: Db,
  input: NewTenantInput,
  hashRounds: number,
  passwordField = 'owner.password',
): Promise<{ tenant: repo.TenantRow; owner: UserRow }> {
  const industryType = input.industryType ?? 'beauty';
  const settings = completeSettings(industryType, input.settings);
  assertValidSettings(settings);
  assertAcceptablePassword(input.owner.password, passwordField);
  // a new salon names no country yet: the owner's number is read in the default one (Norway)
  const ownerPhone = optionalPhone(input.owner.phone, DEFAULT_PHONE_REGION, 'phone');
  const passwordHash = await hashPassword(input.owner.password, hashRounds);
  return db.transaction(async (trx) => {
    if (await repo.findTenantBySlug(trx, input.slug)) throw slugTaken();
    const tenant = await repo.insertTenant(trx, { name: input.name, slug: input.slug, industryType, settings, branding: {}, ...contactChanges(input, {}) });
    const ownerId = await insertUser(trx, {
      tenantId: tenant.id,
      role: 'OWNER',
      email: input.owner.email,
      phone: ownerPhone,
      name: input.owner.name ?? null,
      passwordHash,
    });
    await seedTenantDefaults(trx, { id: tenant.id, industryType });
    return { tenant, owner: (await findUserById(trx, ownerId))! };
  });
}

export async function listTenants(db: Db, query: { page?: number; limit?: number; order?: 'asc' | 'desc' }): Promise<PageResult<repo.TenantRow>> {
  return repo.pageOfTenants(db, query.order ?? 'desc', query);
}

/** ADMIN reads any tenant; everyone else only their own (another id is a 404). */
export async function getTenant(db: Db, actor: Actor, id: string): Promise<repo.TenantRow> {
  if (actor.role !== 'ADMIN' && actor.tenantId !== id) throw notFound();
  const tenant = await repo.findTenant(db, id);
  if (!tenant) throw notFound();
  return tenant;
}

export async function getTenantBySlug(db: Db, slug: string): Promise<repo.TenantRow> {
  const tenant = await repo.findTenantBySlug(db, slug, true);
  if (!tenant) throw notFound();
  return tenant;
}

export interface TenantPatch {
  name?: string;
  slug?: string;
  industryType?: IndustryType;
  settings?: SettingsInput;
  branding?: Record<string, unknown>;
  description?: string | null;
  address?: Record<string, unknown> | null;
  /** how customers reach the salon: a number as typed (stored E.164) and an e-mail; null removes */
  contactPhone?: string | null;
  contactEmail?: string | null;
  applyToStaff?: boolean;
}

/** The salon's contact as stored (docs/rules/salon.md#tenant): E.164 read in the salon's country, a lower-case e-mail. */
function contactChanges(patch: Pick<TenantPatch, 'contactPhone' | 'contactEmail'>, salon: { address?: unknown }): repo.TenantChanges {
  const changes: repo.TenantChanges = {};
  if (patch.contactPhone !== undefined) changes.contactPhone = optionalPhone(patch.contactPhone, phoneRegionOf(salon), 'contactPhone');
  if (patch.contactEmail !== undefined) changes.contactEmail = patch.contactEmail === null ? null : patch.contactEmail.trim().toLowerCase();
  return changes;
}

/**
 * Partial update. `settings` is merged onto the stored settings and re-validated as a whole;
 * `branding` is merged; `address` replaces. Changing `industryType` does not reset settings (they
 * are stored complete). The row is locked so concurrent merges do not lose each other's fields.
 */
export async function updateTenant(
  db: Db,
  signaller: EntitySignaller,
  hooks: TenantHooks,
  actor: Actor,
  id: string,
  patch: TenantPatch,
  now: Date,
): Promise<repo.TenantRow> {
  if (actor.role !== 'ADMIN' && actor.tenantId !== id) throw notFound();
  if (patch.slug !== undefined && actor.role !== 'ADMIN') throw errors.forbidden('Only a platform admin may change the slug');
  return db.transaction(async (trx) => {
    const tenant = await repo.findTenant(trx, id, true);
    if (!tenant) throw notFound();
    const changes: repo.TenantChanges = {};
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.industryType !== undefined) changes.industryType = patch.industryType;
    if (patch.slug !== undefined && patch.slug !== tenant.slug) {
      if (await repo.findTenantBySlug(trx, patch.slug)) throw slugTaken();
      changes.slug = patch.slug;
    }
    let settings = tenant.settings;
    if (patch.settings !== undefined) {
      settings = completeSettings(patch.industryType ?? tenant.industryType, { ...settings, ...settingsInCurrentNames(patch.settings) });
      assertValidSettings(settings);
      changes.settings = settings;
    }
    if (patch.branding !== undefined) changes.branding = { ...(tenant.branding ?? {}), ...patch.branding };
    if (changes.branding) await syncUploadFields(trx, signaller, id, 'tenant', id, tenant.branding, changes.branding);
    if (patch.description !== undefined) changes.description = sanitizeDescription(patch.description);
    if (patch.address !== undefined) changes.address = patch.address;
    Object.assign(changes, contactChanges(patch, { address: changes.address !== undefined ? changes.address : tenant.address }));
    const updated = Object.keys(changes).length ? await repo.patchTenant(trx, id, changes) : tenant;
    if (patch.applyToStaff) await hooks.applyBusinessHoursToStaff(trx, id, settings.businessHours);
    const longer = daysWithLongerHours(tenant.settings.businessHours, settings.businessHours);
    // longer business hours may give everyone working time the waitlist can offer (docs/rules/waitlist.md#when-time-frees-up)
    if (longer.length) await hooks.workingTimeGrew(signaller, trx, { tenantId: id, resourceId: null, cause: 'HOURS_CHANGED', weekdays: longer }, now);
    // a wider booking window lets the standing appointments book further ahead now (docs/rules/series.md#its-workflow)
    if (settings.maxBookingDaysInAdvance > tenant.settings.maxBookingDaysInAdvance) await hooks.bookingWindowGrew(signaller, trx, id);
    return updated;
  });
}
