// The subscription gate (docs/rules/billing.md#subscription-gate): a write (POST, PUT, PATCH, DELETE) made with a salon's staff token
// while its subscription lapsed (EXPIRED, or a trial that ended; not billing-exempt) gets 402
// SUBSCRIPTION_REQUIRED. Checkout, registration, auth and a customer's erasure stay open (and so do the public portal and
// provider webhooks, which are no salon writes, and the platform admin routes, which answer 403 to a
// salon anyway); reads are never blocked.
import type { RequestHandler } from 'express';
import type { Db } from '../../db/db-handle';
import { systemClock, type Clock } from '../../domain/time/clock';
import { assertWritesAllowed } from '../../domain/billing/subscription.service';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const EXEMPT = [
  /^\/api\/auth\//,
  /^\/api\/(admin\/)?superadmin\//,
  /^\/api\/subscription\/checkout\/?$/,
  /^\/api\/public\//,
  /^\/api\/webhooks\//,
  // answering a customer's erasure is the salon's duty, paid up or not (docs/rules/personal-data.md#erasure)
  /^\/api\/customers\/[^/]+\/erasure\/?$/,
];

export function subscriptionGate(db: Db, clock: Clock = systemClock): RequestHandler {
  return async (req, _res, next) => {
    try {
      const tenantId = req.principal?.tenantId;
      if (!tenantId || !WRITES.has(req.method) || EXEMPT.some((p) => p.test(req.path))) return next();
      await assertWritesAllowed(db, tenantId, clock());
      next();
    } catch (err) {
      next(err);
    }
  };
}
