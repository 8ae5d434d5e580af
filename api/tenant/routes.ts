// Tenants and onboarding (docs/rules/salon.md) with docs/rules/auth.md#access-matrix. Thin: validated input ->
// domain service -> envelope.
import { Router, type Request } from 'express';
import type { AppDeps } from '../deps';
import { sendCreated, sendData, sendPage } from '../envelope';
import { PLATFORM_ADMIN_TOO, requireExactRole, requireRole } from '../middleware/require-role';
import { principalOf, tenantOf } from '../request-context';
import { errors } from '../../domain/errors';
import * as tenants from '../../domain/tenant/tenant.service';
import { completeOnboarding, completeStep, getOnboarding } from '../../domain/tenant/onboarding.service';
import { onlineBookingWarnings } from '../../domain/tenant/online-booking-warnings.service';
import { nowOf } from '../../domain/time/clock';
import { toTenantDto, toTenantPublicDto } from '../../domain/tenant/tenant.dto';
import { toAuthUser } from '../../domain/users/user.dto';

function actorOf(req: Request): tenants.Actor {
  const p = principalOf(req);
  return { userId: p.userId, tenantId: p.tenantId, role: p.role };
}

/** Onboarding belongs to the owner's own salon. */
function ownTenant(req: Request): string {
  const tenantId = principalOf(req).tenantId;
  if (!tenantId) throw errors.forbidden('This action needs a tenant context');
  return tenantId;
}

export function tenantRouter(deps: AppDeps): Router {
  const router = Router();

  router.get('/tenants', requireRole('ADMIN'), async (req, res) => {
    const page = await tenants.listTenants(deps.knex, {
      page: req.query.page ? Number(req.query.page) : 1,
      limit: req.query.limit ? Number(req.query.limit) : 20,
      order: req.query.order === 'asc' ? 'asc' : 'desc',
    });
    sendPage(res, { ...page, rows: page.rows.map(toTenantDto) });
  });

  router.post('/tenants', requireRole('ADMIN'), async (req, res) => {
    const created = await tenants.createTenantWithOwner(deps.knex, req.body, deps.config.passwordHashRounds);
    sendCreated(res, { tenant: toTenantDto(created.tenant), owner: toAuthUser(created.owner) });
  });

  router.get('/tenants/me', requireRole('STAFF'), async (req, res) => {
    const tenantId = tenantOf(req);
    sendData(res, toTenantDto(await tenants.getTenant(deps.knex, { ...actorOf(req), tenantId }, tenantId)));
  });

  router.get('/tenants/me/onboarding', requireExactRole('OWNER'), async (req, res) => {
    sendData(res, await getOnboarding(deps.knex, deps.hooks.tenant, ownTenant(req)));
  });

  router.patch('/tenants/me/onboarding/step', requireExactRole('OWNER'), async (req, res) => {
    sendData(res, await completeStep(deps.knex, deps.hooks.tenant, ownTenant(req), req.body.step));
  });

  router.post('/tenants/me/onboarding/complete', requireExactRole('OWNER'), async (req, res) => {
    sendData(res, await completeOnboarding(deps.knex, deps.hooks.tenant, ownTenant(req), nowOf(deps)));
  });

  router.get('/tenants/slug/:slug', async (req, res) => {
    sendData(res, toTenantPublicDto(await tenants.getTenantBySlug(deps.knex, req.params.slug as string)));
  });

  router.get('/tenants/:id', requireRole('STAFF', PLATFORM_ADMIN_TOO), async (req, res) => {
    sendData(res, toTenantDto(await tenants.getTenant(deps.knex, actorOf(req), req.params.id as string)));
  });

  router.patch('/tenants/:id', requireRole('OWNER', PLATFORM_ADMIN_TOO), async (req, res) => {
    const updated = await tenants.updateTenant(deps.knex, deps.signaller, deps.hooks.tenant, actorOf(req), req.params.id as string, req.body, nowOf(deps));
    // what the resulting settings make impossible (docs/rules/salon.md#online-booking-warnings)
    const warnings = await onlineBookingWarnings(deps.knex, deps.hooks.tenant, updated.id, updated.settings);
    sendData(res, { ...toTenantDto(updated), warnings });
  });

  return router;
}
