import { Router } from 'express';
import type { AppDeps } from '../deps';
import { cachedHealthCheck } from '../../domain/health/health.service';

export function healthRouter(deps: AppDeps): Router {
  const router = Router();
  const health = cachedHealthCheck(deps.health);
  // a degraded report is logged once (reports are shared for a second); callers see what is down, never the raw error (docs/rules/operations.md#health)
  let loggedReport: unknown;
  router.get('/health', async (_req, res) => {
    const report = await health();
    if (report.status !== 'ok' && loggedReport !== report) {
      loggedReport = report;
      const causes = Object.fromEntries(Object.entries(report.causes).map(([name, cause]) => [name, cause instanceof Error ? cause.message : String(cause)]));
      deps.logger.warn({ down: report.down, causes }, 'health check degraded');
    }
    const { causes: _causes, ...shown } = report;
    res.status(report.status === 'ok' ? 200 : 503).json(
      report.status === 'ok'
        ? { success: true, data: shown }
        : {
            success: false,
            error: {
              code: 'SERVICE_UNAVAILABLE',
              message: `Degraded: ${report.down.join(', ')} down`,
              details: report.down.map((name) => ({ field: name, message: report.checks[name].error ?? 'unavailable' })),
            },
          },
    );
  });
  return router;
}
