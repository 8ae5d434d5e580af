// The salon's catalogue and bookable staff as the booking pages use them (the same domain reads as
// GET /public/tenants/:slug/services and /resources), and the deposit the salon takes online.
import type { AppDeps } from '../deps';
import type { BootServiceGroup, BootStaff, BootData } from '../../web/shared/boot';
import { publicResources, publicServices } from '../../domain/public/public-portal.service';
import type { PublicTenant } from '../../domain/public/public-portal.repository';
import { callingCodeOf, phoneRegionOf } from '../../domain/phone/phone.rules';
import { depositDeadlineHoursOf, DEPOSIT_REQUEST_LEAD_MS } from '../../domain/payments/deposit-timing.rules';

export interface Catalogue {
  services: BootServiceGroup[];
  staff: BootStaff[];
}

export async function catalogueOf(deps: AppDeps, tenant: PublicTenant): Promise<Catalogue> {
  const [groups, resources] = await Promise.all([publicServices(deps.knex, tenant.id), publicResources(deps.knex, tenant.id)]);
  return {
    services: groups.map((g) => ({
      category: g.category ? { id: g.category.id, name: g.category.name } : null,
      services: g.services.map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description ?? null,
        duration: s.duration,
        price: s.price,
        currency: s.currency,
      })),
    })),
    // rooms and equipment are never chosen by customers (docs/rules/catalogue.md#phases-buffers-and-rooms)
    staff: resources.filter((r) => r.type === 'staff').map((r) => ({ id: r.id, name: r.name, jobTitle: r.jobTitle, serviceIds: r.serviceIds })),
  };
}

/** The salon's booking rules the page needs (profile fields plus the online deposit). */
export function salonRules(tenant: PublicTenant): BootData['salon'] {
  const s = tenant.settings;
  return {
    name: tenant.name,
    timezone: s.timezone,
    currency: s.currency,
    locale: (s as { locale?: string }).locale ?? 'nb-NO',
    maxBookingDaysInAdvance: s.maxBookingDaysInAdvance,
    deposit:
      s.depositEnabled && s.depositValue > 0
        ? { type: s.depositType, value: s.depositValue, laterAfterMs: DEPOSIT_REQUEST_LEAD_MS, deadlineHours: depositDeadlineHoursOf(s) }
        : null,
    cancellationHours: s.cancellationHours,
    phoneCode: callingCodeOf(phoneRegionOf(tenant)),
  };
}
