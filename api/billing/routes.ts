// Platform SaaS billing (docs/rules/billing.md): plans and features for the
// super-admin, the plans a salon may choose, its subscription, billing configs and the provider
// webhooks. Thin: validated input -> one domain call -> the envelope.
import { Router, type Request } from 'express';
import express from 'express';
import type { AppDeps } from '../deps';
import { sendCreated, sendData, sendNoContent } from '../envelope';
import { requireRole } from '../middleware/require-role';
import { rateLimiter } from '../middleware/rate-limit';
import { principalOf, tenantOf } from '../request-context';
import * as plans from '../../domain/billing/plan.service';
import * as configs from '../../domain/billing/billing-config.service';
import * as subscription from '../../domain/billing/subscription.service';
import { nowOf } from '../../domain/time/clock';

/** The raw webhook body kept by `keepRawWebhookBody` (app.ts mounts it before the JSON parser). */
interface RawBodyRequest extends Request {
  rawWebhookBody?: Buffer;
}

/**
 * For `/webhooks/subscription/*` only: the body as bytes (signatures are over the raw body), up to
 * 1 MB (docs/rules/limits.md); `req.body` becomes the parsed JSON, or `{}` when it is not JSON (the route then
 * answers 400 after the signature verified).
 */
export function keepRawWebhookBody(): express.RequestHandler[] {
  return [
    express.raw({ type: () => true, limit: '1mb' }),
    (req, _res, next) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      (req as RawBodyRequest).rawWebhookBody = raw;
      let parsed: unknown = {};
      try {
        parsed = raw.length ? JSON.parse(raw.toString('utf8')) : {};
      } catch {
        parsed = {};
      }
      req.body = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
      next();
    },
  ];
}

export function billingRouter(deps: AppDeps): Router {
  const router = Router();
  const { knex } = deps;
  const admin = requireRole('ADMIN');
  const owner = requireRole('OWNER');
  const now = () => nowOf(deps);
  const origins = { publicBaseUrl: deps.config.publicBaseUrl, platformDomain: deps.config.platformDomain, https: deps.config.nodeEnv === 'production' };
  const billing: subscription.BillingDeps = {
    knex,
    signaller: deps.signaller,
    credentialKeys: deps.config.credentialKeys,
    billingProviders: deps.billingProviders,
    now,
    origins,
  };
  const keyring = deps.config.credentialKeys;

  // plans: public, per tenant, super-admin
  router.get('/public/plans', async (_req, res) => sendData(res, await plans.publicPlans(knex)));
  router.get('/me/plans', owner, async (req, res) => sendData(res, await plans.plansForTenant(knex, tenantOf(req))));
  router.get('/admin/superadmin/plans', admin, async (_req, res) => sendData(res, await plans.adminPlans(knex)));
  router.post('/admin/superadmin/plans', admin, async (req, res) => sendCreated(res, await plans.createPlan(knex, principalOf(req).userId, req.body)));
  router.patch('/admin/superadmin/plans/:id', admin, async (req, res) =>
    sendData(res, await plans.updatePlan(knex, principalOf(req).userId, req.params.id as string, req.body)),
  );
  router.delete('/admin/superadmin/plans/:id', admin, async (req, res) => {
    await plans.deletePlan(knex, req.params.id as string);
    sendNoContent(res);
  });
  router.get('/admin/superadmin/plan-features', admin, async (_req, res) => sendData(res, await plans.listFeatures(knex)));
  router.post('/admin/superadmin/plan-features', admin, async (req, res) => sendCreated(res, await plans.createFeature(knex, req.body)));

  // the salon's subscription
  router.get('/subscription', owner, async (req, res) => sendData(res, await subscription.subscriptionView(knex, tenantOf(req), now())));
  router.post('/subscription/checkout', owner, async (req, res) =>
    sendData(
      res,
      await subscription.checkout(billing, tenantOf(req), principalOf(req).userId, req.body.planKey, { host: req.get('host'), secure: req.secure }),
    ),
  );
  router.get('/subscription/portal', owner, async (req, res) => sendData(res, await subscription.portal(billing, tenantOf(req))));
  router.post('/subscription/cancel', owner, async (req, res) => {
    await subscription.cancel(billing, tenantOf(req));
    sendNoContent(res);
  });

  // provider webhooks: 60 per minute per IP (docs/rules/limits.md)
  const webhookLimit = rateLimiter(deps.config.rateLimit.subscriptionWebhook, deps.config.rateLimit.windowMs, 'subscription-webhook');
  router.post('/webhooks/subscription/:provider', webhookLimit, async (req, res) => {
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v[0] : v]));
    sendData(
      res,
      await subscription.receiveWebhook(billing, req.params.provider as string, (req as RawBodyRequest).rawWebhookBody ?? Buffer.alloc(0), headers),
    );
  });

  // super-admin: free access and billing configs
  router.patch('/superadmin/tenants/:id/billing-exempt', admin, async (req, res) =>
    sendData(res, await subscription.setBillingExempt(knex, principalOf(req).userId, req.params.id as string, req.body.billingExempt, now())),
  );
  router.get('/superadmin/billing-configs', admin, async (_req, res) => sendData(res, await configs.listConfigs(knex)));
  router.post('/superadmin/billing-configs', admin, async (req, res) => sendCreated(res, await configs.createConfig(knex, keyring, req.body)));
  router.get('/superadmin/billing-configs/:id', admin, async (req, res) => sendData(res, await configs.getConfig(knex, req.params.id as string)));
  router.put('/superadmin/billing-configs/:id', admin, async (req, res) => sendData(res, await configs.updateConfig(knex, req.params.id as string, req.body)));
  router.delete('/superadmin/billing-configs/:id', admin, async (req, res) => {
    await configs.deleteConfig(knex, req.params.id as string);
    sendNoContent(res);
  });
  router.post('/superadmin/billing-configs/:id/rotate-credentials', admin, async (req, res) =>
    sendData(res, await configs.rotateCredentials(knex, keyring, req.params.id as string, req.body)),
  );
  router.post('/superadmin/billing-configs/:id/activate', admin, async (req, res) =>
    sendData(res, await configs.activateConfig(knex, req.params.id as string)),
  );
  router.post('/superadmin/billing-configs/:id/deactivate', admin, async (req, res) =>
    sendData(res, await configs.deactivateConfig(knex, req.params.id as string)),
  );
  router.post('/superadmin/billing-configs/:id/health-check', admin, async (req, res) =>
    sendData(res, await configs.healthCheck(knex, keyring, deps.billingProviders, req.params.id as string, now())),
  );
  router.get('/superadmin/billing-configs/:id/plan-mappings', admin, async (req, res) =>
    sendData(res, (await configs.getConfig(knex, req.params.id as string)).planMappings ?? []),
  );
  router.put('/superadmin/billing-configs/:id/plan-mappings', admin, async (req, res) =>
    sendData(res, await configs.replacePlanMappings(knex, req.params.id as string, req.body.mappings)),
  );

  return router;
}
