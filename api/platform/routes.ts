// Platform settings (ADMIN): which customer booking page is served (docs/rules/booking-page.md). Thin:
// validated input -> domain call -> envelope.
import { Router } from 'express';
import type { AppDeps } from '../deps';
import { sendData } from '../envelope';
import { requireRole } from '../middleware/require-role';
import { principalOf } from '../request-context';
import { platformSettings, updatePlatformSettings, type BookingUiVersion } from '../../domain/platform/platform-settings.service';

export function platformSettingsRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/superadmin/platform-settings', requireRole('ADMIN'), async (_req, res) => {
    sendData(res, await platformSettings(deps.knex));
  });
  router.patch('/superadmin/platform-settings', requireRole('ADMIN'), async (req, res) => {
    const body = req.body as { bookingUiVersion?: BookingUiVersion };
    sendData(res, await updatePlatformSettings(deps.knex, body, principalOf(req).userId));
  });
  return router;
}
