// The tenant as the API shows it: full (authenticated) and public (by slug, no private settings).
import { settingsWithReleasedNames, type TenantSettings } from './tenant-settings.rules';
import type { TenantRow } from './tenant.repository';
import { toIso, toIsoOrNull } from '../time/iso';

/** What everyone may see of a salon: its identity and presentation. */
function profileOf(t: TenantRow) {
  return {
    id: t.id,
    name: t.name,
    slug: t.slug,
    industryType: t.industryType,
    branding: t.branding ?? {},
    description: t.description ?? null,
    address: t.address ?? null,
    contactPhone: t.contactPhone ?? null,
    contactEmail: t.contactEmail ?? null,
  };
}

export function toTenantDto(t: TenantRow) {
  return {
    ...profileOf(t),
    settings: settingsWithReleasedNames(t.settings),
    customDomain: t.customDomain ?? null,
    isActive: t.isActive,
    onboardedAt: toIsoOrNull(t.onboardedAt),
    launchedAt: toIsoOrNull(t.launchedAt),
    subscriptionStatus: t.subscriptionStatus ?? null,
    trialEndsAt: toIsoOrNull(t.trialEndsAt),
    billingExempt: t.billingExempt,
    createdAt: toIso(t.createdAt),
    updatedAt: toIso(t.updatedAt),
  };
}

/** Only what the public booking portal needs; nothing about POS, walk-ins, double booking, etc. */
export function publicSettings(s: TenantSettings) {
  return {
    currency: s.currency,
    timezone: s.timezone,
    bookingMode: s.bookingMode,
    cancellationHours: s.cancellationHours,
    maxBookingDaysInAdvance: s.maxBookingDaysInAdvance,
    slotIntervalMinutes: s.slotIntervalMinutes,
    depositEnabled: s.depositEnabled,
    depositType: s.depositType,
    depositValue: s.depositValue,
    businessHours: s.businessHours,
  };
}

export function toTenantPublicDto(t: TenantRow) {
  return {
    ...profileOf(t),
    settings: publicSettings(t.settings),
  };
}
