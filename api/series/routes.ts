// Standing appointments (docs/rules/series.md), staff side and the signed-in customer's. Thin: validated input -> domain call -> envelope.
import { Router, type Request } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { rateLimiter } from '../middleware/rate-limit';
import { customerOf, principalOf, tenantOf } from '../request-context';
import { sendCreated, sendData, sendPage } from '../envelope';
import { tenantById } from '../../domain/tenant/tenant-context';
import { bookingActor } from '../../domain/booking/booking-access.service';
import {
  cancelOccurrence,
  createCustomerSeries,
  createSeries,
  endSeries,
  getSeries,
  listSeries,
  updateSeries,
  type SeriesDeps,
} from '../../domain/series/series.service';
import type { SeriesStatus } from '../../domain/series/series.rules';

type Query = Record<string, string | undefined>;

export function seriesRouter(deps: AppDeps): Router {
  const router = Router();
  const knex = deps.knex;
  const sdeps: SeriesDeps = { knex, signaller: deps.signaller, manageLinkKey: deps.config.keys.manageLink, now: deps.now, bookingHooks: deps.hooks.booking };
  const createLimit = rateLimiter(deps.config.rateLimit.bookingCreate, deps.config.rateLimit.windowMs, 'booking-create');
  const staffTenant = (req: Request) => tenantById(knex, tenantOf(req));
  const actorOf = (req: Request) => bookingActor(knex, principalOf(req));

  router.get('/series', requireRole('STAFF'), async (req, res) => {
    const q = req.query as Query;
    sendPage(
      res,
      await listSeries(sdeps, await staffTenant(req), await actorOf(req), {
        page: Number(q.page ?? 1),
        limit: Number(q.limit ?? 20),
        status: q.status as SeriesStatus | undefined,
        customerId: q.customerId,
      }),
    );
  });

  router.post('/series', createLimit, requireRole('STAFF'), async (req, res) => {
    sendCreated(res, await createSeries(sdeps, await staffTenant(req), await actorOf(req), req.body));
  });

  router.get('/series/:id', requireRole('STAFF'), async (req, res) => {
    sendData(res, await getSeries(sdeps, await staffTenant(req), await actorOf(req), String(req.params.id)));
  });

  router.patch('/series/:id', requireRole('STAFF'), async (req, res) => {
    sendData(res, await updateSeries(sdeps, await staffTenant(req), await actorOf(req), String(req.params.id), req.body));
  });

  router.post('/series/:id/end', requireRole('STAFF'), async (req, res) => {
    sendData(res, await endSeries(sdeps, await staffTenant(req), await actorOf(req), String(req.params.id), req.body ?? {}));
  });

  router.post('/series/:id/occurrences/:index/cancel', requireRole('STAFF'), async (req, res) => {
    sendData(res, await cancelOccurrence(sdeps, await staffTenant(req), await actorOf(req), String(req.params.id), Number(req.params.index)));
  });

  router.post('/customer/me/series', createLimit, async (req, res) => {
    sendCreated(res, await createCustomerSeries(sdeps, customerOf(req).accountId, req.body));
  });

  return router;
}
