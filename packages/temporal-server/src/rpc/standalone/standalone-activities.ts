// Standalone activities (SDK 1.24's client.activity): an activity started by a client on its own,
// run by workers like any activity (same task queues, heartbeats, retries and timeouts), its
// outcome kept on the execution (packages/temporal-server/PROTOCOL.md#standalone-activities).
//
// Start follows the activity id policies (reuse: ALLOW_DUPLICATE by default; conflict: FAIL by
// default); the result is a long poll (PollActivityExecution); Describe can long-poll for any
// change; a cancellation reaches a running attempt through its heartbeat and ends a waiting one at
// once; termination ends it on the spot.
import { randomUUID } from 'node:crypto';
import { activityAlreadyStarted, failedPrecondition, invalidArgument, notFound } from '../../errors';
import { checkIdLength } from '../../limits';
import { waitForChange } from '../../long-poll';
import type { Call, DescribeActivityRequest, DescribeActivityResponse, StartActivityRequest, StartActivityResponse } from '../../messages';
import { ActivityConflictPolicy, ActivityReusePolicy, durationMs, jsonPayload } from '../../proto';
import type { ShutdownSignal } from '../../shutdown';
import { ActivityExecution } from '../../state/activity-execution';
import type { ActivityExecutionRegistry } from '../../state/activity-execution-registry';
import type { SearchAttributeTypes } from '../../state/search-attribute-types';
import { type ActivityAttempts, newActivityState, type ResetOptions, type UnpauseOptions } from '../activity/activity-attempts';
import { type ActivityOptions, changeOptions, type OptionsRequest } from '../activity/activity-options';
import { normaliseTimeouts, scheduledAttributes } from '../activity/schedule-activity';
import { describeActivity, outcomeOf } from './describe-activity';
import { canceledFailure, closeExecution } from './outcome';

export interface StandaloneActivityDeps {
  clock: { now(): number };
  executions: ActivityExecutionRegistry;
  attempts: Pick<ActivityAttempts, 'begin' | 'requestCancel' | 'abandon' | 'pause' | 'unpause' | 'reset' | 'updateOptions' | 'restoreOptions'>;
  searchAttributes: Pick<SearchAttributeTypes, 'typed'>;
  shutdown: Pick<ShutdownSignal, 'stopping'>;
  /** How long a result or describe long poll waits before answering "nothing yet". */
  longPollMs: number;
}

/** Ids naming one execution: the current one of an activity id, or one run of it. */
export interface ActivityRef {
  activityId?: string;
  runId?: string;
}

function validated(req: StartActivityRequest): StartActivityRequest & { activityId: string } {
  if (!req.activityId) throw invalidArgument('activityId is not set');
  if (!req.activityType?.name) throw invalidArgument('activityType is not set');
  if (!req.taskQueue?.name) throw invalidArgument('task queue is not set');
  checkIdLength('ActivityId', req.activityId);
  checkIdLength('ActivityType', req.activityType.name);
  checkIdLength('TaskQueue', req.taskQueue.name);
  checkIdLength('RequestId', req.requestId);
  if (!durationMs(req.scheduleToCloseTimeout) && !durationMs(req.startToCloseTimeout)) {
    throw invalidArgument(
      `a valid StartToCloseTimeout or ScheduleToCloseTimeout must be set on the activity. ActivityId=${req.activityId} ActivityType=${req.activityType.name}`,
    );
  }
  if (durationMs(req.startDelay) < 0) throw invalidArgument('invalid StartDelay: negative');
  return req as StartActivityRequest & { activityId: string };
}

export class StandaloneActivities {
  constructor(private readonly deps: StandaloneActivityDeps) {}

  start(ns: string, request: StartActivityRequest): StartActivityResponse {
    const req = validated(request);
    const { executions, clock } = this.deps;
    const existing = executions.currentFor(ns, req.activityId);
    if (existing && req.requestId && existing.requestIds.has(req.requestId)) return { runId: existing.runId, started: true };
    const reuse = req.idReusePolicy || ActivityReusePolicy.v('ALLOW_DUPLICATE');
    const conflict = req.idConflictPolicy || ActivityConflictPolicy.v('FAIL');
    if (existing?.open) {
      if (conflict === ActivityConflictPolicy.v('USE_EXISTING')) return { runId: existing.runId, started: false };
      throw activityAlreadyStarted([...existing.requestIds][0] ?? '', existing.runId);
    }
    if (
      existing &&
      (reuse === ActivityReusePolicy.v('REJECT_DUPLICATE') ||
        (reuse === ActivityReusePolicy.v('ALLOW_DUPLICATE_FAILED_ONLY') && existing.status === 'COMPLETED'))
    ) {
      throw activityAlreadyStarted([...existing.requestIds][0] ?? '', existing.runId);
    }

    const now = clock.now();
    const delayMs = durationMs(req.startDelay);
    const timeouts = normaliseTimeouts(req, 0);
    const attrs = scheduledAttributes(req, timeouts, req.taskQueue!.name!, 0);
    // The schedule-to-close deadline counts from the first dispatch, after the start delay.
    const act = newActivityState(1, attrs, timeouts, now + delayMs);
    const exec = new ActivityExecution(ns, req.activityId, randomUUID(), { ...req, idReusePolicy: reuse, idConflictPolicy: conflict }, now, act);
    exec.searchAttributes = { ...(this.deps.searchAttributes.typed(req.searchAttributes)?.indexedFields ?? {}) };
    if (req.requestId) exec.requestIds.add(req.requestId);
    executions.add(exec);
    this.deps.attempts.begin(exec, act, { delayMs });
    return { runId: exec.runId, started: true };
  }

