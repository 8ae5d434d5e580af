// The rebooking nudge's unsubscribe link as an API call (docs/rules/series.md#rebooking-nudges); the
// page the message links to is api/pages/unsubscribe-page.ts. Thin: validated input -> domain call -> envelope.
import { Router } from 'express';
import type { AppDeps } from '../deps';
import { sendData } from '../envelope';
import { unsubscribeFromNudges } from '../../domain/rebooking/rebooking.service';
import { publicTenantBySlug } from '../../domain/public/public-portal.service';

export function rebookingRouter(deps: AppDeps): Router {
  const router = Router();
  router.post('/public/tenants/:slug/rebooking-nudges/unsubscribe', async (req, res) => {
    const tenant = await publicTenantBySlug(deps.knex, String(req.params.slug));
    await unsubscribeFromNudges(deps.knex, deps.config.keys.rebookingUnsubscribe, tenant, req.body.customerId, req.body.token);
    sendData(res, { rebookingNudges: false });
  });
  return router;
}
