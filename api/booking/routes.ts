// Bookings, staff side and public (docs/rules/booking.md). Thin: validated input -> domain service ->
// envelope. openapi.yaml validates input.
import { Router, type Request } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { rateLimiter } from '../middleware/rate-limit';
import { optionalCustomerOf, principalOf, tenantOf } from '../request-context';
import { cancelOwnBooking, getOwnBooking } from '../../domain/customer-account/customer-bookings.service';
import { sendCreated, sendData, sendPage } from '../envelope';
import { errors } from '../../domain/errors';
import { tenantById } from '../../domain/tenant/tenant-context';
import { bookingActor } from '../../domain/booking/booking-access.service';
import type { BookingDeps } from '../../domain/booking/booking.types';
import { createPublicBooking, createStaffBooking, createWalkIn } from '../../domain/booking/booking-create.service';
import { auditLog, getBooking, getPublicBooking, listBookings, type ListQuery } from '../../domain/booking/booking-query.service';
import { updateBooking } from '../../domain/booking/booking-update.service';
import { moveForCustomer } from '../../domain/booking/booking-move.service';
import { changeStatus } from '../../domain/booking/booking-status.service';
import { cancelBooking, cancelPreview, cancelPublicBooking } from '../../domain/booking/booking-cancel.service';
import { selfPick } from '../../domain/booking/booking-self-pick.service';
import { recordBookingPromise, recordPublicBookingPromise } from '../../domain/booking/booking-promise.service';
import { daySchedule } from '../../domain/booking/booking-schedule.service';
import type { BookingStatus } from '../../domain/booking/booking-status.rules';
import { publicTenantBySlug } from '../../domain/public/public-portal.service';

type Query = Record<string, string | undefined>;

export function bookingRouter(deps: AppDeps): Router {
  const router = Router();
  const knex = deps.knex;
  const bdeps: BookingDeps = { knex, signaller: deps.signaller, manageLinkKey: deps.config.keys.manageLink, now: deps.now, bookingHooks: deps.hooks.booking };
  const createLimit = rateLimiter(deps.config.rateLimit.bookingCreate, deps.config.rateLimit.windowMs, 'booking-create');
  const staffTenant = (req: Request) => tenantById(knex, tenantOf(req));
  const actorOf = (req: Request) => bookingActor(knex, principalOf(req));

  // ------------------------------------------------------------ staff side
  router.get('/bookings', requireRole('STAFF'), async (req, res) => {
    const q = req.query as unknown as ListQuery;
    const tenant = await staffTenant(req);
    sendPage(res, await listBookings(bdeps, tenant, await actorOf(req), { ...q, page: Number(q.page ?? 1), limit: Number(q.limit ?? 20) }));
  });

  router.get('/schedule', requireRole('STAFF'), async (req, res) => {
    const tenant = await staffTenant(req);
    sendData(res, await daySchedule(knex, tenant, await actorOf(req), String((req.query as Query).date)));
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

  router.post('/bookings/:id/promise', requireRole('STAFF'), async (req, res) => {
    const tenant = await staffTenant(req);
    sendData(res, await recordBookingPromise(bdeps, tenant, await actorOf(req), String(req.params.id)));
  });

  // the released route of the same (docs/api/changelog.md: kept until 2027-06-01), with its released error code
  router.post('/bookings/:id/confirmation', requireRole('STAFF'), async (req, res) => {
    const tenant = await staffTenant(req);
    sendData(res, await recordBookingPromise(bdeps, tenant, await actorOf(req), String(req.params.id), 'BOOKING_NOT_CONFIRMABLE'));
  });

  // ------------------------------------------------------------ public (no auth)
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
    if (customer && !body.token && !body.phone)
      return sendData(res, await cancelOwnBooking(bdeps, tenant, customer.accountId, String(req.params.id), body.reason));
    if (!body.token && !body.phone) {
      throw errors.validation('Request validation failed', [{ field: 'token', message: 'give the cancellation token or the contact phone' }]);
    }
    sendData(res, await cancelPublicBooking(bdeps, tenant, String(req.params.id), body));
  });

  router.post('/public/tenants/:slug/bookings/:id/promise', async (req, res) => {
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    const body = req.body as { token?: string; phone?: string };
    if (!body.token && !body.phone) {
      throw errors.validation('Request validation failed', [{ field: 'token', message: 'give the manage token or the contact phone' }]);
    }
    sendData(res, await recordPublicBookingPromise(bdeps, tenant, String(req.params.id), body));
  });

  // the released route of the same (docs/api/changelog.md: kept until 2027-06-01), with its released error code
  router.post('/public/tenants/:slug/bookings/:id/confirm', async (req, res) => {
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    const body = req.body as { token?: string; phone?: string };
    if (!body.token && !body.phone) {
      throw errors.validation('Request validation failed', [{ field: 'token', message: 'give the manage token or the contact phone' }]);
    }
    sendData(res, await recordPublicBookingPromise(bdeps, tenant, String(req.params.id), body, 'BOOKING_NOT_CONFIRMABLE'));
  });

  router.post('/public/tenants/:slug/bookings/:id/move', async (req, res) => {
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    const body = req.body as { startTime: string; token?: string; phone?: string };
    const customer = optionalCustomerOf(req);
    if (customer && !body.token && !body.phone)
      return sendData(res, await moveForCustomer(bdeps, tenant, String(req.params.id), body.startTime, { accountId: customer.accountId }));
    if (!body.token && !body.phone) {
      throw errors.validation('Request validation failed', [{ field: 'token', message: 'give the booking token or the contact phone' }]);
    }
    sendData(res, await moveForCustomer(bdeps, tenant, String(req.params.id), body.startTime, { proof: { token: body.token, phone: body.phone } }));
  });

  return router;
}
