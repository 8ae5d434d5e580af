// The composition root of the server: creates the run registry, the clock, the task queues and
// one object per RPC family, each given the objects it depends on in its constructor. Objects are
// created in dependency order, so nothing refers to an object that does not exist yet; the only
// links made after construction are listeners (who hears that a run closed, who stores changes).
// No behaviour of its own lives here; see the README's file table for where each rule is.
import { ActivityAttempts } from './rpc/activity/activity-attempts';
import { ActivityControls } from './rpc/activity/activity-controls';
import { ActivityReports } from './rpc/activity/activity-reports';
import { RunCloser } from './rpc/lifecycle/close-run';
import { RunFailure } from './rpc/lifecycle/fail-run';
import { SignalAndCancel } from './rpc/lifecycle/signal-and-cancel';
import { Queries } from './rpc/query/queries';
import { ScheduleActions } from './rpc/schedule/schedule-actions';
import { Schedules } from './rpc/schedule/schedules';
import { StandaloneActivities } from './rpc/standalone/standalone-activities';
import { RunFactory } from './rpc/start/create-run';
import { WorkflowStarter } from './rpc/start/start-workflow';
import { Updates } from './rpc/update/updates';
import { CrossWorkflowCommands } from './rpc/workflowtask/commands/cross-workflow-commands';
import { WorkflowCommands } from './rpc/workflowtask/commands/workflow-commands';
import { WorkflowTaskCompletion } from './rpc/workflowtask/complete-task';
import { WorkflowTasks } from './rpc/workflowtask/workflow-tasks';
import { VirtualClock } from './clock';
import { ExternalEvents } from './history/external-events';
import type { PollActivityTaskResponse, PollWorkflowTaskResponse } from './messages';
import { ActivityPersistence } from './persistence/activity-persistence';
import type { ActivityStore } from './persistence/activity-store';
import { RunResumer } from './persistence/resume-run';
import { RunPersistence } from './persistence/run-persistence';
import { SchedulePersistence } from './persistence/schedule-persistence';
import type { ScheduleStore } from './persistence/schedule-store';
import type { RunStore } from './persistence/run-store';
import { ShutdownSignal } from './shutdown';
import { ActivityExecutionRegistry } from './state/activity-execution-registry';
import { RunRegistry } from './state/run-registry';
import { SearchAttributeTypes } from './state/search-attribute-types';
import { TaskQueues } from './task-queues';

export interface EngineOptions {
  timeSkipping: boolean;
  namespaces: string[];
  /** How long result and describe long polls of standalone activities wait before answering "not yet". */
  longPollMs: number;
  /** Where the scheduler reports actions it could not take. */
  log(msg: string): void;
}

/** Work a worker has or could take, over runs and standalone activities (the time-skipping lock count). */
class OutstandingWork {
  constructor(private readonly registries: { outstandingWork(): number }[]) {}

  outstandingWork(): number {
    let n = 0;
    for (const r of this.registries) n += r.outstandingWork();
    return n;
  }
}

export class Engine {
  readonly registry: RunRegistry;
  readonly executions = new ActivityExecutionRegistry();
  readonly clock: VirtualClock;
  readonly wftQueues = new TaskQueues<PollWorkflowTaskResponse>();
  readonly activityQueues = new TaskQueues<PollActivityTaskResponse>();
  /** Custom search attributes and their IndexedValueType (launcher flags, OperatorService). */
  readonly searchAttributeTypes = new Map<string, number>();
  /** Those and the predefined ones; stamps values with their type as they come in. */
  readonly searchAttributes = new SearchAttributeTypes(this.searchAttributeTypes);
  readonly shutdownSignal = new ShutdownSignal();
  /** Set when runs are stored (dev-server role with a database). */
  persistence?: RunPersistence;
  schedulePersistence?: SchedulePersistence;
  activityPersistence?: ActivityPersistence;

  readonly workflowTasks: WorkflowTasks;
  readonly events: ExternalEvents;
  readonly signals: SignalAndCancel;
  readonly queries: Queries;
  readonly updates: Updates;
  readonly activities: ActivityAttempts;
  readonly activityReports: ActivityReports;
  readonly activityControls: ActivityControls;
  readonly standalone: StandaloneActivities;
  readonly closer: RunCloser;
  readonly runFactory: RunFactory;
  readonly starter: WorkflowStarter;
  readonly completion: WorkflowTaskCompletion;
  readonly scheduleActions: ScheduleActions;
  readonly schedules: Schedules;

