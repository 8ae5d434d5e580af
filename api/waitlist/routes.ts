// The waitlist (docs/rules/waitlist.md): joining, viewing and leaving on the public portal, the
// offer link's read, accept and decline, the staff list, and the customer's own entries. Thin:
// validated input (openapi.yaml "waitlist") -> one domain call -> the envelope.
import { Router, type Request } from 'express';
import type { AppDeps } from '../deps';
import { sendCreated, sendData, sendNoContent, sendPage } from '../envelope';
import { rateLimiter } from '../middleware/rate-limit';
import { requireRole } from '../middleware/require-role';
import { customerOf, optionalCustomerOf, principalOf, tenantOf } from '../request-context';
import { tenantById } from '../../domain/tenant/tenant-context';
import { publicTenantBySlug } from '../../domain/public/public-portal.service';
import {
  addWaitlistEntry,
  joinWaitlist,
  leaveWaitlist,
  listOwnWaitlist,
  listWaitlist,
  removeWaitlistEntry,
  viewEntry,
  type WaitlistDeps,
} from '../../domain/waitlist/waitlist.service';
import { acceptOffer, declineOffer, viewOffer, type OfferDeps } from '../../domain/waitlist/waitlist-offer.service';
import type { WaitlistEntryStatus } from '../../domain/waitlist/waitlist-events.rules';

type Query = Record<string, string | undefined>;

export function waitlistRouter(deps: AppDeps): Router {
  const router = Router();
  const { knex, config } = deps;
  // the waitlist services' deps; accepting an offer books, so it carries the booking port too
  const wdeps: OfferDeps & WaitlistDeps = {
    knex,
    signaller: deps.signaller,
    offerKey: config.keys.waitlistOffer,
    entryKey: config.keys.waitlistEntry,
    manageLinkKey: config.keys.manageLink,
    now: deps.now,
    bookingHooks: deps.hooks.booking,
  };
  // like the booking routes: joining and accepting create rows (docs/rules/limits.md#rate-limits)
  const joinLimit = rateLimiter(config.rateLimit.bookingCreate, config.rateLimit.windowMs, 'waitlist-join');
  const acceptLimit = rateLimiter(config.rateLimit.bookingCreate, config.rateLimit.windowMs, 'waitlist-accept');
  const salon = (req: Request) => publicTenantBySlug(knex, String(req.params.slug));
  const page = (q: Query) => ({ page: Number(q.page ?? 1), limit: Number(q.limit ?? 20) });

  // ------------------------------------------------------------ public portal
  router.post('/public/tenants/:slug/waitlist', joinLimit, async (req, res) => {
    sendCreated(res, await joinWaitlist(wdeps, await salon(req), req.body, optionalCustomerOf(req)?.accountId));
  });

  router.get('/public/tenants/:slug/waitlist/:id', async (req, res) => {
    sendData(res, await viewEntry(wdeps, await salon(req), String(req.params.id), (req.query as Query).token));
  });

  router.delete('/public/tenants/:slug/waitlist/:id', async (req, res) => {
    await leaveWaitlist(wdeps, await salon(req), String(req.params.id), (req.query as Query).token);
    sendNoContent(res);
  });

  router.get('/public/tenants/:slug/waitlist/offers/:offerId', async (req, res) => {
    sendData(res, await viewOffer(wdeps, await salon(req), String(req.params.offerId), (req.query as Query).token));
  });

  router.post('/public/tenants/:slug/waitlist/offers/:offerId/accept', acceptLimit, async (req, res) => {
    sendCreated(res, await acceptOffer(wdeps, await salon(req), String(req.params.offerId), (req.body as { token: string }).token));
  });

  router.post('/public/tenants/:slug/waitlist/offers/:offerId/decline', async (req, res) => {
    sendData(res, await declineOffer(wdeps, await salon(req), String(req.params.offerId), (req.body as { token: string }).token));
  });

  // ------------------------------------------------------------ staff
  router.get('/waitlist', requireRole('STAFF'), async (req, res) => {
    const q = req.query as Query;
    const tenant = await tenantById(knex, tenantOf(req));
    sendPage(res, await listWaitlist(knex, tenant, { date: q.date, serviceId: q.serviceId, status: q.status as WaitlistEntryStatus | undefined }, page(q)));
  });

  router.post('/waitlist', requireRole('STAFF'), async (req, res) => {
    const tenant = await tenantById(knex, tenantOf(req));
    sendCreated(res, await addWaitlistEntry(wdeps, tenant, principalOf(req).userId, req.body));
  });

  router.delete('/waitlist/:id', requireRole('STAFF'), async (req, res) => {
    await removeWaitlistEntry(wdeps, await tenantById(knex, tenantOf(req)), String(req.params.id));
    sendNoContent(res);
  });

  // ------------------------------------------------------------ the signed-in customer
  router.get('/customer/me/waitlist', async (req, res) => {
    sendPage(res, await listOwnWaitlist(knex, customerOf(req).accountId, page(req.query as Query)));
  });

  return router;
}
