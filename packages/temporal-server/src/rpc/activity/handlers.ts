// Activity RPCs of workers: polling, heartbeats and the three outcomes, by token and by id, for
// workflow activities and standalone ones alike.
import { invalidArgument } from '../../errors';
import type { Call, PollActivityTaskResponse, WorkflowServiceHandlers } from '../../messages';
import type { RunRegistry } from '../../state/run-registry';
import { queueKey, TaskQueues } from '../../task-queues';
import { decodeToken } from '../../tokens';
import type { ActivityReports } from './activity-reports';

export interface ActivityHandlerDeps {
  registry: Pick<RunRegistry, 'checkNamespace'>;
  queues: TaskQueues<PollActivityTaskResponse>;
  reports: ActivityReports;
  longPollMs: number;
}

const onCancelled = (call: Call) => (cb: () => void) => {
  call.on('cancelled', cb);
};

export function activityHandlers({ registry, queues, reports, longPollMs }: ActivityHandlerDeps): WorkflowServiceHandlers {
  // Like the real server, the call's namespace must exist before its token is even looked at.
  const byToken = (req: { namespace?: string; taskToken?: Uint8Array }) => {
    if (req.namespace) registry.checkNamespace(req.namespace);
    return reports.byToken(decodeToken(req.taskToken, req.namespace));
  };
  const byId = (req: { namespace?: string; workflowId?: string; runId?: string; activityId?: string }, anyState = false) =>
    reports.byId({ namespace: registry.checkNamespace(req.namespace), workflowId: req.workflowId, runId: req.runId, activityId: req.activityId }, anyState);

  return {
    PollActivityTaskQueue: async (req, call) => {
      const ns = registry.checkNamespace(req.namespace);
      if (!req.taskQueue?.name) throw invalidArgument('task_queue is required');
      const resp = await queues.poll(queueKey(ns, req.taskQueue.name), req.identity ?? '', longPollMs, () => call.cancelled, onCancelled(call));
      return resp ?? {};
    },
    RecordActivityTaskHeartbeat: (req) => reports.heartbeat(byToken(req), req.details),
    RecordActivityTaskHeartbeatById: (req) => reports.heartbeat(byId(req), req.details),
    RespondActivityTaskCompleted: (req) => {
      reports.completed(byToken(req), req.result, req.identity);
      return {};
    },
    RespondActivityTaskCompletedById: (req) => {
      reports.completed(byId(req, true), req.result, req.identity);
      return {};
    },
    RespondActivityTaskFailed: (req) => {
      reports.failed(byToken(req), req.failure, req.lastHeartbeatDetails, req.identity);
      return {};
    },
    RespondActivityTaskFailedById: (req) => {
      reports.failed(byId(req), req.failure, req.lastHeartbeatDetails, req.identity);
      return {};
    },
    RespondActivityTaskCanceled: (req) => {
      reports.canceled(byToken(req), req.details, req.identity);
      return {};
    },
    RespondActivityTaskCanceledById: (req) => {
      reports.canceled(byId(req), req.details, req.identity);
      return {};
    },
  };
}
