// PauseActivity, UnpauseActivity and ResetActivity on a workflow's pending activities, chosen by
// activity id, by activity type or all of them (packages/temporal-server/PROTOCOL.md#activities: pause, unpause, reset).
import { failedPrecondition, notFound } from '../../errors';
import type { WorkflowExecution } from '../../messages';
import type { ActivityState } from '../../state/activity-state';
import type { Run } from '../../state/run';
import type { RunRegistry } from '../../state/run-registry';
import { durationMs } from '../../proto';
import type { ActivityAttempts, ResetOptions, UnpauseOptions } from './activity-attempts';
import { type ActivityOptions, changeOptions, type OptionsRequest } from './activity-options';

export interface ActivityControlDeps {
  clock: { now(): number };
  registry: Pick<RunRegistry, 'resolveRun'>;
  attempts: Pick<ActivityAttempts, 'pause' | 'unpause' | 'reset' | 'updateOptions' | 'restoreOptions'>;
}

/** Which pending activities a request means. */
export interface ActivitySelection {
  id?: string;
  type?: string;
  all?: boolean;
}

const NO_SUCH_ACTIVITY = "Can't find pending activity with such ID. Invalid activityID or activity already completed";

export class ActivityControls {
  constructor(private readonly deps: ActivityControlDeps) {}

  private select(ns: string, execution: WorkflowExecution | undefined, which: ActivitySelection): { run: Run; acts: ActivityState[] } {
    const run = this.deps.registry.resolveRun(ns, execution);
    if (!run.open) throw notFound('workflow execution already completed');
    const pending = [...run.activities.values()].filter((a) => a.state !== 'closing');
    const acts = which.all
      ? pending
      : which.id !== undefined
        ? pending.filter((a) => a.activityId === which.id)
        : pending.filter((a) => a.activityType === which.type);
    if (!acts.length) throw notFound(NO_SUCH_ACTIVITY);
    return { run, acts };
  }

  pause(ns: string, execution: WorkflowExecution | undefined, which: ActivitySelection, p: { identity?: string; reason?: string; requestId?: string }): void {
    const { run, acts } = this.select(ns, execution, which);
    const pause = { time: this.deps.clock.now(), identity: p.identity, reason: p.reason, requestId: p.requestId };
    for (const act of acts) {
      if (this.deps.attempts.pause(run, act, pause) === 'already') throw failedPrecondition('activity is already paused');
    }
  }

  unpause(ns: string, execution: WorkflowExecution | undefined, which: ActivitySelection, opts: UnpauseOptions): void {
    const { run, acts } = this.select(ns, execution, which);
    for (const act of acts) this.deps.attempts.unpause(run, act, opts);
  }

  reset(ns: string, execution: WorkflowExecution | undefined, which: ActivitySelection, opts: ResetOptions): void {
    const { run, acts } = this.select(ns, execution, which);
    for (const act of acts) this.deps.attempts.reset(run, act, opts);
  }

  /** UpdateActivityOptions: returns the options the (last) chosen activity runs with now. */
  updateOptions(ns: string, execution: WorkflowExecution | undefined, which: ActivitySelection, req: OptionsRequest): ActivityOptions {
    const { run, acts } = this.select(ns, execution, which);
    let options: ActivityOptions = {};
    for (const act of acts) options = changeOptions(this.deps.attempts, run, act, req, durationMs(run.startRequest.workflowRunTimeout));
    return options;
  }
}
