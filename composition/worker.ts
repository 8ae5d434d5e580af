// The platform's Temporal worker (every workflow and activity), for bin/worker (production),
// bin/dev and the tests.
import path from 'node:path';
import { NativeConnection, Worker, Runtime, DefaultLogger, type WorkflowBundle } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { yieldingActivities, type ApiLoadGate } from './api-load';
import { prebuiltWorkflowBundle } from './workflow-bundle';

export interface RunningWorker {
  worker: Worker;
  /** resolves when the worker has stopped */
  finished: Promise<void>;
  shutdown(): Promise<void>;
}

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activityDeps: ActivityDeps;
  /** warn (default) keeps the SDK quiet in tests and dev */
  logLevel?: 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** how long running activities may finish after shutdown was asked for (default 0: cancel them) */
  shutdownGraceMs?: number;
  /**
   * What the worker runs at once (SDK defaults: 100 activities, 100 local activities, 40 workflow
   * tasks). `activities` bounds local activities too; a workflow task keeps its slot while its local
   * activities run (workflows/shared/worker-local-activities.ts), so give it as many.
   */
  slots?: { activities: number; workflowTasks: number };
  /**
   * Record a stack trace of every promise a workflow creates, for the stack trace view of the Temporal
   * UI (the SDK always does; patches/ makes it optional). Default off: it was about a third of the
   * workflow thread's CPU per booking.
   */
  workflowStackTraces?: boolean;
  /** activities wait here while the api on the same machine is saturated (composition/api-load.ts; npm start) */
  yieldTo?: ApiLoadGate;
  /** the workflows already bundled (the tests share one bundle); default: the build's, or bundled now from source */
  workflowBundle?: WorkflowBundle;
}

let runtimeInstalled = false;

function workflowCode(): { workflowBundle: { codePath: string } } | { workflowsPath: string } {
  const codePath = prebuiltWorkflowBundle();
  return codePath ? { workflowBundle: { codePath } } : { workflowsPath: require.resolve(path.join(__dirname, '..', 'workflows')) };
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  if (!runtimeInstalled) {
    runtimeInstalled = true;
    try {
      Runtime.install({ logger: new DefaultLogger(options.logLevel ?? 'WARN') });
    } catch {
      // already installed by someone else in this process (tests)
    }
  }
  // read by the workflow threads the SDK starts below (they copy this process's environment)
  process.env.TEMPORAL_WORKFLOW_STACK_TRACES = options.workflowStackTraces ? 'on' : 'off';
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    // compiled: the bundle `npm run build` made; from source (tests): workflows/index.ts, bundled now
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : workflowCode()),
    activities: createActivities(options.activityDeps),
    ...(options.shutdownGraceMs ? { shutdownGraceTime: options.shutdownGraceMs } : {}),
    ...(options.yieldTo ? { interceptors: { activity: [yieldingActivities(options.yieldTo)] } } : {}),
    ...(options.slots
      ? {
          maxConcurrentActivityTaskExecutions: options.slots.activities,
          maxConcurrentLocalActivityExecutions: options.slots.activities,
          maxConcurrentWorkflowTaskExecutions: options.slots.workflowTasks,
        }
      : {}),
  });
  const finished = worker.run().finally(() => connection.close());
  return {
    worker,
    finished,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await finished;
    },
  };
}