  resolve(ns: string, ref: ActivityRef): ActivityExecution {
    if (!ref.activityId) throw invalidArgument('activity ID is required');
    checkIdLength('ActivityId', ref.activityId);
    return this.deps.executions.resolve(ns, ref.activityId, ref.runId || undefined);
  }

  /**
   * DescribeActivityExecution. With a long-poll token (from an earlier describe of the same run)
   * it waits for the execution to change; an empty answer means "nothing yet, ask again".
   */
  async describe(ns: string, req: DescribeActivityRequest, call: Call): Promise<DescribeActivityResponse> {
    if (req.longPollToken?.length && !req.runId) throw invalidArgument('run id is required when long poll token is provided');
    const exec = this.resolve(ns, req);
    if (req.longPollToken?.length) {
      const seen = parseLongPollToken(req.longPollToken);
      if (seen.runId !== exec.runId) throw invalidArgument('long poll token does not match execution');
      await waitForChange(exec, () => exec.version !== seen.version || this.deps.shutdown.stopping, call, this.deps.longPollMs);
      if (exec.version === seen.version) return {};
    }
    return describeActivity(exec, req, longPollToken(exec));
  }

  /** PollActivityExecution: waits for the outcome; an answer without one means "ask again". */
  async poll(ns: string, ref: ActivityRef, call: Call) {
    const exec = this.resolve(ns, ref);
    await waitForChange(exec, () => !exec.open || this.deps.shutdown.stopping, call, this.deps.longPollMs);
    return exec.open ? {} : { runId: exec.runId, outcome: outcomeOf(exec) };
  }

  requestCancel(exec: ActivityExecution, c: { requestId?: string; reason?: string; identity?: string }): void {
    // The same request again (a client retry) is fine, even once the activity is canceled.
    if (c.requestId && exec.cancellation?.requestId === c.requestId) return;
    if (!exec.open) throw failedPrecondition(`activity is in terminal state ${exec.status}`);
    if (exec.cancellation) throw failedPrecondition(`cancellation already requested with request ID ${exec.cancellation.requestId}`);
    exec.cancellation = { requestId: c.requestId, reason: c.reason, identity: c.identity };
    exec.touch();
    if (this.deps.attempts.requestCancel(exec.act)) {
      closeExecution(exec, 'CANCELED', { failure: canceledFailure(exec, { payloads: [jsonPayload(c.reason ?? '')] }) }, this.deps.clock.now());
    }
  }

  terminate(exec: ActivityExecution, t: { requestId?: string; reason?: string; identity?: string }): void {
    if (exec.status === 'TERMINATED') {
      if (exec.terminateRequestId !== t.requestId) throw failedPrecondition(`already terminated with request ID ${exec.terminateRequestId}`);
      return;
    }
    if (!exec.open) throw failedPrecondition(`activity is in terminal state ${exec.status}`);
    this.deps.attempts.abandon(exec.act);
    exec.terminateRequestId = t.requestId;
    closeExecution(exec, 'TERMINATED', { failure: { message: t.reason ?? '', terminatedFailureInfo: { identity: t.identity } } }, this.deps.clock.now());
  }

  /** DeleteActivityExecution: terminates it if it still runs, then forgets it. */
  delete(exec: ActivityExecution): void {
    if (exec.open) this.terminate(exec, { reason: 'Delete activity execution' });
    this.deps.executions.remove(exec);
  }

  pause(exec: ActivityExecution, p: { identity?: string; reason?: string; requestId?: string }): void {
    if (!exec.open) throw notFound('activity execution already completed');
    const done = this.deps.attempts.pause(exec, exec.act, { time: this.deps.clock.now(), identity: p.identity, reason: p.reason, requestId: p.requestId });
    if (done === 'already') throw failedPrecondition('activity is already paused');
  }

  unpause(exec: ActivityExecution, opts: UnpauseOptions): void {
    if (!exec.open) throw notFound('activity execution already completed');
    this.deps.attempts.unpause(exec, exec.act, opts);
  }

  reset(exec: ActivityExecution, opts: ResetOptions): void {
    if (!exec.open) throw notFound('activity execution already completed');
    this.deps.attempts.reset(exec, exec.act, opts);
  }

  /** UpdateActivityExecutionOptions; a new start delay counts while the first attempt still waits for it. */
  updateOptions(exec: ActivityExecution, req: OptionsRequest): ActivityOptions {
    if (!exec.open) throw notFound('activity execution already completed');
    const act = exec.act;
    const newDelay = req.updateMask?.paths?.some((p) => p === 'start_delay' || p === 'startDelay');
    if (newDelay && !req.restoreOriginal && act.state === 'backoff' && act.attempt === 1 && !act.startedTime) {
      const delay = req.activityOptions?.startDelay;
      exec.request.startDelay = delay;
      act.firstScheduledTime = exec.scheduleTime + durationMs(delay);
      act.retryDue = act.firstScheduledTime;
    }
    return { ...changeOptions(this.deps.attempts, exec, act, req, 0), startDelay: exec.request.startDelay };
  }
}

function longPollToken(exec: ActivityExecution): Buffer {
  return Buffer.from(JSON.stringify({ runId: exec.runId, version: exec.version }));
}

function parseLongPollToken(bytes: Uint8Array): { runId: string; version: number } {
  try {
    const t = JSON.parse(Buffer.from(bytes).toString()) as { runId?: unknown; version?: unknown };
    if (typeof t.runId === 'string' && typeof t.version === 'number') return { runId: t.runId, version: t.version };
  } catch {
    // not ours
  }
  throw invalidArgument('invalid long poll token');
}
