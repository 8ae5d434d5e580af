// Availability, bookings and the public booking portal (docs/rules/booking.md, docs/rules/availability.md). Thin: validated input ->
// domain service -> envelope. openapi.yaml ("availability, bookings, public portal") validates input.
import { Router, type Request } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { rateLimiter } from '../middleware/rate-limit';
import { optionalCustomerOf, principalOf, tenantOf } from '../request-context';
import { cancelOwnBooking, getOwnBooking } from '../../domain/customer-account/customer-bookings.service';
import { sendCreated, sendData, sendPage } from '../envelope';
import { errors } from '../../domain/errors';
import { availabilityForDate, nextAvailableDate, type RequestedItem } from '../../domain/availability/availability.service';
import { tenantById } from '../../domain/tenant/tenant-context';
import { bookingActor } from '../../domain/booking/booking-actor';
import type { BookingDeps } from '../../domain/booking/booking.types';
import { nowOf } from '../../domain/time/clock';
import { assertAcceptingBookings } from '../../domain/booking/accepting-bookings.rules';
import { createPublicBooking, createStaffBooking, createWalkIn } from '../../domain/booking/booking-create.service';
import { auditLog, getBooking, getPublicBooking, listBookings, type ListQuery } from '../../domain/booking/booking-query.service';
import { updateBooking } from '../../domain/booking/booking-update.service';
import { changeStatus } from '../../domain/booking/booking-status.service';
import { cancelBooking, cancelPreview, cancelPublicBooking } from '../../domain/booking/booking-cancel.service';
import { selfPick } from '../../domain/booking/booking-self-pick.service';
import type { BookingStatus } from '../../domain/booking/booking-status.rules';
import {
  listPublicTenants,
  publicProfile,
  publicResources,
  publicServices,
  publicTenantBySlug,
} from '../../domain/public/public-portal.service';
import { NEXT_AVAILABLE_MAX_DAYS } from '../../domain/availability';

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

