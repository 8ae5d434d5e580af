// The public booking portal's reads (docs/rules/booking.md#the-public-portal): the listed salons, a
// salon's profile, its services and its staff. No auth. Thin: validated input -> domain service -> envelope.
import { Router } from 'express';
import type { AppDeps } from '../deps';
import { sendData, sendPage } from '../envelope';
import { nowOf } from '../../domain/time/clock';
import { listPublicTenants, publicProfile, publicResources, publicServices, publicTenantBySlug } from '../../domain/public/public-portal.service';

type Query = Record<string, string | undefined>;

export function publicRouter(deps: AppDeps): Router {
  const router = Router();
  const knex = deps.knex;

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

  return router;
}
