// Operations endpoints (docs/rules/operations.md) and the API index:
//   GET /api                        what this API is and where to go next
//   GET /api/internal/tls-allow     200 when `domain` is an active custom domain of a salon, else 404
//                                   (the TLS edge asks before it gets an on-demand certificate)
//   GET /api/metrics                Prometheus text format, `Authorization: Bearer <METRICS_TOKEN>`
import crypto from 'node:crypto';
import { Router } from 'express';
import type { AppDeps } from '../deps';
import { sendData } from '../envelope';
import { errors } from '../../domain/errors';
import { activeTenantIdByHost } from '../../domain/tenant/tenant-context';
import packageJson from '../../package.json';

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export function opsRouter(deps: AppDeps): Router {
  const router = Router();

  router.get('/', (_req, res) => {
    sendData(res, {
      name: packageJson.name,
      version: packageJson.version,
      description: packageJson.description,
      links: {
        docs: '/api/docs',
        openapi: '/api/docs-json',
        health: '/api/health',
        publicTenants: '/api/public/tenants',
      },
    });
  });

  router.get('/internal/tls-allow', async (req, res) => {
    const domain = String(req.query.domain).trim().toLowerCase().replace(/\.$/, '');
    const tenant = await activeTenantIdByHost(deps.knex, { customDomain: domain });
    if (!tenant) throw errors.notFound('domain', 'No active salon uses this domain');
    sendData(res, { domain, allowed: true });
  });

  router.get('/metrics', async (req, res) => {
    const token = deps.config.metricsToken;
    if (!token || !deps.metrics) throw errors.notFound('route', 'Metrics are off (set METRICS_TOKEN)');
    const given = /^Bearer (.+)$/i.exec(req.get('authorization') ?? '')?.[1];
    if (!given || !sameSecret(given, token)) throw errors.unauthorized('A valid metrics token is required');
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });

  return router;
}
