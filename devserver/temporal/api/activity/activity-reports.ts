// What workers report about a running activity attempt: heartbeats, completion, failure and
// cancellation, addressed by task token or by (workflow, activity id).
import { invalidArgument, notFound } from '../../errors';
import type { Failure, Payloads } from '../../messages';
import type { ActivityState, Run } from '../../state/run';
import type { RunRegistry } from '../../state/run-registry';
import type { ActivityAttempts } from './activity-attempts';

export interface ActivityReportDeps {
  registry: Pick<RunRegistry, 'runs' | 'resolveRun'>;
  attempts: Pick<ActivityAttempts, 'armHeartbeatTimer' | 'failed' | 'close'>;
}

export interface StartedActivity { run: Run; act: ActivityState }

export class ActivityReports {
  constructor(private readonly deps: ActivityReportDeps) {}

  /** Finds the started activity a task token names, or NOT_FOUND. */
  byToken(token: { runId: string; scheduledEventId: number; attempt: number }): StartedActivity {
    const run = this.deps.registry.runs.get(token.runId);
    if (!run?.open) throw notFound('workflow execution already completed');
    const act = run.activities.get(token.scheduledEventId);
    if (!act || act.state !== 'started' || act.attempt !== token.attempt) throw notFound('activity task not found');
    return { run, act };
  }

  byId(ns: string, workflowId: string | undefined, runId: string | undefined, activityId: string | undefined): StartedActivity {
    const run = this.deps.registry.resolveRun(ns, { workflowId, runId });
    if (!run.open) throw notFound('workflow execution already completed');
    for (const act of run.activities.values()) {
      if (act.activityId === activityId && act.state === 'started') return { run, act };
    }
    throw notFound(`activity ${activityId} not found or not started`);
  }

  heartbeat({ run, act }: StartedActivity, details: Payloads | undefined): { cancelRequested: boolean } {
    if (details) {
      act.heartbeatDetails = details;
      run.touch();
    }
    this.deps.attempts.armHeartbeatTimer(run, act);
    return { cancelRequested: act.cancelRequested };
  }

  completed({ run, act }: StartedActivity, result: Payloads | undefined, identity: string | undefined): void {
    this.deps.attempts.close(run, act, true, { type: 'ACTIVITY_TASK_COMPLETED', attrs: { result, identity } });
  }

  failed({ run, act }: StartedActivity, failure: Failure | undefined, lastHeartbeatDetails: Payloads | undefined, identity: string | undefined): void {
    if (lastHeartbeatDetails) act.heartbeatDetails = lastHeartbeatDetails;
    this.deps.attempts.failed(run, act, failure, identity);
  }

  canceled({ run, act }: StartedActivity, details: Payloads | undefined, identity: string | undefined): void {
    if (!act.cancelRequested) throw invalidArgument('activity cancellation was not requested');
    this.deps.attempts.close(run, act, true, { type: 'ACTIVITY_TASK_CANCELED', attrs: { details, identity, latestCancelRequestedEventId: act.cancelRequestedEventId } });
  }
}
