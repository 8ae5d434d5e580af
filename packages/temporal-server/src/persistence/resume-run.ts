// Bringing a restored open run back to life: timers keep their due times, queued tasks are
// re-queued, and tasks handed to a worker before the restart count as lost, because polls do not
// survive a restart (packages/temporal-server/PROTOCOL.md#persistence).
import type { ActivityAttempts } from '../rpc/activity/activity-attempts';
import type { RunFactory } from '../rpc/start/create-run';
import type { WorkflowTasks } from '../rpc/workflowtask/workflow-tasks';
import type { ExternalEvents } from '../history/external-events';
import type { Run } from '../state/run';
import type { RunRegistry } from '../state/run-registry';

export interface ResumeDeps {
  clock: { workChanged(): void };
  registry: Pick<RunRegistry, 'openRuns'>;
  runFactory: Pick<RunFactory, 'armRunTimers'>;
  events: Pick<ExternalEvents, 'armUserTimer'>;
  workflowTasks: Pick<WorkflowTasks, 'enqueue' | 'timedOut'>;
  activities: Pick<ActivityAttempts, 'restore'>;
}

export class RunResumer {
  constructor(private readonly deps: ResumeDeps) {}

  resume(run: Run): void {
    const { clock, registry, runFactory, events, workflowTasks, activities } = this.deps;
    registry.openRuns.add(run);
    runFactory.armRunTimers(run);
    for (const [timerId, t] of [...run.timers]) events.armUserTimer(run, timerId, t.startedEventId, t.due);
    if (run.wft.state === 'scheduled') workflowTasks.enqueue(run);
    activities.restore(run);
    // The started workflow task was lost with its poll: time it out and retry it.
    if (run.wft.state === 'started') workflowTasks.timedOut(run);
    clock.workChanged();
  }
}
