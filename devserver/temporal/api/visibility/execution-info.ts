// WorkflowExecutionInfo of a run, as List and Describe return it.
import type { WorkflowExecutionInfo } from '../../messages';
import { historySizeBytes, timestamp } from '../../proto';
import type { Run } from '../../state/run';

export function executionInfo(run: Run): WorkflowExecutionInfo {
  return {
    execution: run.execution,
    type: { name: run.workflowType },
    startTime: timestamp(run.startTime),
    closeTime: run.open ? undefined : timestamp(run.closeTime),
    status: run.status,
    historyLength: run.history.length,
    executionTime: timestamp(run.executionTime),
    memo: { fields: run.memo },
    searchAttributes: { indexedFields: run.searchAttributes },
    taskQueue: run.taskQueue,
    parentExecution: run.parent ? { workflowId: run.parent.workflowId, runId: run.parent.runId } : undefined,
    parentNamespaceId: run.parent?.namespace,
    firstRunId: run.firstRunId,
    historySizeBytes: historySizeBytes(run.history),
  };
}
