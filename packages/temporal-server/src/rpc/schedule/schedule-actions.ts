// Taking a schedule's actions: the overlap policy decides whether a start happens now, waits in
// the buffer for the running workflow to close, or is skipped; started workflows get the real
// server's id (`<action workflow id>-<nominal time, RFC 3339 seconds>`) and the
// TemporalScheduledById / TemporalScheduledStartTime search attributes.
import type { Run } from '../../state/run';
import type { RunRegistry } from '../../state/run-registry';
import type { RunCloser } from '../lifecycle/close-run';
import type { SignalAndCancel } from '../lifecycle/signal-and-cancel';
import type { WorkflowStarter } from '../start/start-workflow';
import { jsonPayload, OverlapPolicy, ReusePolicy, timestamp } from '../../proto';
import { MAX_BUFFER, RECENT_ACTIONS, type PendingStart, type ScheduleState } from './schedule-state';

export interface ActionDeps {
  clock: { now(): number };
  registry: Pick<RunRegistry, 'currentRun'>;
  starter: Pick<WorkflowStarter, 'start'>;
  closer: Pick<RunCloser, 'terminate'>;
  signals: Pick<SignalAndCancel, 'requestCancel'>;
  log(msg: string): void;
}

/** Who the overlap policies' terminations and cancellations name. */
const SCHEDULER = 'temporal-scheduler';

function rfc3339Seconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class ScheduleActions {
  constructor(private readonly deps: ActionDeps) {}

  /** Drops started workflows whose chain has closed; returns the open runs. */
  refreshRunning(s: ScheduleState): Run[] {
    const open: Run[] = [];
    s.running = s.running.filter((r) => {
      const run = this.deps.registry.currentRun(s.namespace, r.workflowId);
      const alive = !!run?.open && run.firstRunId === r.runId;
      if (alive && run) open.push(run);
      return alive;
    });
    return open;
  }

  /** One action (scheduled, triggered or backfilled) under its overlap policy. */
  take(s: ScheduleState, start: PendingStart): void {
    const policy = start.overlap || OverlapPolicy.v('SKIP');
    const running = this.refreshRunning(s);
    const busy = running.length > 0 || s.buffer.length > 0;
    if (policy === OverlapPolicy.v('ALLOW_ALL')) return this.start(s, start);
    if (policy === OverlapPolicy.v('TERMINATE_OTHER')) {
      for (const run of running) this.deps.closer.terminate(run, { reason: 'terminated by schedule overlap policy', identity: SCHEDULER });
      s.running = [];
      s.buffer = [];
      return this.start(s, start);
    }
    if (policy === OverlapPolicy.v('CANCEL_OTHER')) {
      for (const run of running) this.deps.signals.requestCancel(run, { reason: 'cancelled by schedule overlap policy', identity: SCHEDULER });
      s.buffer = [start];
      return this.drain(s);
    }
    if (!busy) return this.start(s, start);
    if (policy === OverlapPolicy.v('BUFFER_ONE') && s.buffer.length === 0) {
      s.buffer.push(start);
    } else if (policy === OverlapPolicy.v('BUFFER_ALL')) {
      if (s.buffer.length >= MAX_BUFFER) s.bufferDropped++;
      else s.buffer.push(start);
    } else {
      s.overlapSkipped++;
    }
  }

  /** Starts buffered actions once nothing is running (one at a time). */
  drain(s: ScheduleState): void {
    while (s.buffer.length && this.refreshRunning(s).length === 0) this.start(s, s.buffer.shift()!);
  }

  private start(s: ScheduleState, p: PendingStart): void {
    const action = s.schedule.action?.startWorkflow;
    if (!action) return;
    const nominalText = rfc3339Seconds(p.nominal);
    const workflowId = `${action.workflowId ?? s.scheduleId}-${nominalText}`;
    const indexedFields = {
      ...action.searchAttributes?.indexedFields,
      TemporalScheduledById: jsonPayload(s.scheduleId),
      TemporalScheduledStartTime: jsonPayload(nominalText),
    };
    try {
      const { runId } = this.deps.starter.start(s.namespace, {
        namespace: s.namespace,
        workflowId,
        workflowType: action.workflowType,
        taskQueue: action.taskQueue,
        input: action.input,
        workflowExecutionTimeout: action.workflowExecutionTimeout,
        workflowRunTimeout: action.workflowRunTimeout,
        workflowTaskTimeout: action.workflowTaskTimeout,
        retryPolicy: action.retryPolicy,
        memo: action.memo,
        header: action.header,
        userMetadata: action.userMetadata,
        priority: action.priority,
        searchAttributes: { indexedFields },
        identity: SCHEDULER,
        requestId: `${s.scheduleId}-${p.nominal}-${p.actual}`,
        workflowIdReusePolicy: ReusePolicy.v('ALLOW_DUPLICATE'),
      });
      s.actionCount++;
      s.running.push({ workflowId, runId });
      s.recentActions = [
        ...s.recentActions,
        {
          scheduleTime: timestamp(p.actual),
          actualTime: timestamp(this.deps.clock.now()),
          startWorkflowResult: { workflowId, runId },
        },
      ].slice(-RECENT_ACTIONS);
    } catch (err) {
      // The real scheduler records the failure and carries on (e.g. the id is already running).
      this.deps.log(`schedule ${s.scheduleId}: starting ${workflowId} failed: ${(err as Error).message}`);
    }
  }
}
