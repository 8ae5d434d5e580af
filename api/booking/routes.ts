// Bookings, staff side and public (docs/rules/booking.md). Thin: validated input -> one domain call ->
// the envelope; openapi.yaml validates the input. Each route's handler is named by its operationId.
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { moveLimiters, rateLimiter } from '../middleware/rate-limit';
import { bookingProverOf, guestProofOf, optionalCustomerOf, principalOf, tenantOf } from '../request-context';
import { cancelOwnBooking, getOwnBooking } from '../../domain/customer-account/customer-bookings.service';
import { sendCreated, sendData, sendPage } from '../envelope';
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
type Handler = (req: Request, res: Response) => Promise<void>;

export function bookingRouter(deps: AppDeps): Router {
  const h = bookingHandlers(deps);
  const staff = requireRole('STAFF');
  const createLimit = rateLimiter(deps.config.rateLimit.bookingCreate, deps.config.rateLimit.windowMs, 'booking-create');
  const moveLimits = moveLimiters(deps.config.rateLimit);
  const router = Router();

  // ------------------------------------------------------------ staff side
  router.get('/bookings', staff, h.listBookings);
  router.get('/schedule', staff, h.getDaySchedule);
  router.post('/bookings', createLimit, staff, h.createBooking);
  router.post('/bookings/walk-in', createLimit, staff, h.createWalkInBooking);
  router.get('/bookings/:id', staff, h.getBooking);
  router.patch('/bookings/:id', staff, h.updateBooking);
  router.post('/bookings/:id/status/:status', staff, h.changeBookingStatus);
  router.post('/bookings/:id/cancel', staff, h.cancelBooking);
  router.get('/bookings/:id/cancel-preview', staff, h.previewBookingCancellation);
  router.get('/bookings/:id/audit-log', staff, h.getBookingAuditLog);
  router.post('/bookings/:id/self-pick', staff, h.selfPickBooking);
  router.post('/bookings/:id/promise', staff, h.recordBookingPromise);
  router.post('/bookings/:id/confirmation', staff, h.recordBookingConfirmation);

  // ------------------------------------------------------------ public (no staff token)
  router.post('/public/tenants/:slug/bookings', createLimit, h.createPublicBooking);
  router.get('/public/tenants/:slug/bookings/:id', h.getPublicBooking);
  router.post('/public/tenants/:slug/bookings/:id/cancel', h.cancelPublicBooking);
  router.post('/public/tenants/:slug/bookings/:id/promise', h.recordPublicBookingPromise);
  router.post('/public/tenants/:slug/bookings/:id/confirm', h.confirmPublicBooking);
  router.post('/public/tenants/:slug/bookings/:id/move', ...moveLimits, h.movePublicBooking);
  return router;
}

