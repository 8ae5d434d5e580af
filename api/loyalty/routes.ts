// Loyalty (docs/rules/loyalty.md): cards and points (OWNER writes, STAFF+ reads and
// redeems points), vouchers (OWNER), a customer's loyalty (STAFF+). The signed-in customer's routes
// (/customer/me/loyalty, /customer/loyalty/...) belong with customer sign-in; their queries are in
// domain/loyalty/loyalty-customer.service.ts.
import { Router } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { principalOf, tenantOf } from '../request-context';
import { sendCreated, sendData, sendNoContent, sendPage } from '../envelope';
import { errors } from '../../domain/errors';
import { createCard, deleteCard, getCard, listCards, updateCard } from '../../domain/loyalty/loyalty-card.service';
import { adjustPoints, getPoints, redeemPoints } from '../../domain/loyalty/loyalty-points.service';
import { cancelVoucher, getVoucherDetail, listVouchers, previewVoucher, type VoucherListQuery } from '../../domain/loyalty/loyalty-voucher.service';
import { cardsOfCustomer, customerLoyalty, stampsOnCard } from '../../domain/loyalty/loyalty-customer.service';
import { publicTenantBySlug } from '../../domain/public/public-portal.service';
import { nowOf } from '../../domain/time/clock';

export function loyaltyRouter(deps: AppDeps): Router {
  const router = Router();
  const { knex, signaller } = deps;
  const staff = requireRole('STAFF');
  const owner = requireRole('OWNER');
  const p = (value: unknown) => String(value);

  // ---- cards
  router.post('/loyalty-cards', owner, async (req, res) => sendCreated(res, await createCard(knex, tenantOf(req), req.body)));
  router.get('/loyalty-cards', staff, async (req, res) => sendPage(res, await listCards(knex, tenantOf(req), req.query as never)));
  router.get('/loyalty-cards/customer/:tenantCustomerId', staff, async (req, res) =>
    sendData(res, await cardsOfCustomer(knex, tenantOf(req), p(req.params.tenantCustomerId), nowOf(deps))),
  );
  router.get('/loyalty-cards/:id', staff, async (req, res) => sendData(res, await getCard(knex, tenantOf(req), p(req.params.id))));
  router.patch('/loyalty-cards/:id', owner, async (req, res) => sendData(res, await updateCard(knex, tenantOf(req), p(req.params.id), req.body)));
  router.delete('/loyalty-cards/:id', owner, async (req, res) => {
    await deleteCard(knex, tenantOf(req), p(req.params.id));
    sendNoContent(res);
  });
  router.get('/loyalty-cards/:id/stamps/:tenantCustomerId', staff, async (req, res) =>
    sendData(res, await stampsOnCard(knex, tenantOf(req), p(req.params.id), p(req.params.tenantCustomerId), nowOf(deps))),
  );
  router.post('/loyalty-cards/:id/redeem', staff, async () => {
    throw errors.gone(
      'LOYALTY_STAMP_REDEEM_REMOVED',
      'Manual stamp redemption was removed: a full card issues a voucher; see GET /loyalty-vouchers and apply its code to a booking',
    );
  });

  // ---- points
  router.get('/loyalty-cards/:id/points/:tenantCustomerId', staff, async (req, res) =>
    sendData(res, await getPoints(knex, tenantOf(req), p(req.params.id), p(req.params.tenantCustomerId), nowOf(deps))),
  );
  router.post('/loyalty-cards/:id/redeem-points', staff, async (req, res) =>
    sendData(res, await redeemPoints(knex, tenantOf(req), p(req.params.id), req.body, principalOf(req).userId, nowOf(deps))),
  );
  router.post('/loyalty-cards/:id/adjust-points', owner, async (req, res) =>
    sendData(res, await adjustPoints(knex, tenantOf(req), p(req.params.id), req.body, principalOf(req).userId, nowOf(deps))),
  );

  // ---- vouchers
  router.get('/loyalty-vouchers', owner, async (req, res) => sendPage(res, await listVouchers(knex, tenantOf(req), req.query as VoucherListQuery)));
  router.get('/loyalty-vouchers/:id', owner, async (req, res) => sendData(res, await getVoucherDetail(knex, tenantOf(req), p(req.params.id))));
  router.post('/loyalty-vouchers/:id/cancel', owner, async (req, res) => {
    const principal = principalOf(req);
    sendData(
      res,
      await cancelVoucher(
        knex,
        signaller,
        tenantOf(req),
        p(req.params.id),
        String(req.body.reason),
        { userId: principal.userId, role: principal.role },
        nowOf(deps),
      ),
    );
  });

  // ---- a customer's loyalty
  router.get('/customers/:tenantCustomerId/loyalty', staff, async (req, res) =>
    sendData(res, await customerLoyalty(knex, tenantOf(req), p(req.params.tenantCustomerId), nowOf(deps))),
  );

  // ---- public voucher preview (no reservation)
  router.post('/public/tenants/:slug/vouchers/preview', async (req, res) => {
    const tenant = await publicTenantBySlug(knex, p(req.params.slug));
    sendData(res, await previewVoucher(knex, tenant.id, req.body, nowOf(deps)));
  });

  return router;
}
