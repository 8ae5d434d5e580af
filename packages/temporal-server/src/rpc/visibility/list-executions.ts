// ListWorkflowExecutions / CountWorkflowExecutions: the list filter evaluated over every run of a
// namespace, with ORDER BY and offset paging (filter.ts).
import type { CountWorkflowsResponse, ListWorkflowsResponse } from '../../messages';
import { ExecStatus } from '../../proto';
import type { Run } from '../../state/run';
import { executionInfo } from './execution-info';
import { attributeValue, checkCountQuery, checkListQuery, countByStatus, matchingInNamespace, offsetPage, parseFilter, Row } from './filter';
import type { ParsedQuery } from './visibility-query';

const STATUS_NAMES: Record<string, string> = {
  RUNNING: 'Running',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  CANCELED: 'Canceled',
  TERMINATED: 'Terminated',
  CONTINUED_AS_NEW: 'ContinuedAsNew',
  TIMED_OUT: 'TimedOut',
};

/** The visibility name of an execution status ('Running', 'Completed', ...). */
export function statusName(status: number): string {
  return STATUS_NAMES[ExecStatus.name(status) ?? ''] ?? String(status);
}

export interface RunSource {
  allRuns(): Iterable<Run>;
}

export interface ListRequest {
  query?: string;
  pageSize?: number;
  nextPageToken?: Uint8Array;
}

function rowOf(run: Run): Row {
  return (field) => {
    switch (field) {
      case 'WorkflowId':
        return run.workflowId;
      case 'RunId':
        return run.runId;
      case 'WorkflowType':
        return run.workflowType;
      case 'TaskQueue':
        return run.taskQueue;
      case 'ExecutionStatus':
        return statusName(run.status);
      case 'StartTime':
        return run.startTime;
      case 'ExecutionTime':
        return run.executionTime;
      case 'CloseTime':
        return run.open ? null : run.closeTime;
      case 'HistoryLength':
        return run.history.length;
    }
    return attributeValue(run.searchAttributes[field]);
  };
}

/** Default order: open runs first, then by close time, then start time, newest first. */
function newestFirst(a: Run, b: Run): number {
  return (b.open ? Infinity : b.closeTime) - (a.open ? Infinity : a.closeTime) || b.startTime - a.startTime;
}

function matching(source: RunSource, ns: string, parsed: ParsedQuery): Run[] {
  return matchingInNamespace(source.allRuns(), ns, parsed, rowOf, newestFirst);
}

export function listExecutions(source: RunSource, ns: string, req: ListRequest): ListWorkflowsResponse {
  const parsed = parseFilter(req.query);
  checkListQuery(parsed, 'workflows');
  const { page, nextPageToken } = offsetPage(matching(source, ns, parsed), req.pageSize, req.nextPageToken);
  return { executions: page.map(executionInfo), nextPageToken };
}

export function countExecutions(source: RunSource, ns: string, req: { query?: string }): CountWorkflowsResponse {
  const parsed = parseFilter(req.query);
  checkCountQuery(parsed);
  const rows = matching(source, ns, parsed);
  if (!parsed.groupBy) return { count: rows.length };
  return { count: rows.length, groups: countByStatus(rows, (run) => run.status, statusName) };
}
