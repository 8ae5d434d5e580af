// The handler tables of the three gRPC services, assembled from the RPC families in api/.
import { activityHandlers } from './api/activity/handlers';
import { lifecycleHandlers } from './api/lifecycle/handlers';
import { multiOperationHandlers } from './api/multioperation/handlers';
import { namespaceHandlers, operatorServiceHandlers } from './api/namespace/handlers';
import { queryHandlers } from './api/query/handlers';
import { scheduleHandlers } from './api/schedule/handlers';
import { standaloneActivityHandlers } from './api/standalone/handlers';
import { startHandlers } from './api/start/handlers';
import { testServiceHandlers } from './api/testservice/handlers';
import { updateHandlers } from './api/update/handlers';
import { visibilityHandlers } from './api/visibility/handlers';
import { workflowTaskHandlers } from './api/workflowtask/handlers';
import type { Engine } from './engine';
import type { OperatorServiceHandlers, TestServiceHandlers, WorkflowServiceHandlers } from './messages';

export { SERVER_VERSION } from './api/namespace/handlers';

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
