// Services and service categories (docs/rules/catalogue.md#services). Reads STAFF+, writes OWNER+ (the
// platform admin by impersonating the owner, docs/rules/auth.md#the-platform-admin).
import { Router } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { tenantOf } from '../request-context';
import { sendCreated, sendData, sendNoContent, sendPage } from '../envelope';
import * as catalogue from '../../domain/catalogue/catalogue.service';
import * as resources from '../../domain/resource/resource.service';
import { boolParam, pageParams, param, strParam } from './query-params';

export function catalogueRouter(deps: AppDeps): Router {
  const router = Router();
  const { knex } = deps;
  const staff = requireRole('STAFF');
  const owner = requireRole('OWNER');

  router.get('/services', staff, async (req, res) => {
    sendPage(
      res,
      await catalogue.listServices(knex, tenantOf(req), {
        ...pageParams(req),
        isActive: boolParam(req, 'isActive'),
        categoryId: strParam(req, 'categoryId'),
        sort: strParam(req, 'sort'),
        order: strParam(req, 'order'),
      }),
    );
  });
  router.post('/services', owner, async (req, res) => {
    sendCreated(res, await catalogue.createService(knex, deps.signaller, tenantOf(req), req.body));
  });
  router.get('/services/:id', staff, async (req, res) => {
    sendData(res, await catalogue.getService(knex, tenantOf(req), param(req, 'id')));
  });
  router.patch('/services/:id', owner, async (req, res) => {
    sendData(res, await catalogue.updateService(knex, deps.signaller, tenantOf(req), param(req, 'id'), req.body));
  });
  router.delete('/services/:id', owner, async (req, res) => {
    await catalogue.deleteService(knex, deps.signaller, tenantOf(req), param(req, 'id'));
    sendNoContent(res);
  });
  router.get('/services/:id/resources', staff, async (req, res) => {
    sendData(res, await resources.listServiceResources(knex, tenantOf(req), param(req, 'id')));
  });
  router.put('/services/:id/resources', owner, async (req, res) => {
    sendData(res, await resources.replaceServiceResources(knex, tenantOf(req), param(req, 'id'), req.body.resourceIds));
  });

  router.get('/service-categories', staff, async (req, res) => {
    sendPage(res, await catalogue.listCategories(knex, tenantOf(req), pageParams(req)));
  });
  router.post('/service-categories', owner, async (req, res) => {
    sendCreated(res, await catalogue.createCategory(knex, tenantOf(req), req.body));
  });
  router.get('/service-categories/:id', staff, async (req, res) => {
    sendData(res, await catalogue.getCategory(knex, tenantOf(req), param(req, 'id')));
  });
  router.patch('/service-categories/:id', owner, async (req, res) => {
    sendData(res, await catalogue.updateCategory(knex, tenantOf(req), param(req, 'id'), req.body));
  });
  router.delete('/service-categories/:id', owner, async (req, res) => {
    await catalogue.deleteCategory(knex, tenantOf(req), param(req, 'id'));
    sendNoContent(res);
  });
  return router;
}
