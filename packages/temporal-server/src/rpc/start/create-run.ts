// Creating a run: the WorkflowExecutionStarted event (packages/temporal-server/PROTOCOL.md#starting-workflows lists the
// fields the SDK needs), the first workflow task (or the start delay before it) and the
// run/execution timeout timers.
// Used by StartWorkflowExecution, signal-with-start, child workflows, continue-as-new and retries.
import { randomUUID } from 'node:crypto';
import type { TimerHandle } from '../../clock';
import type { Failure, Header, Payloads, WorkflowExecution } from '../../messages';
import { duration, durationMs, TaskQueueKind, timestamp, timestampMs } from '../../proto';
import { Run, RunStartRequest } from '../../state/run';
import type { RunRegistry } from '../../state/run-registry';
import type { SearchAttributeTypes } from '../../state/search-attribute-types';
import type { RunCloser } from '../lifecycle/close-run';
import type { WorkflowTasks } from '../workflowtask/workflow-tasks';

export const DEFAULT_WFT_TIMEOUT_MS = 10_000;
const MAX_WFT_TIMEOUT_MS = 120_000;

/** A start request that passed validation: id, type and task queue are present. */
export type ValidStartRequest = RunStartRequest & { workflowId: string; workflowType: { name: string }; taskQueue: { name: string } };

export interface StartExtras {
  /** Pre-allocated run id (continue-as-new writes it into the old run's last event first). */
  runId?: string;
  signal?: { signalName: string; input?: Payloads; header?: Header; identity?: string };
  parent?: { namespace: string; workflowId: string; runId: string; initiatedEventId: number; parentClosePolicy: number; root?: WorkflowExecution };
  /** Runs after the run exists and before its first workflow task is scheduled (update-with-start). */
  beforeFirstTask?: (run: Run) => void;
  /** The caller starts the first workflow task itself (eager start): do not queue it. */
  firstTaskByCaller?: boolean;
  continued?: {
    fromRunId: string;
    firstRunId: string;
    initiator: number;
    expirationTime?: number;
    lastCompletionResult?: Payloads;
    continuedFailure?: Failure;
    backoffMs?: number;
    attempt?: number;
  };
}

export interface CreateRunDeps {
  clock: { now(): number; at(due: number, fn: () => void): TimerHandle };
  registry: Pick<RunRegistry, 'track' | 'index' | 'openRuns'>;
  searchAttributes: Pick<SearchAttributeTypes, 'typed'>;
  workflowTasks: Pick<WorkflowTasks, 'schedule'>;
  /** Ends a run whose run or execution timeout passed. */
  closer: Pick<RunCloser, 'timeout'>;
}

export class RunFactory {
  constructor(private readonly deps: CreateRunDeps) {}

  create(ns: string, req: ValidStartRequest, extras: StartExtras): Run {
    const now = this.deps.clock.now();
    const runId = extras.runId ?? randomUUID();
    const firstRunId = extras.continued?.firstRunId ?? runId;
    const run = new Run(ns, req.workflowId, runId, firstRunId, req.workflowType.name, req.taskQueue.name, req, now);
    this.deps.registry.track(run);
    if (req.requestId) run.requestIds.add(req.requestId);
    run.memo = { ...(req.memo?.fields ?? {}) };
    const searchAttributes = this.deps.searchAttributes.typed(req.searchAttributes);
    run.searchAttributes = { ...(searchAttributes?.indexedFields ?? {}) };

    let wftTimeoutMs = durationMs(req.workflowTaskTimeout) || DEFAULT_WFT_TIMEOUT_MS;
    wftTimeoutMs = Math.min(wftTimeoutMs, MAX_WFT_TIMEOUT_MS);
    const runTimeoutMs = durationMs(req.workflowRunTimeout);
    const execTimeoutMs = durationMs(req.workflowExecutionTimeout);
    const expiration = extras.continued?.expirationTime ?? (execTimeoutMs ? now + execTimeoutMs : 0);
    const backoffMs = extras.continued?.backoffMs ?? durationMs(req.workflowStartDelay);
    run.executionTime = now + backoffMs;
    run.startRequest.wftTimeoutMs = wftTimeoutMs;
    if (extras.parent) {
      run.parent = {
        namespace: extras.parent.namespace,
        workflowId: extras.parent.workflowId,
        runId: extras.parent.runId,
        initiatedEventId: extras.parent.initiatedEventId,
      };
      run.parentClosePolicy = extras.parent.parentClosePolicy;
    }

    run.append(
      'WORKFLOW_EXECUTION_STARTED',
      {
        workflowType: req.workflowType,
        taskQueue: { name: req.taskQueue.name, kind: TaskQueueKind.NORMAL },
        input: req.input,
        header: req.header,
        identity: req.identity,
        workflowExecutionTimeout: execTimeoutMs ? duration(execTimeoutMs) : undefined,
        workflowRunTimeout: runTimeoutMs ? duration(runTimeoutMs) : undefined,
        workflowTaskTimeout: duration(wftTimeoutMs),
        attempt: extras.continued?.attempt ?? 1,
        firstExecutionRunId: firstRunId,
        originalExecutionRunId: runId,
        continuedExecutionRunId: extras.continued?.fromRunId,
        initiator: extras.continued?.initiator,
        lastCompletionResult: extras.continued?.lastCompletionResult,
        continuedFailure: extras.continued?.continuedFailure,
        workflowExecutionExpirationTime: expiration ? timestamp(expiration) : undefined,
        firstWorkflowTaskBackoff: backoffMs ? duration(backoffMs) : undefined,
        memo: req.memo,
        searchAttributes,
        retryPolicy: req.retryPolicy,
        parentWorkflowNamespace: extras.parent?.namespace,
        parentWorkflowExecution: extras.parent ? { workflowId: extras.parent.workflowId, runId: extras.parent.runId } : undefined,
        parentInitiatedEventId: extras.parent?.initiatedEventId,
        rootWorkflowExecution: extras.parent?.root,
        priority: req.priority,
      },
      now,
      req.userMetadata,
    );

    this.deps.registry.index(run);
    this.deps.registry.openRuns.add(run);

    if (extras.signal) {
      run.append(
        'WORKFLOW_EXECUTION_SIGNALED',
        { signalName: extras.signal.signalName, input: extras.signal.input, header: extras.signal.header, identity: extras.signal.identity },
        now,
      );
    }
    extras.beforeFirstTask?.(run);
    if (backoffMs > 0) run.startDelayPending = true;
    else if (!extras.firstTaskByCaller) this.deps.workflowTasks.schedule(run);
    this.armRunTimers(run);
    return run;
  }

  /** Start delay and run/execution timeouts, derived from the start event (also after a restore). */
  armRunTimers(run: Run): void {
    const start = run.startAttributes;
    if (run.startDelayPending) {
      run.runTimers.push(
        this.deps.clock.at(run.executionTime, () => {
          // Already over when signal-with-start or an update started the run early.
          if (!run.open || !run.startDelayPending) return;
          run.startDelayPending = false;
          run.touch();
          if (run.wft.state === 'none') this.deps.workflowTasks.schedule(run);
        }),
      );
    }
    const runTimeoutMs = durationMs(start.workflowRunTimeout);
    const expiration = timestampMs(start.workflowExecutionExpirationTime) ?? 0;
    const timeoutAt = Math.min(runTimeoutMs ? run.executionTime + runTimeoutMs : Infinity, expiration || Infinity);
    if (timeoutAt !== Infinity) run.runTimers.push(this.deps.clock.at(timeoutAt, () => this.deps.closer.timeout(run)));
  }
}
