// WorkflowExecutionInfo of a run, as List and Describe return it.
import type { WorkflowExecutionInfo } from '../../messages';
import { timestamp } from '../../proto';
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
    // A child's start event names the root of its tree; a top-level run is its own root.
    rootExecution: run.startAttributes.rootWorkflowExecution ?? run.execution,
    historySizeBytes: run.historySizeBytes(),
  };
}
