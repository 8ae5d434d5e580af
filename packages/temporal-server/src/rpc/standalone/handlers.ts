// The activity execution RPCs: standalone activities (start, describe, result, list, count,
// cancel, terminate, delete), and pause, unpause and reset of any activity: the *ActivityExecution
// forms name a workflow's activity when they carry a workflow id, a standalone one otherwise.
import { durationMs } from '../../proto';
import type { WorkflowServiceHandlers } from '../../messages';
import type { ActivityExecutionRegistry } from '../../state/activity-execution-registry';
import type { RunRegistry } from '../../state/run-registry';
import type { ActivityControls } from '../activity/activity-controls';
import { countActivities, listActivities } from './list-activities';
import type { StandaloneActivities } from './standalone-activities';

export interface StandaloneHandlerDeps {
  registry: Pick<RunRegistry, 'checkNamespace'>;
  executions: Pick<ActivityExecutionRegistry, 'all'>;
  standalone: StandaloneActivities;
  controls: ActivityControls;
}

export function standaloneActivityHandlers({ registry, executions, standalone, controls }: StandaloneHandlerDeps): WorkflowServiceHandlers {
  const ns = (req: { namespace?: string }) => registry.checkNamespace(req.namespace);
  const exec = (req: { namespace?: string; activityId?: string; runId?: string }) => standalone.resolve(ns(req), req);
  return {
    StartActivityExecution: (req) => standalone.start(ns(req), req),
    DescribeActivityExecution: (req, call) => standalone.describe(ns(req), req, call),
    PollActivityExecution: (req, call) => standalone.poll(ns(req), req, call),
    ListActivityExecutions: (req) => listActivities(executions, ns(req), req),
    CountActivityExecutions: (req) => countActivities(executions, ns(req), req.query),
    RequestCancelActivityExecution: (req) => {
      standalone.requestCancel(exec(req), req);
      return {};
    },
    TerminateActivityExecution: (req) => {
      standalone.terminate(exec(req), req);
      return {};
    },
    DeleteActivityExecution: (req) => {
      standalone.delete(exec(req));
      return {};
    },

    PauseActivityExecution: (req) => {
      const p = { identity: req.identity, reason: req.reason, requestId: req.requestId };
      if (req.workflowId) controls.pause(ns(req), { workflowId: req.workflowId, runId: req.runId }, { id: req.activityId }, p);
      else standalone.pause(exec(req), p);
      return {};
    },
    UnpauseActivityExecution: (req) => {
      const opts = { jitterMs: durationMs(req.jitter) };
      if (req.workflowId) controls.unpause(ns(req), { workflowId: req.workflowId, runId: req.runId }, { id: req.activityId }, opts);
      else standalone.unpause(exec(req), opts);
      return {};
    },
    ResetActivityExecution: (req) => {
      const opts = { resetHeartbeat: req.resetHeartbeat, keepPaused: req.keepPaused, jitterMs: durationMs(req.jitter) };
      if (req.workflowId) controls.reset(ns(req), { workflowId: req.workflowId, runId: req.runId }, { id: req.activityId }, opts);
      else standalone.reset(exec(req), opts);
      return {};
    },

    UpdateActivityExecutionOptions: (req) => {
      if (req.workflowId)
        return { activityOptions: controls.updateOptions(ns(req), { workflowId: req.workflowId, runId: req.runId }, { id: req.activityId }, req) };
      return { activityOptions: standalone.updateOptions(exec(req), req) };
    },
    UpdateActivityOptions: (req) => ({
      activityOptions: controls.updateOptions(ns(req), req.execution, { id: req.id, type: req.type, all: req.matchAll }, req),
    }),

    PauseActivity: (req) => {
      controls.pause(ns(req), req.execution, { id: req.id, type: req.type }, { identity: req.identity, reason: req.reason, requestId: req.requestId });
      return {};
    },
    UnpauseActivity: (req) => {
      const opts = { resetAttempts: req.resetAttempts, resetHeartbeat: req.resetHeartbeat, jitterMs: durationMs(req.jitter) };
      controls.unpause(ns(req), req.execution, { id: req.id, type: req.type, all: req.unpauseAll }, opts);
      return {};
    },
    ResetActivity: (req) => {
      const opts = { resetHeartbeat: req.resetHeartbeat, keepPaused: req.keepPaused, jitterMs: durationMs(req.jitter) };
      controls.reset(ns(req), req.execution, { id: req.id, type: req.type, all: req.matchAll }, opts);
      return {};
    },
  };
}
