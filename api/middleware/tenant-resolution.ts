// Tenant resolution (docs/rules/auth.md#tenant-resolution): JWT tenantId, then header x-tenant-id, then subdomain or custom domain.
import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { tenantIdByHost } from '../../domain/tenant/tenant-context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function resolveTenant(platformDomain: string, knex: Knex): RequestHandler {
  const suffix = `.${platformDomain.toLowerCase()}`;
  return async (req, _res, next) => {
    try {
      if (req.principal?.tenantId) {
        req.tenantId = req.principal.tenantId;
        return next();
      }
      const header = req.get('x-tenant-id');
      if (header && UUID.test(header)) {
        req.tenantId = header;
        return next();
      }
      const host = (req.hostname ?? '').toLowerCase();
      if (host && host !== platformDomain && !/^(localhost|[\d.]+|\[.*\])$/.test(host)) {
        const tenantId = await tenantIdByHost(knex, host.endsWith(suffix) ? { slug: host.slice(0, -suffix.length) } : { customDomain: host });
        if (tenantId) req.tenantId = tenantId;
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}
