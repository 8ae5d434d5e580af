// Bringing a restored open run back to life (brief 10.17): timers keep their due times, queued
// tasks are re-queued, and tasks handed to a worker before the restart count as lost, because
// polls do not survive a restart.
import type { TimerHandle } from '../clock';
import type { Run } from '../state/run';

export interface ResumeDeps {
  clock: { workChanged(): void };
  openRuns: Set<Run>;
  armRunTimers(run: Run): void;
  armUserTimer(run: Run, timerId: string, startedEventId: number, due: number): TimerHandle | void;
  enqueueWorkflowTask(run: Run): void;
  /** The started workflow task was lost: time it out and retry it. */
  workflowTaskLost(run: Run): void;
  restoreActivities(run: Run): void;
}

export function resumeRun(deps: ResumeDeps, run: Run): void {
  deps.openRuns.add(run);
  deps.armRunTimers(run);
  for (const [timerId, t] of [...run.timers]) deps.armUserTimer(run, timerId, t.startedEventId, t.due);
  if (run.wft.state === 'scheduled') deps.enqueueWorkflowTask(run);
  deps.restoreActivities(run);
  if (run.wft.state === 'started') deps.workflowTaskLost(run);
  deps.clock.workChanged();
}
