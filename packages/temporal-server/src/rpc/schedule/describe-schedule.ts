// A schedule as DescribeSchedule and ListSchedules show it.
import type { ScheduleInfo, ScheduleListEntry } from '../../messages';
import { timestamp } from '../../proto';
import type { ScheduleActions } from './schedule-actions';
import type { ScheduleState } from './schedule-state';
import type { Schedules } from './schedules';

export interface ScheduleViewDeps {
  schedules: Pick<Schedules, 'futureActionTimes'>;
  actions: Pick<ScheduleActions, 'refreshRunning'>;
}

export function scheduleInfo(deps: ScheduleViewDeps, s: ScheduleState): ScheduleInfo {
  deps.actions.refreshRunning(s);
  return {
    actionCount: s.actionCount,
    missedCatchupWindow: s.missedCatchupWindow,
    overlapSkipped: s.overlapSkipped,
    bufferDropped: s.bufferDropped,
    bufferSize: s.buffer.length,
    runningWorkflows: s.running.map((r) => ({ workflowId: r.workflowId, runId: r.runId })),
    recentActions: s.recentActions,
    futureActionTimes: deps.schedules.futureActionTimes(s).map(timestamp),
    createTime: timestamp(s.createTime),
    updateTime: s.updateTime !== undefined ? timestamp(s.updateTime) : undefined,
  };
}

export function listEntry(deps: ScheduleViewDeps, s: ScheduleState): ScheduleListEntry {
  return {
    scheduleId: s.scheduleId,
    memo: s.memo,
    searchAttributes: s.searchAttributes,
    info: {
      spec: s.schedule.spec,
      workflowType: s.schedule.action?.startWorkflow?.workflowType,
      notes: s.schedule.state?.notes,
      paused: s.schedule.state?.paused,
      recentActions: s.recentActions.slice(-5),
      futureActionTimes: deps.schedules.futureActionTimes(s).slice(0, 5).map(timestamp),
    },
  };
}
