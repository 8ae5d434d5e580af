// The composition root of the server: creates the run registry, the clock, the task queues and
// one object per RPC family, and wires each to the narrow interface it declares. No behaviour of
// its own lives here; see the README's file table for where each rule is.
import { ActivityAttempts } from './api/activity/activity-attempts';
import { ActivityReports } from './api/activity/activity-reports';
import { RunCloser } from './api/lifecycle/close-run';
import { RunFailure } from './api/lifecycle/fail-run';
import { SignalAndCancel } from './api/lifecycle/signal-and-cancel';
import { Queries } from './api/query/queries';
import { ScheduleActions } from './api/schedule/schedule-actions';
import { Schedules } from './api/schedule/schedules';
import { RunFactory } from './api/start/create-run';
import { WorkflowStarter } from './api/start/start-workflow';
import { Updates } from './api/update/updates';
import { CrossWorkflowCommands } from './api/workflowtask/commands/cross-workflow-commands';
import { WorkflowCommands } from './api/workflowtask/commands/workflow-commands';
import { WorkflowTaskCompletion } from './api/workflowtask/complete-task';
import { WorkflowTasks } from './api/workflowtask/workflow-tasks';
import { VirtualClock } from './clock';
import { ExternalEvents } from './history/external-events';
import type { PollActivityTaskResponse, PollWorkflowTaskResponse } from './messages';
import { resumeRun } from './persistence/resume-run';
import { RunPersistence } from './persistence/run-persistence';
import { SchedulePersistence } from './persistence/schedule-persistence';
import type { ScheduleStore } from './persistence/schedule-store';
import type { RunStore } from './persistence/run-store';
import { RunRegistry } from './state/run-registry';
import { SearchAttributeTypes } from './state/search-attribute-types';
import { TaskQueues } from './task-queues';

export interface EngineOptions {
  timeSkipping: boolean;
  namespaces: string[];
}

export class Engine {
  readonly registry: RunRegistry;
  readonly clock: VirtualClock;
  readonly wftQueues = new TaskQueues<PollWorkflowTaskResponse>();
  readonly activityQueues = new TaskQueues<PollActivityTaskResponse>();
  /** Custom search attributes and their IndexedValueType (launcher flags, OperatorService). */
  readonly searchAttributeTypes = new Map<string, number>();
  /** Those and the predefined ones; stamps values with their type as they come in. */
  readonly searchAttributes = new SearchAttributeTypes(this.searchAttributeTypes);
  /** Long polls that are not in a task queue (sticky polls) register here to end at shutdown. */
  readonly stopWaiters = new Set<() => void>();
  stopping = false;
  /** Set when runs are stored (dev-server role with a database). */
  persistence?: RunPersistence;
  schedulePersistence?: SchedulePersistence;

  readonly workflowTasks: WorkflowTasks;
  readonly events: ExternalEvents;
  readonly signals: SignalAndCancel;
  readonly queries: Queries;
  readonly updates: Updates;
  readonly activities: ActivityAttempts;
  readonly activityReports: ActivityReports;
  readonly closer: RunCloser;
  readonly runFactory: RunFactory;
  readonly starter: WorkflowStarter;
  readonly completion: WorkflowTaskCompletion;
  readonly scheduleActions: ScheduleActions;
  readonly schedules: Schedules;

