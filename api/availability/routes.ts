// Free times (docs/rules/availability.md): the staff's view and the public portal's, and the next
// date with a free time. Thin: validated input -> domain service -> envelope. openapi.yaml validates input.
import { Router, type Request } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { tenantOf } from '../request-context';
import { sendData } from '../envelope';
import { errors } from '../../domain/errors';
import { availabilityForDate, nextAvailableDate, type RequestedItem } from '../../domain/availability/availability.service';
import { NEXT_AVAILABLE_MAX_DAYS } from '../../domain/availability';
import { tenantById } from '../../domain/tenant/tenant-context';
import { nowOf } from '../../domain/time/clock';
import { assertAcceptingBookings } from '../../domain/booking/accepting-bookings.rules';
import { publicTenantBySlug } from '../../domain/public/public-portal.service';

type Query = Record<string, string | undefined>;

/**
 * A list parameter under its one name (`serviceIds`), or under the name the contract released
 * (`serviceId`, deprecated: docs/api/changelog.md); when both are sent the one name counts.
 */
function listParam(q: Query, name: string, released: string): string | undefined {
  return q[name] ?? q[released];
}

/**
 * GET availability query: `serviceIds` = one service id or a comma list (a chain, performed in that
 * order); `resourceIds` = optional, one id for every item or a comma list aligned with serviceIds
 * where `any` (or an empty entry) means any qualified staff. `serviceId` and `resourceId` are their
 * released names.
 */
function itemsFromQuery(q: Query): RequestedItem[] {
  const serviceList = listParam(q, 'serviceIds', 'serviceId');
  if (serviceList === undefined) throw errors.validation('Request validation failed', [{ field: 'serviceIds', message: 'is required' }]);
  const resourceList = listParam(q, 'resourceIds', 'resourceId');
  const services = serviceList.split(',').map((s) => s.trim());
  const resources = resourceList === undefined ? [] : resourceList.split(',').map((s) => s.trim());
  if (resources.length > 1 && resources.length !== services.length) {
    throw errors.validation('Request validation failed', [{ field: 'resourceIds', message: 'give one resource id or one per service id' }]);
  }
  return services.map((serviceId, i) => {
    const r = resources.length === 1 ? resources[0] : resources[i];
    return { serviceId, resourceId: !r || r === 'any' ? null : r };
  });
}

export function availabilityRouter(deps: AppDeps): Router {
  const router = Router();
  const knex = deps.knex;
  const staffTenant = (req: Request) => tenantById(knex, tenantOf(req));

  router.get('/availability', requireRole('STAFF'), async (req, res) => {
    const q = req.query as Query;
    const tenant = await staffTenant(req);
    sendData(
      res,
      await availabilityForDate(knex, tenant, {
        date: q.date!,
        items: itemsFromQuery(q),
        onlineOnly: false,
        now: nowOf(deps),
        excludeBookingId: q.excludeBookingId,
      }),
    );
  });

  router.get('/public/tenants/:slug/availability', async (req, res) => {
    const q = req.query as Query;
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    assertAcceptingBookings(tenant, nowOf(deps));
    sendData(res, await availabilityForDate(knex, tenant, { date: q.date!, items: itemsFromQuery(q), onlineOnly: true, now: nowOf(deps) }));
  });

  router.post('/public/tenants/:slug/availability/next-available-date', async (req, res) => {
    const body = req.body as { items: RequestedItem[]; fromDate: string; maxDaysAhead?: number };
    if (body.maxDaysAhead !== undefined && body.maxDaysAhead > NEXT_AVAILABLE_MAX_DAYS) {
      throw errors.validation('Request validation failed', [{ field: 'maxDaysAhead', message: `must be at most ${NEXT_AVAILABLE_MAX_DAYS}` }]);
    }
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    assertAcceptingBookings(tenant, nowOf(deps));
    sendData(res, await nextAvailableDate(knex, tenant, { ...body, onlineOnly: true, now: nowOf(deps) }));
  });

  return router;
}
