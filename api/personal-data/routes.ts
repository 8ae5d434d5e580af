// Customers' personal data (docs/rules/personal-data.md): the salon owner's export and erasure of one
// customer, the signed-in customer's own, the retention's views. Every export and erasure route is
// rate limited per user (RATE_LIMIT_PERSONAL_DATA) and recorded. Thin: validated input -> one domain
// call -> the envelope (or the summary as text).
import { Router, type Response } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { rateLimiter } from '../middleware/rate-limit';
import { customerOf, principalOf, tenantOf } from '../request-context';
import { sendData, sendPage } from '../envelope';
import { nowOf } from '../../domain/time/clock';
import { tenantById } from '../../domain/tenant/tenant-context';
import { exportAccount, exportCustomer, listExports } from '../../domain/personal-data/personal-data-export.service';
import { customerErasure, requestAccountErasure, requestCustomerErasure, type AskedErasure } from '../../domain/personal-data/erasure.service';
import { listDueCustomers, listRetentionSweeps } from '../../domain/personal-data/retention.service';
import type { Language } from '../../domain/language/language.rules';

const page = (q: Record<string, unknown>) => ({ page: Number(q.page ?? 1), limit: Number(q.limit ?? 20) });
const lang = (q: Record<string, unknown>): Language => (q.lang === 'en' ? 'en' : 'nb');

function sendText(res: Response, text: string): void {
  res.status(200).type('text/plain; charset=utf-8').send(text);
}

/** 202 for a new request, 200 for the one already asked for. */
function sendErasure(res: Response, asked: AskedErasure): void {
  sendData(res, asked.erasure, asked.created ? 202 : 200);
}

export function personalDataRouter(deps: AppDeps): Router {
  const router = Router();
  const { knex } = deps;
  const owner = requireRole('OWNER');
  const limit = rateLimiter(deps.config.rateLimit.personalData, deps.config.rateLimit.windowMs, 'personal-data', 'user');
  const requester = (req: Parameters<typeof principalOf>[0]) => ({ userId: principalOf(req).userId, role: principalOf(req).role });

  router.get('/customers/:id/personal-data', owner, limit, async (req, res) => {
    sendData(res, await exportCustomer(knex, tenantOf(req), String(req.params.id), requester(req), { format: 'JSON', lang: 'nb', now: nowOf(deps) }));
  });
  router.get('/customers/:id/personal-data/summary', owner, limit, async (req, res) => {
    sendText(
      res,
      await exportCustomer(knex, tenantOf(req), String(req.params.id), requester(req), { format: 'SUMMARY', lang: lang(req.query), now: nowOf(deps) }),
    );
  });
  router.get('/customers/:id/erasure', owner, async (req, res) => sendData(res, await customerErasure(knex, tenantOf(req), String(req.params.id))));
  router.post('/customers/:id/erasure', owner, limit, async (req, res) => {
    sendErasure(res, await requestCustomerErasure(deps, tenantOf(req), String(req.params.id), principalOf(req).userId, nowOf(deps)));
  });

  router.get('/customer/me/personal-data', limit, async (req, res) => {
    sendData(res, await exportAccount(knex, customerOf(req).accountId, { format: 'JSON', lang: 'nb', now: nowOf(deps) }));
  });
  router.get('/customer/me/personal-data/summary', limit, async (req, res) => {
    sendText(res, await exportAccount(knex, customerOf(req).accountId, { format: 'SUMMARY', lang: lang(req.query), now: nowOf(deps) }));
  });
  router.post('/customer/me/erasure', limit, async (req, res) => sendErasure(res, await requestAccountErasure(deps, customerOf(req).accountId, nowOf(deps))));

  router.get('/personal-data/exports', owner, async (req, res) => sendPage(res, await listExports(knex, tenantOf(req), page(req.query))));
  router.get('/personal-data/retention/due', owner, async (req, res) => {
    const tenant = await tenantById(knex, tenantOf(req));
    sendPage(res, await listDueCustomers(knex, tenant, Number(req.query.withinDays ?? 0), nowOf(deps), page(req.query)));
  });
  router.get('/personal-data/retention/sweeps', owner, async (req, res) => sendPage(res, await listRetentionSweeps(knex, tenantOf(req), page(req.query))));
  return router;
}
