// The schedule RPCs of WorkflowService.
import type { WorkflowServiceHandlers } from '../../messages';
import { timestamp, timestampMs } from '../../proto';
import type { RunRegistry } from '../../state/run-registry';
import { listEntry, scheduleInfo, type ScheduleViewDeps } from './describe-schedule';
import { countSchedules, listSchedules } from './list-schedules';
import type { ScheduleActions } from './schedule-actions';
import { actualTime, compileSpec, nominalTimesBetween } from './schedule-spec';
import type { Schedules } from './schedules';

export interface ScheduleHandlerDeps {
  registry: Pick<RunRegistry, 'checkNamespace'>;
  schedules: Pick<Schedules, 'create' | 'get' | 'list' | 'update' | 'patch' | 'delete' | 'futureActionTimes'>;
  actions: Pick<ScheduleActions, 'refreshRunning'>;
}

export function scheduleHandlers({ registry, schedules, actions }: ScheduleHandlerDeps): WorkflowServiceHandlers {
  const view: ScheduleViewDeps = { schedules, actions };
  return {
    CreateSchedule: (req) => {
      const ns = registry.checkNamespace(req.namespace);
      schedules.create(ns, req.scheduleId ?? '', req.schedule ?? {}, req.memo, req.searchAttributes, req.initialPatch);
      return { conflictToken: Buffer.from('1') };
    },
    DescribeSchedule: (req) => {
      const s = schedules.get(registry.checkNamespace(req.namespace), req.scheduleId ?? '');
      return {
        schedule: s.schedule,
        info: scheduleInfo(view, s),
        memo: s.memo,
        searchAttributes: s.searchAttributes,
        conflictToken: Buffer.from(String(s.conflictToken)),
      };
    },
    UpdateSchedule: (req) => {
      schedules.update(registry.checkNamespace(req.namespace), req.scheduleId ?? '', req.schedule ?? {}, req.conflictToken, req.searchAttributes);
      return {};
    },
    PatchSchedule: (req) => {
      schedules.patch(registry.checkNamespace(req.namespace), req.scheduleId ?? '', req.patch ?? {});
      return {};
    },
    DeleteSchedule: (req) => {
      schedules.delete(registry.checkNamespace(req.namespace), req.scheduleId ?? '');
      return {};
    },
    ListSchedules: (req) => listSchedules(schedules.list(registry.checkNamespace(req.namespace)), req, (s) => listEntry(view, s)),
    CountSchedules: (req) => countSchedules(schedules.list(registry.checkNamespace(req.namespace)), req.query),
    ListScheduleMatchingTimes: (req) => {
      const s = schedules.get(registry.checkNamespace(req.namespace), req.scheduleId ?? '');
      const spec = compileSpec(s.schedule.spec);
      const from = timestampMs(req.startTime) ?? 0;
      const to = timestampMs(req.endTime) ?? from;
      return { startTime: nominalTimesBetween(spec, from, to).map((t) => timestamp(actualTime(spec, s.scheduleId, t))) };
    },
  };
}
