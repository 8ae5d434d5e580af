// ContinueAsNewWorkflowExecution: the old run closes with a pointer to the new run id, and the new
// run starts with the old one's settings unless the command overrides them (packages/temporal-server/PROTOCOL.md#continue-as-new-and-retries).
import { randomUUID } from 'node:crypto';
import type { CommandAttributes } from '../../../messages';
import { ContinueAsNewInitiator, durationMs, TaskQueueKind, timestampMs } from '../../../proto';
import type { Run } from '../../../state/run';
import type { SearchAttributeTypes } from '../../../state/search-attribute-types';
import type { RunCloser } from '../../lifecycle/close-run';
import type { RunFactory, ValidStartRequest } from '../../start/create-run';

export interface ContinueAsNewDeps {
  clock: { now(): number };
  closer: Pick<RunCloser, 'close'>;
  runs: Pick<RunFactory, 'create'>;
  searchAttributes: Pick<SearchAttributeTypes, 'typed'>;
}

export function continueAsNew(deps: ContinueAsNewDeps, run: Run, a: CommandAttributes<'CONTINUE_AS_NEW_WORKFLOW_EXECUTION'>, wtc: number): void {
  const start = run.startRequest;
  const startAttrs = run.startAttributes;
  const newRunId = randomUUID();
  const req: ValidStartRequest = {
    ...start,
    workflowId: run.workflowId,
    requestId: undefined,
    workflowStartDelay: undefined,
    workflowType: a.workflowType?.name ? { ...a.workflowType, name: a.workflowType.name } : { name: run.workflowType },
    taskQueue: a.taskQueue?.name ? { name: a.taskQueue.name, kind: TaskQueueKind.NORMAL } : { name: run.taskQueue, kind: TaskQueueKind.NORMAL },
    input: a.input,
    header: a.header,
    workflowRunTimeout: a.workflowRunTimeout ?? start.workflowRunTimeout,
    workflowTaskTimeout: a.workflowTaskTimeout ?? start.workflowTaskTimeout,
    retryPolicy: a.retryPolicy ?? start.retryPolicy,
    memo: a.memo ?? { fields: run.memo },
    searchAttributes: deps.searchAttributes.typed(a.searchAttributes) ?? { indexedFields: run.searchAttributes },
  };
  const initiator = a.initiator || ContinueAsNewInitiator.v('WORKFLOW');
  run.append(
    'WORKFLOW_EXECUTION_CONTINUED_AS_NEW',
    {
      newExecutionRunId: newRunId,
      workflowType: req.workflowType,
      taskQueue: req.taskQueue,
      input: a.input,
      header: a.header,
      workflowRunTimeout: req.workflowRunTimeout,
      workflowTaskTimeout: req.workflowTaskTimeout,
      backoffStartInterval: a.backoffStartInterval,
      initiator,
      failure: a.failure,
      lastCompletionResult: a.lastCompletionResult,
      memo: req.memo,
      searchAttributes: req.searchAttributes,
      workflowTaskCompletedEventId: wtc,
    },
    deps.clock.now(),
  );
  deps.closer.close(run, 'CONTINUED_AS_NEW');
  const parent = run.parent;
  deps.runs.create(run.namespace, req, {
    runId: newRunId,
    continued: {
      fromRunId: run.runId,
      firstRunId: run.firstRunId,
      initiator,
      expirationTime: timestampMs(startAttrs.workflowExecutionExpirationTime),
      lastCompletionResult: a.lastCompletionResult,
      continuedFailure: a.failure,
      backoffMs: durationMs(a.backoffStartInterval),
    },
    parent: parent ? { ...parent, parentClosePolicy: run.parentClosePolicy } : undefined,
  });
}
