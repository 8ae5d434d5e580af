import { Router } from 'express';
import type { AppDeps } from '../deps';
import { cachedHealthCheck } from '../../domain/health/health.service';

export function healthRouter(deps: AppDeps): Router {
  const router = Router();
  const health = cachedHealthCheck(deps.health);
  router.get('/health', async (_req, res) => {
    const report = await health();
    res.status(report.status === 'ok' ? 200 : 503).json(
      report.status === 'ok'
        ? { success: true, data: report }
        : { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: `Degraded: ${report.down.join(', ')} down`, details: report.down.map((name) => ({ field: name, message: report.checks[name].error ?? 'down' })) } },
    );
  });
  return router;
}
