// The salon a request acts in, as every module reads it: id, slug, name, whether it is active, and
// its settings. Loaded once per request and passed down, so services do not re-read the tenant.
import type { Db } from '../../db/db-handle';
import { errors } from '../errors';
import type { TenantSettings } from './tenant-settings.rules';
import { phoneRegionOf, type PhoneRegion } from '../phone/phone.rules';
import { findTenant, findTenantIdByHost } from './tenant.repository';

export interface TenantContext {
  id: string;
  slug: string;
  name: string;
  isActive: boolean;
  settings: TenantSettings;
  /** the billing read-model (docs/rules/billing.md#subscriptions): decides whether the salon takes bookings */
  subscriptionStatus?: string | null;
  trialEndsAt?: Date | null;
  billingExempt?: boolean;
  /** when the salon launched: listed and bookable online from then on; null: not yet (docs/rules/salon.md#launch) */
  launchedAt: Date | string | null;
  /** how customers reach the salon (docs/rules/salon.md#tenant): E.164, and an e-mail address */
  contactPhone?: string | null;
  contactEmail?: string | null;
  /** the salon's address (its `country` is where numbers typed without a country code are read) */
  address?: unknown;
}

/** 404 TENANT_NOT_FOUND when there is no such tenant. */
export async function tenantById(db: Db, tenantId: string): Promise<TenantContext> {
  const row = await findTenant(db, tenantId);
  if (!row) throw errors.notFound('tenant');
  return row;
}

/** The salon's country for phone numbers typed without a country code (domain/phone/phone.rules.ts). */
export async function salonPhoneRegion(db: Db, tenantId: string): Promise<PhoneRegion> {
  return phoneRegionOf(await findTenant(db, tenantId));
}

/** Tenant resolution by host (docs/rules/auth.md#tenant-resolution): `<slug>.<platform domain>` or a custom domain; undefined when none matches. */
export async function tenantIdByHost(db: Db, host: { slug: string } | { customDomain: string }): Promise<string | undefined> {
  return findTenantIdByHost(db, host);
}

/** The active salon behind a host (CORS origins, on-demand TLS); undefined for none or an inactive one. */
export async function activeTenantIdByHost(db: Db, host: { slug: string } | { customDomain: string }): Promise<string | undefined> {
  return findTenantIdByHost(db, host, true);
}
