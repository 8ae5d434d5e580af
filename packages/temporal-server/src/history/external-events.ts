// Events that come from outside the workflow's own commands: signals, cancel requests, fired
// timers, activity and child results. Written at once when no workflow task is started (and a
// task is scheduled so the workflow sees them), buffered otherwise.
import type { TimerHandle } from '../clock';
import type { EventName, NewEvent } from '../messages';
import type { BufferedEvent, Run } from '../state/run';
import type { WorkflowTasks } from '../rpc/workflowtask/workflow-tasks';
import { writeExternalEvent } from './buffered-events';

export interface ExternalEventDeps {
  clock: { now(): number; at(due: number, fn: () => void): TimerHandle };
  workflowTasks: Pick<WorkflowTasks, 'schedule'>;
}

export class ExternalEvents {
  constructor(private readonly deps: ExternalEventDeps) {}

  /** Adds a non-command event; buffered while a workflow task is started. */
  add(run: Run, b: BufferedEvent): void {
    if (!run.open) return;
    if (run.wft.state === 'started') {
      run.buffered.push(b);
      run.touch();
      return;
    }
    writeExternalEvent(run, b, this.deps.clock.now());
    if (run.wft.state === 'none' && !run.startDelayPending) this.deps.workflowTasks.schedule(run);
  }

  /** Shorthand for a single event. */
  addOne<E extends EventName>(run: Run, type: E, attrs: Extract<NewEvent, { type: E }>['attrs']): void {
    this.add(run, { events: [{ type, attrs } as NewEvent] });
  }

  /** (Re-)arms a user timer; TimerFired goes through the buffer like any external event. */
  armUserTimer(run: Run, timerId: string, startedEventId: number, due: number): void {
    const handle = this.deps.clock.at(due, () => {
      const t = run.timers.get(timerId);
      if (!run.open || !t || t.startedEventId !== startedEventId) return;
      run.timers.delete(timerId);
      this.add(run, {
        events: [{ type: 'TIMER_FIRED', attrs: { timerId, startedEventId } }],
        timerId,
        timerStartedEventId: startedEventId,
      });
    });
    run.timers.set(timerId, { startedEventId, due, handle });
  }
}
