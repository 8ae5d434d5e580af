// Resources, skills, weekly schedules, overrides and time-off (docs/rules/catalogue.md#resources). Reads STAFF+; writes
// OWNER+ except the STAFF-scoped ones (own resource patch, own time-off), which the domain checks.
import { Router, type Request } from 'express';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { principalOf, tenantOf } from '../request-context';
import { sendCreated, sendData, sendNoContent, sendPage } from '../envelope';
import * as resources from '../../domain/resource/resource.service';
import * as schedules from '../../domain/resource/schedule.service';
import * as timeOffs from '../../domain/resource/time-off.service';
import { boolParam, pageParams, param, strParam } from '../catalogue/query-params';
import { nowOf } from '../../domain/time/clock';

function actorOf(req: Request): resources.Actor {
  const { userId, role } = principalOf(req);
  return { userId, role };
}

function timeOffQuery(req: Request): timeOffs.TimeOffListQuery {
  return {
    ...pageParams(req),
    dateFrom: strParam(req, 'dateFrom'),
    dateTo: strParam(req, 'dateTo'),
    isApproved: boolParam(req, 'isApproved'),
    type: strParam(req, 'type'),
    sort: strParam(req, 'sort'),
    order: strParam(req, 'order'),
  };
}

export function resourceRouter(deps: AppDeps): Router {
  // schedule and time-off changes may give staff working time the waitlist can offer (docs/rules/waitlist.md#when-time-frees-up)
  const notice = () => ({ signaller: deps.signaller, now: nowOf(deps), resourceHooks: deps.hooks.resource });
  const router = Router();
  const { knex } = deps;
  const staff = requireRole('STAFF');
  const owner = requireRole('OWNER');

  router.get('/resources', staff, async (req, res) => {
    sendPage(
      res,
      await resources.listResources(knex, tenantOf(req), {
        ...pageParams(req),
        type: strParam(req, 'type'),
        isActive: boolParam(req, 'isActive'),
        isBookableOnline: boolParam(req, 'isBookableOnline'),
        sort: strParam(req, 'sort'),
        order: strParam(req, 'order'),
      }),
    );
  });
  router.post('/resources', owner, async (req, res) => {
    sendCreated(res, await resources.createResource(knex, deps.signaller, tenantOf(req), req.body, deps.config.passwordHashRounds));
  });
  router.get('/resources/:id', staff, async (req, res) => {
    sendData(res, await resources.getResource(knex, tenantOf(req), param(req, 'id')));
  });
  router.patch('/resources/:id', staff, async (req, res) => {
    sendData(res, await resources.updateResource(knex, deps.signaller, tenantOf(req), param(req, 'id'), req.body, actorOf(req)));
  });

  router.post('/resources/:id/skills', owner, async (req, res) => {
    sendData(res, await resources.addSkills(knex, tenantOf(req), param(req, 'id'), req.body.serviceIds));
  });
  router.put('/resources/:id/skills', owner, async (req, res) => {
    sendData(res, await resources.replaceSkills(knex, tenantOf(req), param(req, 'id'), req.body.serviceIds));
  });
  router.delete('/resources/:id/skills/:serviceId', owner, async (req, res) => {
    await resources.removeSkill(knex, tenantOf(req), param(req, 'id'), param(req, 'serviceId'));
    sendNoContent(res);
  });

  router.get('/resources/:id/schedules', staff, async (req, res) => {
    sendData(res, await schedules.listSchedules(knex, tenantOf(req), param(req, 'id')));
  });
  router.post('/resources/:id/schedules', owner, async (req, res) => {
    const added = await schedules.addSchedules(knex, tenantOf(req), param(req, 'id'), [req.body], false, notice(), null);
    sendCreated(res, added.schedules[0], { warnings: added.warnings });
  });
  router.post('/resources/:id/schedules/bulk', owner, async (req, res) => {
    const added = await schedules.addSchedules(knex, tenantOf(req), param(req, 'id'), req.body.schedules, req.body.replace === true, notice());
    sendCreated(res, added.schedules, { warnings: added.warnings });
  });
  router.patch('/resources/:id/schedules/:scheduleId', owner, async (req, res) => {
    sendData(res, await schedules.updateSchedule(knex, tenantOf(req), param(req, 'id'), param(req, 'scheduleId'), req.body, notice()));
  });
  router.delete('/resources/:id/schedules/:scheduleId', owner, async (req, res) => {
    await schedules.deleteSchedule(knex, tenantOf(req), param(req, 'id'), param(req, 'scheduleId'), notice());
    sendNoContent(res);
  });

  router.get('/resources/:id/schedule-overrides', staff, async (req, res) => {
    sendData(
      res,
      await schedules.listOverrides(knex, tenantOf(req), param(req, 'id'), { dateFrom: strParam(req, 'dateFrom'), dateTo: strParam(req, 'dateTo') }),
    );
  });
  router.post('/resources/:id/schedule-overrides', owner, async (req, res) => {
    sendCreated(res, await schedules.createOverride(knex, tenantOf(req), param(req, 'id'), req.body, notice()));
  });
  router.patch('/resources/:id/schedule-overrides/:overrideId', owner, async (req, res) => {
    sendData(res, await schedules.updateOverride(knex, tenantOf(req), param(req, 'id'), param(req, 'overrideId'), req.body, notice()));
  });
  router.delete('/resources/:id/schedule-overrides/:overrideId', owner, async (req, res) => {
    await schedules.deleteOverride(knex, tenantOf(req), param(req, 'id'), param(req, 'overrideId'), notice());
    sendNoContent(res);
  });

  router.get('/resources/:id/time-offs', staff, async (req, res) => {
    sendPage(res, await timeOffs.listResourceTimeOffs(knex, tenantOf(req), param(req, 'id'), timeOffQuery(req)));
  });
  router.post('/resources/:id/time-offs', staff, async (req, res) => {
    sendCreated(res, await timeOffs.createTimeOff(knex, tenantOf(req), param(req, 'id'), req.body, actorOf(req)));
  });
  router.patch('/resources/:id/time-offs/:timeOffId', staff, async (req, res) => {
    sendData(res, await timeOffs.updateTimeOff(knex, tenantOf(req), param(req, 'id'), param(req, 'timeOffId'), req.body, actorOf(req), notice()));
  });
  router.delete('/resources/:id/time-offs/:timeOffId', staff, async (req, res) => {
    await timeOffs.deleteTimeOff(knex, tenantOf(req), param(req, 'id'), param(req, 'timeOffId'), actorOf(req), notice());
    sendNoContent(res);
  });
  router.get('/time-offs', staff, async (req, res) => {
    sendPage(res, await timeOffs.listTimeOffs(knex, tenantOf(req), { ...timeOffQuery(req), resourceId: strParam(req, 'resourceId') }));
  });
  return router;
}
