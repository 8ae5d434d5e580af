// The handler tables of the three gRPC services, assembled from the RPC families in rpc/.
import { activityHandlers } from './rpc/activity/handlers';
import { lifecycleHandlers } from './rpc/lifecycle/handlers';
import { multiOperationHandlers } from './rpc/multioperation/handlers';
import { namespaceHandlers, operatorServiceHandlers } from './rpc/namespace/handlers';
import { queryHandlers } from './rpc/query/handlers';
import { scheduleHandlers } from './rpc/schedule/handlers';
import { standaloneActivityHandlers } from './rpc/standalone/handlers';
import { startHandlers } from './rpc/start/handlers';
import { testServiceHandlers } from './rpc/testservice/handlers';
import { updateHandlers } from './rpc/update/handlers';
import { visibilityHandlers } from './rpc/visibility/handlers';
import { workflowTaskHandlers } from './rpc/workflowtask/handlers';
import type { Engine } from './engine';
import type { OperatorServiceHandlers, TestServiceHandlers, WorkflowServiceHandlers } from './messages';

export { SERVER_VERSION } from './rpc/namespace/handlers';

export interface ServiceOptions {
  longPollMs: number;
  historyLongPollMs: number;
  retentionMs: number;
}

export function workflowServiceHandlers(engine: Engine, opts: ServiceOptions): WorkflowServiceHandlers {
  const { registry, shutdownSignal: shutdown } = engine;
  return {
    ...namespaceHandlers(registry, engine.searchAttributes, opts.retentionMs),
    ...startHandlers({ registry, starter: engine.starter, signals: engine.signals, workflowTasks: engine.workflowTasks }),
    ...lifecycleHandlers({ registry, signals: engine.signals, closer: engine.closer }),
    ...visibilityHandlers({ registry, shutdown, historyLongPollMs: opts.historyLongPollMs }),
    ...queryHandlers(registry, engine.queries),
    ...workflowTaskHandlers({ registry, queues: engine.wftQueues, completion: engine.completion, shutdown, longPollMs: opts.longPollMs }),
    ...activityHandlers({ registry, queues: engine.activityQueues, reports: engine.activityReports, longPollMs: opts.longPollMs }),
    ...updateHandlers(registry, engine.updates),
    ...scheduleHandlers({ registry, schedules: engine.schedules, actions: engine.scheduleActions }),
    ...multiOperationHandlers({ registry, starter: engine.starter, updates: engine.updates }),
    ...standaloneActivityHandlers({ registry, executions: engine.executions, standalone: engine.standalone, controls: engine.activityControls }),
  };
}

export function operatorHandlers(engine: Engine): OperatorServiceHandlers {
  return operatorServiceHandlers(engine.searchAttributes);
}

export function testHandlers(engine: Engine): TestServiceHandlers {
  return testServiceHandlers(engine.clock);
}