export function bookingsRouter(deps: AppDeps): Router {
  const router = Router();
  const knex = deps.knex;
  const bdeps: BookingDeps = { knex, signaller: deps.signaller, secret: deps.config.jwtSecret, now: deps.now, bookingHooks: deps.hooks.booking };
  const createLimit = rateLimiter(deps.config.rateLimit.bookingCreate, deps.config.rateLimit.windowMs, 'booking-create');
  const staffTenant = (req: Request) => tenantById(knex, tenantOf(req));
  const actorOf = (req: Request) => bookingActor(knex, principalOf(req));

  // ------------------------------------------------------------ staff side
  router.get('/availability', requireRole('STAFF'), async (req, res) => {
    const q = req.query as Query;
    const tenant = await staffTenant(req);
    sendData(res, await availabilityForDate(knex, tenant, { date: q.date!, items: itemsFromQuery(q), onlineOnly: false, now: nowOf(deps) }));
  });

  router.get('/bookings', requireRole('STAFF'), async (req, res) => {
    const q = req.query as unknown as ListQuery;
    const tenant = await staffTenant(req);
    sendPage(res, await listBookings(bdeps, tenant, await actorOf(req), { ...q, page: Number(q.page ?? 1), limit: Number(q.limit ?? 20) }));
  });

  router.post('/bookings', createLimit, requireRole('STAFF'), async (req, res) => {
    const tenant = await staffTenant(req);
    sendCreated(res, await createStaffBooking(bdeps, tenant, await actorOf(req), req.body));
  });

  router.post('/bookings/walk-in', createLimit, requireRole('STAFF'), async (req, res) => {
    const tenant = await staffTenant(req);
    sendCreated(res, await createWalkIn(bdeps, tenant, await actorOf(req), req.body));
  });

  router.get('/bookings/:id', requireRole('STAFF'), async (req, res) => {
    sendData(res, await getBooking(bdeps, tenantOf(req), await actorOf(req), String(req.params.id)));
  });

  router.patch('/bookings/:id', requireRole('STAFF'), async (req, res) => {
    const tenant = await staffTenant(req);
    sendData(res, await updateBooking(bdeps, tenant, await actorOf(req), String(req.params.id), req.body));
  });

  router.post('/bookings/:id/status/:status', requireRole('STAFF'), async (req, res) => {
    const tenant = await staffTenant(req);
    const body = (req.body ?? {}) as { force?: boolean; reason?: string };
    sendData(res, await changeStatus(bdeps, tenant, await actorOf(req), String(req.params.id), req.params.status as BookingStatus, body));
  });

  router.post('/bookings/:id/cancel', requireRole('STAFF'), async (req, res) => {
    const tenant = await staffTenant(req);
    sendData(res, await cancelBooking(bdeps, tenant, await actorOf(req), String(req.params.id), req.body ?? {}));
  });

  router.get('/bookings/:id/cancel-preview', requireRole('STAFF'), async (req, res) => {
    const tenant = await staffTenant(req);
    const bySalon = String((req.query as Query).bySalon ?? 'false') === 'true';
    sendData(res, await cancelPreview(bdeps, tenant, await actorOf(req), String(req.params.id), bySalon));
  });

  router.get('/bookings/:id/audit-log', requireRole('STAFF'), async (req, res) => {
    const q = req.query as Query;
    sendPage(res, await auditLog(bdeps, tenantOf(req), await actorOf(req), String(req.params.id), { page: Number(q.page ?? 1), limit: Number(q.limit ?? 20) }));
  });

  router.post('/bookings/:id/self-pick', requireRole('STAFF'), async (req, res) => {
    const tenant = await staffTenant(req);
    sendData(res, await selfPick(bdeps, tenant, await actorOf(req), String(req.params.id)));
  });

  // ------------------------------------------------------------ public portal (no auth)
  router.get('/public/tenants', async (req, res) => {
    const q = req.query as Query;
    sendPage(res, await listPublicTenants(knex, { search: q.search, page: Number(q.page ?? 1), limit: Number(q.limit ?? 20) }, nowOf(deps)));
  });

  router.get('/public/tenants/:slug', async (req, res) => {
    sendData(res, publicProfile(await publicTenantBySlug(knex, String(req.params.slug)), nowOf(deps)));
  });

  router.get('/public/tenants/:slug/services', async (req, res) => {
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    sendData(res, await publicServices(knex, tenant.id));
  });

  router.get('/public/tenants/:slug/resources', async (req, res) => {
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    sendData(res, await publicResources(knex, tenant.id, (req.query as Query).serviceId));
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

  router.post('/public/tenants/:slug/bookings', createLimit, async (req, res) => {
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    sendCreated(res, await createPublicBooking(bdeps, tenant, req.body, optionalCustomerOf(req)?.accountId));
  });

  router.get('/public/tenants/:slug/bookings/:id', async (req, res) => {
    const q = req.query as Query;
    const customer = optionalCustomerOf(req);
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    if (customer && !q.token && !q.phone) return sendData(res, await getOwnBooking(bdeps, tenant, customer.accountId, String(req.params.id)));
    sendData(res, await getPublicBooking(bdeps, tenant, String(req.params.id), { token: q.token, phone: q.phone }));
  });

  router.post('/public/tenants/:slug/bookings/:id/cancel', async (req, res) => {
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    const body = req.body as { token?: string; phone?: string; reason?: string };
    const customer = optionalCustomerOf(req);
    if (customer && !body.token && !body.phone) return sendData(res, await cancelOwnBooking(bdeps, tenant, customer.accountId, String(req.params.id), body.reason));
    if (!body.token && !body.phone) {
      throw errors.validation('Request validation failed', [{ field: 'token', message: 'give the cancellation token or the contact phone' }]);
    }
    sendData(res, await cancelPublicBooking(bdeps, tenant, String(req.params.id), body));
  });

  return router;
}
