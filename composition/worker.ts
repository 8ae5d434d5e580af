// The platform's Temporal worker (every workflow and activity), for bin/worker (production),
// bin/dev and the tests.
import path from 'node:path';
import { NativeConnection, Worker, Runtime, DefaultLogger, type WorkflowBundle, type WorkerOptions as SdkWorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { yieldingActivities, type ApiLoadGate } from './api-load';
import { prebuiltWorkflowBundle } from './workflow-bundle';
import { smsTaskQueue } from '../workflows/shared/sms-queue';

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
  /** workflows kept in memory between their tasks (default: the SDK's, from the heap limit) */
  maxCachedWorkflows?: number;
  /**
   * SMS a second at most across every worker on the task queue's SMS queue (the server enforces it):
   * the reminders that fall due together go out at this pace (docs/rules/reminders.md#the-send-rate).
   * Default: no limit.
   */
  smsSendRatePerSecond?: number;
  /** activities wait here while the api on the same machine is saturated (composition/api-load.ts; npm start) */
  yieldTo?: ApiLoadGate;
  /** the workflows already bundled (the tests share one bundle); default: the build's, or bundled now from source */
  workflowBundle?: WorkflowBundle;
}

/**
 * The worker of the SMS queue beside `taskQueue` (workflows/shared/sms-queue.ts): activities only, at
 * most `ratePerSecond` of them a second across every worker of that queue (the server enforces it).
 */
export function createSmsWorker(
  options: Pick<SdkWorkerOptions, 'connection' | 'namespace' | 'activities' | 'shutdownGraceTime' | 'interceptors' | 'maxConcurrentActivityTaskExecutions'> & {
    taskQueue: string;
    ratePerSecond?: number;
  },
): Promise<Worker> {
  const { taskQueue, ratePerSecond, ...rest } = options;
  return Worker.create({ ...rest, taskQueue: smsTaskQueue(taskQueue), ...(ratePerSecond ? { maxTaskQueueActivitiesPerSecond: ratePerSecond } : {}) });
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
  const activities = createActivities(options.activityDeps);
  const interceptors = options.yieldTo ? { interceptors: { activity: [yieldingActivities(options.yieldTo)] } } : {};
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    // compiled: the bundle `npm run build` made; from source (tests): workflows/index.ts, bundled now
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : workflowCode()),
    activities,
    ...(options.shutdownGraceMs ? { shutdownGraceTime: options.shutdownGraceMs } : {}),
    ...interceptors,
    ...(options.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: options.maxCachedWorkflows } : {}),
    ...(options.slots
      ? {
          maxConcurrentActivityTaskExecutions: options.slots.activities,
          maxConcurrentLocalActivityExecutions: options.slots.activities,
          maxConcurrentWorkflowTaskExecutions: options.slots.workflowTasks,
        }
      : {}),
  });
  const smsWorker = await createSmsWorker({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities,
    ratePerSecond: options.smsSendRatePerSecond,
    ...(options.shutdownGraceMs ? { shutdownGraceTime: options.shutdownGraceMs } : {}),
    ...interceptors,
    ...(options.slots ? { maxConcurrentActivityTaskExecutions: options.slots.activities } : {}),
  });
  const stop = (w: Worker) => {
    if (w.getState() === 'RUNNING') w.shutdown();
  };
  // one stopping (a fatal error) stops the other; the connection closes once both have
  const runs = [worker, smsWorker].map((w, i, both) => w.run().finally(() => stop(both[1 - i])));
  const finished = Promise.allSettled(runs)
    .then(([main, paced]) => {
      for (const run of [main, paced]) if (run.status === 'rejected') throw run.reason;
    })
    .finally(() => connection.close());
  return {
    worker,
    finished,
    async shutdown() {
      stop(worker);
      stop(smsWorker);
      await finished;
    },
  };
}
