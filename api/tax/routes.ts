// /taxes and /accounting-accounts (docs/rules/salon.md#taxes-and-accounting-accounts): OWNER only, ADMIN by hierarchy with a tenant context.
import { Router } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { tenantOf } from '../request-context';
import { sendCreated, sendData, sendNoContent, sendPage } from '../envelope';
import { createTax, deleteTax, getTax, listTaxes, updateTax } from '../../domain/tax/tax.service';
import {
  createAccountingAccount,
  deleteAccountingAccount,
  getAccountingAccount,
  listAccountingAccounts,
  updateAccountingAccount,
} from '../../domain/tax/accounting-account.service';

type Query = Record<string, unknown>;

export function taxRouter(deps: AppDeps): Router {
  const router = Router();
  const { knex } = deps;
  const owner = requireRole('OWNER');

  router.get('/taxes', owner, async (req, res) => {
    const q = req.query as Query;
    sendPage(res, await listTaxes(knex, tenantOf(req), { page: q.page as number, limit: q.limit as number, isActive: q.isActive as boolean | undefined }));
  });
  router.post('/taxes', owner, async (req, res) => sendCreated(res, await createTax(knex, tenantOf(req), req.body)));
  router.get('/taxes/:id', owner, async (req, res) => sendData(res, await getTax(knex, tenantOf(req), req.params.id as string)));
  router.patch('/taxes/:id', owner, async (req, res) => sendData(res, await updateTax(knex, tenantOf(req), req.params.id as string, req.body)));
  router.delete('/taxes/:id', owner, async (req, res) => {
    await deleteTax(knex, tenantOf(req), req.params.id as string);
    sendNoContent(res);
  });

  router.get('/accounting-accounts', owner, async (req, res) => {
    const q = req.query as Query;
    sendPage(
      res,
      await listAccountingAccounts(knex, tenantOf(req), { page: q.page as number, limit: q.limit as number, taxId: q.taxId as string | undefined }),
    );
  });
  router.post('/accounting-accounts', owner, async (req, res) => sendCreated(res, await createAccountingAccount(knex, tenantOf(req), req.body)));
  router.get('/accounting-accounts/:id', owner, async (req, res) => sendData(res, await getAccountingAccount(knex, tenantOf(req), req.params.id as string)));
  router.patch('/accounting-accounts/:id', owner, async (req, res) =>
    sendData(res, await updateAccountingAccount(knex, tenantOf(req), req.params.id as string, req.body)),
  );
  router.delete('/accounting-accounts/:id', owner, async (req, res) => {
    await deleteAccountingAccount(knex, tenantOf(req), req.params.id as string);
    sendNoContent(res);
  });
  return router;
}