  constructor(options: EngineOptions) {
    const searchAttributes = this.searchAttributes;
    const registry = (this.registry = new RunRegistry(options.namespaces));
    const executions = this.executions;
    const clock = (this.clock = new VirtualClock({ timeSkipping: options.timeSkipping, work: new OutstandingWork([registry, executions]) }));
    const workflowTasks = (this.workflowTasks = new WorkflowTasks({ clock, queues: this.wftQueues, registry }));
    const events = (this.events = new ExternalEvents({ clock, workflowTasks }));
    const signals = (this.signals = new SignalAndCancel({ events }));
    const queries = (this.queries = new Queries({ registry, queues: this.wftQueues }));
    const updates = (this.updates = new Updates({ clock, registry, workflowTasks, shutdown: this.shutdownSignal }));
    const activities = (this.activities = new ActivityAttempts({ clock, queues: this.activityQueues, events }));
    this.activityReports = new ActivityReports({ registry, executions, attempts: activities });
    this.activityControls = new ActivityControls({ clock, registry, attempts: activities });
    this.standalone = new StandaloneActivities({
      clock,
      executions,
      attempts: activities,
      searchAttributes,
      shutdown: this.shutdownSignal,
      longPollMs: options.longPollMs,
    });
    const closer = (this.closer = new RunCloser({ clock, registry, events, signals, queries }));
    const runFactory = (this.runFactory = new RunFactory({ clock, registry, searchAttributes, workflowTasks, closer }));
    const starter = (this.starter = new WorkflowStarter({ registry, runs: runFactory, closer, workflowTasks }));
    const scheduleActions = (this.scheduleActions = new ScheduleActions({ clock, registry, starter, closer, signals, log: options.log }));
    const schedules = (this.schedules = new Schedules({ clock, actions: scheduleActions, searchAttributes }));
    const failures = new RunFailure({ clock, closer, runs: runFactory });
    this.completion = new WorkflowTaskCompletion({
      clock,
      tasks: workflowTasks,
      activities,
      updates,
      queries,
      commands: new WorkflowCommands({ clock, timers: events, closer, failures, searchAttributes }),
      crossWorkflow: new CrossWorkflowCommands({ clock, registry, starter, signals, events, searchAttributes }),
      continueAsNew: { clock, closer, runs: runFactory, searchAttributes },
    });
    // A closing run releases its activity timers and open updates, and may let a schedule start
    // the action it buffered behind it.
    closer.addListener(activities);
    closer.addListener(updates);
    closer.addListener(schedules);
  }

  now(): number {
    return this.clock.now();
  }

  /** Keeps every run in `store` and restores the stored ones (dev-server role). */
  /** Resolves once every change made so far is in the stores (none attached: at once). */
  async flushStores(): Promise<void> {
    await Promise.all([this.persistence?.flush(), this.activityPersistence?.flush(), this.schedulePersistence?.flush()]);
  }

  attachStore(store: RunStore): RunPersistence {
    const resumer = new RunResumer({
      clock: this.clock,
      registry: this.registry,
      runFactory: this.runFactory,
      events: this.events,
      workflowTasks: this.workflowTasks,
      activities: this.activities,
    });
    const persistence = (this.persistence = new RunPersistence({ registry: this.registry, resumer, store }));
    this.registry.setTracker(persistence);
    return persistence;
  }

  /** Keeps every standalone activity in `store` and restores the stored ones. */
  async attachActivityStore(store: ActivityStore): Promise<ActivityPersistence> {
    const persistence = (this.activityPersistence = new ActivityPersistence({ executions: this.executions, attempts: this.activities, store }));
    this.executions.setTracker(persistence);
    await persistence.restore();
    return persistence;
  }

  /** Keeps every schedule in `store` and restores the stored ones (after the runs). */
  async attachScheduleStore(store: ScheduleStore): Promise<SchedulePersistence> {
    const persistence = (this.schedulePersistence = new SchedulePersistence(store));
    await persistence.restore(this.schedules);
    this.schedules.setListener(persistence);
    return persistence;
  }

  /**
   * Forgets runs closed more than `retentionMs` ago (the namespace retention DescribeNamespace
   * reports). Returns the forgotten run ids so a store can delete them too.
   */
  purgeClosedRuns(retentionMs: number): string[] {
    return this.registry.purgeClosedBefore(this.now() - retentionMs);
  }

  /** The same for standalone activities (the store forgets them too). */
  purgeClosedActivities(retentionMs: number): void {
    this.executions.purgeClosedBefore(this.now() - retentionMs);
  }

  shutdown(): void {
    this.shutdownSignal.stop();
    this.clock.stop();
    this.wftQueues.releaseAll();
    this.activityQueues.releaseAll();
    for (const run of this.registry.runs.values()) for (const w of [...run.waiters]) w();
    for (const exec of this.executions.all()) for (const w of [...exec.waiters]) w();
  }
}
