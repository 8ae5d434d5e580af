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
 * GET availability query: `serviceId` = one service id or a comma list (a chain, performed in that
 * order); `resourceId` = optional, one id for every item or a comma list aligned with serviceId
 * where `any` (or an empty entry) means any qualified staff.
 */
function itemsFromQuery(q: Query): RequestedItem[] {
  const services = (q.serviceId ?? '').split(',').map((s) => s.trim());
  const resources = q.resourceId === undefined ? [] : q.resourceId.split(',').map((s) => s.trim());
  if (resources.length > 1 && resources.length !== services.length) {
    throw errors.validation('Request validation failed', [{ field: 'resourceId', message: 'give one resourceId or one per serviceId' }]);
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
