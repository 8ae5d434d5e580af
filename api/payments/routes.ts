// Payments (docs/rules/payments.md): admin payments and payment configs, the provider webhook, and the
// customer's payment page data, status poll and retry. Thin: validated input -> domain -> envelope.
import { Router, type Request } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { guestProofOf, optionalCustomerOf, principalOf, tenantOf } from '../request-context';
import { sendCreated, sendData, sendNoContent, sendPage } from '../envelope';
import { errors } from '../../domain/errors';
import { tenantById } from '../../domain/tenant/tenant-context';
import { bookingActor } from '../../domain/booking/booking-access.service';
import { publicTenantBySlug } from '../../domain/public/public-portal.service';
import type { PaymentDeps } from '../../domain/payments/payment-change';
import type { PaymentProviders } from '../../domain/payments/payment-provider';
import * as payments from '../../domain/payments/payment.service';
import * as configs from '../../domain/payments/payment-config.service';

type Query = Record<string, string | undefined>;

export function paymentsRouter(deps: AppDeps): Router {
  const router = Router();
  const knex = deps.knex;
  const providers: PaymentProviders = deps.paymentProviders ?? {
    get: () => undefined,
    names: () => [],
    webhookBaseUrl: deps.config.payments.webhookBaseUrl,
    returnBaseUrl: deps.config.payments.returnBaseUrl,
  };
  const pdeps: PaymentDeps = {
    knex,
    signaller: deps.signaller,
    keyring: deps.config.credentialKeys,
    providers,
    manageLinkKey: deps.config.keys.manageLink,
    bookingHooks: deps.hooks.booking,
  };
  const actorOf = (req: Request) => bookingActor(knex, principalOf(req));
  // the booking is proven by its manage token, its contact phone, or the signed-in customer who owns it
  const proofOf = (req: Request, source: Query) => {
    const customerAccountId = optionalCustomerOf(req)?.accountId;
    return customerAccountId && !source.token && !source.phone ? { customerAccountId } : { ...guestProofOf(source, true), customerAccountId };
  };

  // ------------------------------------------------------------ admin payments
  router.get('/admin/payments', requireRole('OWNER'), async (req, res) => {
    const q = req.query as Query;
    sendPage(res, await payments.listPayments(pdeps, tenantOf(req), { status: q.status, page: Number(q.page ?? 1), limit: Number(q.limit ?? 20) }));
  });

  router.get('/admin/payments/by-booking/:bookingId', requireRole('STAFF'), async (req, res) => {
    sendData(res, await payments.paymentsByBooking(pdeps, tenantOf(req), await actorOf(req), String(req.params.bookingId)));
  });

  router.post('/admin/payments/remaining', requireRole('STAFF'), async (req, res) => {
    const tenant = await tenantById(knex, tenantOf(req));
    sendCreated(res, await payments.collectRemaining(pdeps, tenant, await actorOf(req), String((req.body as { bookingId: string }).bookingId)));
  });

  router.get('/admin/payments/:id', requireRole('STAFF'), async (req, res) => {
    sendData(res, await payments.paymentDetail(pdeps, tenantOf(req), await actorOf(req), String(req.params.id)));
  });

  router.post('/admin/payments/:id/refund', requireRole('OWNER'), async (req, res) => {
    sendData(
      res,
      await payments.refundPayment(pdeps, tenantOf(req), await actorOf(req), String(req.params.id), req.body as { amount: number; reason?: string }),
    );
  });

  router.post('/admin/payments/:id/void', requireRole('OWNER'), async (req, res) => {
    sendData(res, await payments.requestVoid(pdeps, tenantOf(req), await actorOf(req), String(req.params.id)));
  });

  router.post('/admin/payments/:id/capture', requireRole('OWNER'), async (req, res) => {
    sendData(res, await payments.requestCapture(pdeps, tenantOf(req), await actorOf(req), String(req.params.id)));
  });

  // ------------------------------------------------------------ payment configs (OWNER)
  router.get('/admin/payment-configs', requireRole('OWNER'), async (req, res) => {
    sendData(res, await configs.listConfigs(pdeps, tenantOf(req)));
  });

  router.post('/admin/payment-configs', requireRole('OWNER'), async (req, res) => {
    sendCreated(res, await configs.createConfig(pdeps, tenantOf(req), req.body));
  });

  router.get('/admin/payment-configs/:id', requireRole('OWNER'), async (req, res) => {
    sendData(res, await configs.getConfig(pdeps, tenantOf(req), String(req.params.id)));
  });

  router.patch('/admin/payment-configs/:id', requireRole('OWNER'), async (req, res) => {
    sendData(res, await configs.updateConfigFields(pdeps, tenantOf(req), String(req.params.id), req.body ?? {}));
  });

  router.delete('/admin/payment-configs/:id', requireRole('OWNER'), async (req, res) => {
    await configs.removeConfig(pdeps, tenantOf(req), String(req.params.id));
    sendNoContent(res);
  });

  router.post('/admin/payment-configs/:id/activate', requireRole('OWNER'), async (req, res) => {
    sendData(res, await configs.activateConfig(pdeps, tenantOf(req), String(req.params.id)));
  });

  router.post('/admin/payment-configs/:id/rotate', requireRole('OWNER'), async (req, res) => {
    sendData(res, await configs.rotateConfig(pdeps, tenantOf(req), String(req.params.id), req.body));
  });

  router.post('/admin/payment-configs/:id/health-check', requireRole('OWNER'), async (req, res) => {
    sendData(res, await configs.healthCheckConfig(pdeps, tenantOf(req), String(req.params.id)));
  });

  // ------------------------------------------------------------ provider webhooks (public, signed)
  const webhook = async (req: Request, res: import('express').Response) => {
    const raw = {
      method: req.method,
      rawBody: (req as Request & { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0),
      query: Object.fromEntries(Object.entries(req.query as Query).map(([k, v]) => [k, String(v ?? '')])),
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v])),
      // the query string exactly as it arrived: a signature may cover it (Vipps)
      search: req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '',
    };
    const { outcome, late } = await payments.receiveWebhook(pdeps, String(req.params.provider), String(req.params.tenantId), raw);
    if (late) deps.metrics?.lateConfirmations.inc(late);
    sendData(res, { received: true, outcome });
  };
  router.get('/webhooks/payments/:provider/:tenantId', webhook);
  router.post('/webhooks/payments/:provider/:tenantId', webhook);

  // ------------------------------------------------------------ customer side (no auth)
  router.get('/public/tenants/:slug/bookings/:id/payment', async (req, res) => {
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    sendData(res, await payments.publicPayment(pdeps, tenant, String(req.params.id), proofOf(req, req.query as Query)));
  });

  router.post('/public/tenants/:slug/bookings/:id/payment/retry', async (req, res) => {
    const tenant = await publicTenantBySlug(knex, String(req.params.slug));
    sendCreated(res, await payments.retryPayment(pdeps, tenant, String(req.params.id), proofOf(req, (req.body ?? {}) as Query)));
  });

  router.get('/public/payments/:tenantId/status', async (req, res) => {
    sendData(res, await payments.paymentStatus(pdeps, String(req.params.tenantId), String((req.query as Query).paymentId)));
  });

  return router;
}
