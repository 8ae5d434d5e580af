// /customers and /tenant-customers (docs/rules/customers.md): STAFF and above; STAFF may not change
// tenant-customer visit metrics (enforced in the service with 400 FORBIDDEN_FIELD).
import { Router } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { principalOf, tenantOf } from '../request-context';
import { sendCreated, sendData, sendPage } from '../envelope';
import { createCustomer, getCustomer, listCustomers, updateCustomer, type CustomerListQuery } from '../../domain/customer/customer.service';
import { getTenantCustomer, listTenantCustomers, updateTenantCustomer, type TenantCustomerListQuery } from '../../domain/customer/tenant-customer.service';

export function customerRouter(deps: AppDeps): Router {
  const router = Router();
  const { knex } = deps;
  const staff = requireRole('STAFF');

  router.get('/customers', staff, async (req, res) => sendPage(res, await listCustomers(knex, tenantOf(req), req.query as CustomerListQuery)));
  router.post('/customers', staff, async (req, res) => sendCreated(res, await createCustomer(knex, tenantOf(req), req.body, principalOf(req).userId)));
  router.get('/customers/:id', staff, async (req, res) => sendData(res, await getCustomer(knex, tenantOf(req), req.params.id as string)));
  router.patch('/customers/:id', staff, async (req, res) =>
    sendData(res, await updateCustomer(knex, tenantOf(req), req.params.id as string, req.body, principalOf(req).userId)),
  );

  router.get('/tenant-customers', staff, async (req, res) =>
    sendPage(res, await listTenantCustomers(knex, tenantOf(req), req.query as TenantCustomerListQuery)),
  );
  router.get('/tenant-customers/:id', staff, async (req, res) => sendData(res, await getTenantCustomer(knex, tenantOf(req), req.params.id as string)));
  router.patch('/tenant-customers/:id', staff, async (req, res) =>
    sendData(res, await updateTenantCustomer(knex, tenantOf(req), req.params.id as string, req.body, principalOf(req).role)),
  );
  return router;
}