  constructor(options: EngineOptions) {
    const registry = this.registry = new RunRegistry(options.namespaces);
    const clock = this.clock = new VirtualClock(options.timeSkipping, () => registry.outstandingWork());
    const scheduleWorkflowTask = (run: Parameters<WorkflowTasks['schedule']>[0]) => workflowTasks.schedule(run);

    // Workflow tasks carry update requests, and updates schedule workflow tasks: the closure
    // below reads `updates` only when a task is started, after construction.
    const workflowTasks = this.workflowTasks = new WorkflowTasks({
      clock, queues: this.wftQueues, runs: registry.runs,
      messagesFor: (run, startedEventId) => updates.messagesFor(run, startedEventId),
    });
    const events = this.events = new ExternalEvents({ clock, scheduleWorkflowTask });
    const signals = this.signals = new SignalAndCancel({ events });
    const queries = this.queries = new Queries({ registry, queues: this.wftQueues });
    const updates = this.updates = new Updates({ clock, registry, scheduleWorkflowTask, isStopping: () => this.stopping });
    const activities = this.activities = new ActivityAttempts({ clock, queues: this.activityQueues, events });
    this.activityReports = new ActivityReports({ registry, attempts: activities });
    const closer = this.closer = new RunCloser({
      clock, registry, events, cancels: signals,
      dispatchLegacyQuery: (run, q) => queries.dispatchLegacy(run, q),
      onClosed: (run) => {
        activities.releaseRun(run);
        updates.abortAll(run);
        schedules.runClosed();
      },
    });
    const searchAttributes = this.searchAttributes;
    const runFactory = this.runFactory = new RunFactory({ clock, registry, searchAttributes, scheduleWorkflowTask, timeoutRun: (run) => closer.timeout(run) });
    const starter = this.starter = new WorkflowStarter({ registry, runs: runFactory, terminate: (run, reason, details, identity) => closer.terminate(run, reason, details, identity) });
    const scheduleActions = this.scheduleActions = new ScheduleActions({
      now: () => clock.now(), registry, starter,
      terminate: (run, reason) => closer.terminate(run, reason, undefined, 'temporal-scheduler'),
      requestCancel: (run, reason) => signals.requestCancel(run, reason, 'temporal-scheduler'),
      log: (msg) => console.error(`[temporal-devserver] ${msg}`),
    });
    const schedules = this.schedules = new Schedules({ clock, actions: scheduleActions });
    const failures = new RunFailure({ clock, closer, runs: runFactory });
    this.completion = new WorkflowTaskCompletion({
      clock, tasks: workflowTasks, activities, updates, queries,
      commands: new WorkflowCommands({ clock, timers: events, closer, failures, searchAttributes }),
      crossWorkflow: new CrossWorkflowCommands({ clock, registry, starter, signals, events, searchAttributes }),
      continueAsNew: { clock, closer, runs: runFactory, searchAttributes },
    });
  }

  now(): number {
    return this.clock.now();
  }

  /** Keeps every run in `store` and restores the stored ones (dev-server role). */
  attachStore(store: RunStore): RunPersistence {
    const persistence = this.persistence = new RunPersistence({
      adopt: (run) => this.registry.adopt(run),
      resume: (run) => resumeRun({
        clock: this.clock,
        openRuns: this.registry.openRuns,
        armRunTimers: (r) => this.runFactory.armRunTimers(r),
        armUserTimer: (r, timerId, startedEventId, due) => this.events.armUserTimer(r, timerId, startedEventId, due),
        enqueueWorkflowTask: (r) => this.workflowTasks.enqueue(r),
        workflowTaskLost: (r) => this.workflowTasks.timedOut(r),
        restoreActivities: (r) => this.activities.restore(r),
      }, run),
    }, store);
    this.registry.onTrack = (run) => persistence.track(run);
    return persistence;
  }

  /** Keeps every schedule in `store` and restores the stored ones (after the runs). */
  async attachScheduleStore(store: ScheduleStore): Promise<SchedulePersistence> {
    const persistence = this.schedulePersistence = new SchedulePersistence(store);
    await persistence.restore((s) => this.schedules.restore(s));
    this.schedules.listener = persistence;
    return persistence;
  }

  /**
   * Forgets runs closed more than `retentionMs` ago (the namespace retention DescribeNamespace
   * reports). Returns the forgotten run ids so a store can delete them too.
   */
  purgeClosedRuns(retentionMs: number): string[] {
    return this.registry.purgeClosedBefore(this.now() - retentionMs);
  }

  shutdown(): void {
    this.stopping = true;
    for (const w of this.stopWaiters) w();
    this.clock.stop();
    this.wftQueues.releaseAll();
    this.activityQueues.releaseAll();
    for (const run of this.registry.runs.values()) for (const w of [...run.waiters]) w();
  }
}
