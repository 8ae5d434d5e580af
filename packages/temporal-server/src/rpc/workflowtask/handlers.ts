// Workflow task RPCs: polling (normal and sticky queues) and the two ways a task ends.
import { invalidArgument } from '../../errors';
import type { Call, PollWorkflowTaskResponse, WorkflowServiceHandlers } from '../../messages';
import { TaskQueueKind } from '../../proto';
import type { RunRegistry } from '../../state/run-registry';
import type { ShutdownSignal } from '../../shutdown';
import { queueKey, TaskQueues } from '../../task-queues';
import type { WorkflowTaskCompletion } from './complete-task';

export interface WorkflowTaskHandlerDeps {
  registry: Pick<RunRegistry, 'checkNamespace'>;
  queues: TaskQueues<PollWorkflowTaskResponse>;
  completion: WorkflowTaskCompletion;
  /** Sticky polls are not parked in a task queue: they end on their own at shutdown. */
  shutdown: Pick<ShutdownSignal, 'onStop'>;
  longPollMs: number;
}

const onCancelled = (call: Call) => (cb: () => void) => {
  call.on('cancelled', cb);
};

export function workflowTaskHandlers({ registry, queues, completion, shutdown, longPollMs }: WorkflowTaskHandlerDeps): WorkflowServiceHandlers {
  /** Sticky queues are accepted but never used: every task goes to the normal queue with full history. */
  const parkStickyPoll = (call: Call) =>
    new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(t);
        forget();
        resolve();
      };
      const t = setTimeout(finish, longPollMs);
      call.on('cancelled', finish);
      const forget = shutdown.onStop(finish);
    });

  return {
    PollWorkflowTaskQueue: async (req, call) => {
      const ns = registry.checkNamespace(req.namespace);
      if (req.taskQueue?.kind === TaskQueueKind.STICKY) {
        await parkStickyPoll(call);
        return {};
      }
      if (!req.taskQueue?.name) throw invalidArgument('task_queue is required');
      const resp = await queues.poll(queueKey(ns, req.taskQueue.name), req.identity ?? '', longPollMs, () => call.cancelled, onCancelled(call));
      return resp ?? {};
    },
    RespondWorkflowTaskCompleted: (req) => {
      if (req.namespace) registry.checkNamespace(req.namespace);
      return completion.completed(req);
    },
    RespondWorkflowTaskFailed: (req) => {
      if (req.namespace) registry.checkNamespace(req.namespace);
      completion.failed(req);
      return {};
    },
    ResetStickyTaskQueue: () => ({}),
    ShutdownWorker: () => ({}),
  };
}
