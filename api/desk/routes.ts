// The front desk's live read (docs/rules/front-desk.md#live-updates): the salon's committed booking
// changes since a cursor, waiting up to `wait` seconds. Thin: validated input -> one domain call -> the
// envelope; a client that goes away ends the wait.
import { Router } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { principalOf, tenantOf } from '../request-context';
import { sendData } from '../envelope';
import { bookingActor } from '../../domain/booking/booking-access.service';
import { scheduleChanges } from '../../domain/desk/schedule-changes.service';

export function deskRouter(deps: AppDeps): Router {
  const router = Router();

  router.get('/schedule/changes', requireRole('STAFF'), async (req, res) => {
    const q = req.query as { after?: string; wait?: string | number };
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const actor = await bookingActor(deps.knex, principalOf(req));
    const changes = await scheduleChanges(deps, tenantOf(req), actor, { after: q.after, wait: q.wait === undefined ? 0 : Number(q.wait) }, gone.signal);
    if (!res.writableEnded && !gone.signal.aborted) sendData(res, changes);
  });

  return router;
}
