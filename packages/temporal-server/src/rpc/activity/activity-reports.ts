// What workers report about a running activity attempt: heartbeats, completion, failure and
// cancellation, addressed by task token or by id: (workflow, activity id) for a workflow's
// activity, (activity id, run id) without a workflow id for a standalone one.
import { invalidArgument, notFound } from '../../errors';
import type { Failure, Payloads } from '../../messages';
import type { ActivityExecutionRegistry } from '../../state/activity-execution-registry';
import type { ActivityState } from '../../state/activity-state';
import type { RunRegistry } from '../../state/run-registry';
import type { TaskToken } from '../../tokens';
import type { ActivityAttempts, HeartbeatAnswer, Owner } from './activity-attempts';

export interface ActivityReportDeps {
  registry: Pick<RunRegistry, 'runs' | 'resolveRun'>;
  executions: Pick<ActivityExecutionRegistry, 'byRun' | 'resolve'>;
  attempts: Pick<ActivityAttempts, 'heartbeat' | 'completed' | 'failed' | 'close'>;
}

/** An activity and its owner, as a worker's report names it. */
export interface ReportedActivity {
  owner: Owner;
  act: ActivityState;
}

/** Activity ids as the *ById requests carry them. */
export interface ActivityIds {
  namespace: string;
  workflowId?: string;
  runId?: string;
  activityId?: string;
}

const TASK_NOT_FOUND = 'invalid activityID or activity already timed out or invoking workflow is completed';

export class ActivityReports {
  constructor(private readonly deps: ActivityReportDeps) {}

  /** The started activity a task token names, or NOT_FOUND (an older attempt, a closed owner). */
  byToken(token: TaskToken): ReportedActivity {
    if (token.k === 'sact') {
      const exec = this.deps.executions.byRun(token.runId);
      if (!exec?.open || exec.namespace !== token.ns || exec.act.state !== 'started' || exec.act.attempt !== token.attempt)
        throw notFound('activity task not found');
      return { owner: exec, act: exec.act };
    }
    if (token.k !== 'act') throw notFound('not an activity task token');
    const run = this.deps.registry.runs.get(token.runId);
    if (!run?.open) throw notFound('workflow execution already completed');
    const act = run.activities.get(token.scheduledEventId);
    if (!act || act.state !== 'started' || act.attempt !== token.attempt) throw notFound('activity task not found');
    return { owner: run, act };
  }

  /**
   * The activity the ids name. A workflow's must be running on a worker; a standalone one may
   * also be waiting (`anyState`: completion by id ends it even before a worker took it).
   */
  byId(ids: ActivityIds, anyState = false): ReportedActivity {
    if (!ids.activityId) throw invalidArgument('activity id is required');
    if (!ids.workflowId) {
      const exec = this.deps.executions.resolve(ids.namespace, ids.activityId, ids.runId);
      if (!exec.open || (!anyState && exec.act.state !== 'started') || exec.act.state === 'closing') throw notFound(TASK_NOT_FOUND);
      return { owner: exec, act: exec.act };
    }
    const run = this.deps.registry.resolveRun(ids.namespace, { workflowId: ids.workflowId, runId: ids.runId });
    if (!run.open) throw notFound('workflow execution already completed');
    for (const act of run.activities.values()) {
      if (act.activityId === ids.activityId && act.state === 'started') return { owner: run, act };
    }
    throw notFound(`activity ${ids.activityId} not found or not started`);
  }

  heartbeat({ owner, act }: ReportedActivity, details: Payloads | undefined): HeartbeatAnswer {
    return this.deps.attempts.heartbeat(owner, act, details);
  }

  completed({ owner, act }: ReportedActivity, result: Payloads | undefined, identity: string | undefined): void {
    if (act.state !== 'started') return this.deps.attempts.close(owner, act, false, { type: 'ACTIVITY_TASK_COMPLETED', attrs: { result, identity } });
    this.deps.attempts.completed(owner, act, result, identity);
  }

  failed({ owner, act }: ReportedActivity, failure: Failure | undefined, lastHeartbeatDetails: Payloads | undefined, identity: string | undefined): void {
    if (lastHeartbeatDetails) act.heartbeatDetails = lastHeartbeatDetails;
    this.deps.attempts.failed(owner, act, failure, identity);
  }

  canceled({ owner, act }: ReportedActivity, details: Payloads | undefined, identity: string | undefined): void {
    if (!act.cancelRequested) throw invalidArgument('unable to mark activity as canceled without activity being request canceled first');
    this.deps.attempts.close(owner, act, true, {
      type: 'ACTIVITY_TASK_CANCELED',
      attrs: { details, identity, latestCancelRequestedEventId: act.cancelRequestedEventId },
    });
  }
}