/** One handler per operation, named by its operationId in openapi.yaml. */
function bookingHandlers(deps: AppDeps): Record<string, Handler> {
  const knex = deps.knex;
  const bdeps: BookingDeps = { knex, signaller: deps.signaller, manageLinkKey: deps.config.keys.manageLink, now: deps.now, bookingHooks: deps.hooks.booking };
  const staffTenant = (req: Request) => tenantById(knex, tenantOf(req));
  const actorOf = (req: Request) => bookingActor(knex, principalOf(req));
  const publicTenant = (req: Request) => publicTenantBySlug(knex, String(req.params.slug));
  const id = (req: Request) => String(req.params.id);
  const page = (q: Query) => ({ page: Number(q.page ?? 1), limit: Number(q.limit ?? 20) });

  return {
    async listBookings(req, res) {
      const q = req.query as unknown as ListQuery;
      sendPage(res, await listBookings(bdeps, await staffTenant(req), await actorOf(req), { ...q, ...page(req.query as Query) }));
    },

    async getDaySchedule(req, res) {
      sendData(res, await daySchedule(knex, await staffTenant(req), await actorOf(req), String((req.query as Query).date)));
    },

    async createBooking(req, res) {
      sendCreated(res, await createStaffBooking(bdeps, await staffTenant(req), await actorOf(req), req.body));
    },

    async createWalkInBooking(req, res) {
      sendCreated(res, await createWalkIn(bdeps, await staffTenant(req), await actorOf(req), req.body));
    },

    async getBooking(req, res) {
      sendData(res, await getBooking(bdeps, tenantOf(req), await actorOf(req), id(req)));
    },

    async updateBooking(req, res) {
      sendData(res, await updateBooking(bdeps, await staffTenant(req), await actorOf(req), id(req), req.body));
    },

    async changeBookingStatus(req, res) {
      const body = (req.body ?? {}) as { force?: boolean; reason?: string };
      sendData(res, await changeStatus(bdeps, await staffTenant(req), await actorOf(req), id(req), req.params.status as BookingStatus, body));
    },

    async cancelBooking(req, res) {
      sendData(res, await cancelBooking(bdeps, await staffTenant(req), await actorOf(req), id(req), req.body ?? {}));
    },

    async previewBookingCancellation(req, res) {
      const bySalon = String((req.query as Query).bySalon ?? 'false') === 'true';
      sendData(res, await cancelPreview(bdeps, await staffTenant(req), await actorOf(req), id(req), bySalon));
    },

    async getBookingAuditLog(req, res) {
      sendPage(res, await auditLog(bdeps, tenantOf(req), await actorOf(req), id(req), page(req.query as Query)));
    },

    async selfPickBooking(req, res) {
      sendData(res, await selfPick(bdeps, await staffTenant(req), await actorOf(req), id(req)));
    },

    async recordBookingPromise(req, res) {
      sendData(res, await recordBookingPromise(bdeps, await staffTenant(req), await actorOf(req), id(req)));
    },

    /** The released route of recordBookingPromise (docs/api/changelog.md: kept until 2027-06-01), with its released error code. */
    async recordBookingConfirmation(req, res) {
      sendData(res, await recordBookingPromise(bdeps, await staffTenant(req), await actorOf(req), id(req), 'BOOKING_NOT_CONFIRMABLE'));
    },

    async createPublicBooking(req, res) {
      sendCreated(res, await createPublicBooking(bdeps, await publicTenant(req), req.body, optionalCustomerOf(req)?.accountId));
    },

    async getPublicBooking(req, res) {
      const q = req.query as Query;
      const customer = optionalCustomerOf(req);
      const tenant = await publicTenant(req);
      // without a token or phone a signed-in customer reads their own booking; a guest without either finds nothing (404)
      if (customer && !q.token && !q.phone) return sendData(res, await getOwnBooking(bdeps, tenant, customer.accountId, id(req)));
      sendData(res, await getPublicBooking(bdeps, tenant, id(req), { token: q.token, phone: q.phone }));
    },

    async cancelPublicBooking(req, res) {
      const tenant = await publicTenant(req);
      const body = req.body as { token?: string; phone?: string; reason?: string };
      const prover = bookingProverOf(req, body);
      if ('accountId' in prover) return sendData(res, await cancelOwnBooking(bdeps, tenant, prover.accountId, id(req), body.reason));
      sendData(res, await cancelPublicBooking(bdeps, tenant, id(req), { ...prover.proof, reason: body.reason }));
    },

    async recordPublicBookingPromise(req, res) {
      const tenant = await publicTenant(req);
      sendData(res, await recordPublicBookingPromise(bdeps, tenant, id(req), guestProofOf(req.body)));
    },

    /** The released route of recordPublicBookingPromise (docs/api/changelog.md: kept until 2027-06-01), with its released error code. */
    async confirmPublicBooking(req, res) {
      const tenant = await publicTenant(req);
      sendData(res, await recordPublicBookingPromise(bdeps, tenant, id(req), guestProofOf(req.body), 'BOOKING_NOT_CONFIRMABLE'));
    },

    async movePublicBooking(req, res) {
      const tenant = await publicTenant(req);
      const body = req.body as { startTime: string; token?: string; phone?: string };
      sendData(res, await moveForCustomer(bdeps, tenant, id(req), body.startTime, bookingProverOf(req, body)));
    },
  };
}
