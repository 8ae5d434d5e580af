// ListWorkflowExecutions / CountWorkflowExecutions: the list filter (visibility-query.ts) evaluated
// over every run of a namespace, with ORDER BY and offset paging.
import { invalidArgument } from '../../errors';
import type { CountWorkflowsResponse, ListWorkflowsResponse, Payload } from '../../messages';
import { ExecStatus, payloadToJson } from '../../proto';
import type { Run } from '../../state/run';
import { executionInfo } from './execution-info';
import { evaluate, parseQuery, ParsedQuery, QuerySyntaxError, Value } from './visibility-query';

const DEFAULT_PAGE_SIZE = 1000;
const STATUS_NAMES: Record<string, string> = {
  RUNNING: 'Running', COMPLETED: 'Completed', FAILED: 'Failed', CANCELED: 'Canceled',
  TERMINATED: 'Terminated', CONTINUED_AS_NEW: 'ContinuedAsNew', TIMED_OUT: 'TimedOut',
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

function rowOf(run: Run) {
  return (field: string): Value | undefined => {
    switch (field) {
      case 'WorkflowId': return run.workflowId;
      case 'RunId': return run.runId;
      case 'WorkflowType': return run.workflowType;
      case 'TaskQueue': return run.taskQueue;
      case 'ExecutionStatus': return statusName(run.status);
      case 'StartTime': return run.startTime;
      case 'ExecutionTime': return run.executionTime;
      case 'CloseTime': return run.open ? null : run.closeTime;
      case 'HistoryLength': return run.history.length;
    }
    const p = run.searchAttributes[field];
    if (!p) return undefined;
    const v = payloadToJson(p);
    if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v)) return Date.parse(v);
    return v as Value;
  };
}

function parse(query: string): ParsedQuery {
  try {
    return parseQuery(query);
  } catch (e) {
    if (e instanceof QuerySyntaxError) throw invalidArgument(`invalid query: ${e.message}`);
    throw e;
  }
}

function matching(source: RunSource, ns: string, parsed: ParsedQuery): Run[] {
  const rows: Run[] = [];
  try {
    for (const run of source.allRuns()) {
      if (run.namespace !== ns) continue;
      if (!parsed.where || evaluate(parsed.where, rowOf(run))) rows.push(run);
    }
  } catch (e) {
    if (e instanceof QuerySyntaxError) throw invalidArgument(`invalid query: ${e.message}`);
    throw e;
  }
  if (parsed.orderBy) {
    const { field, desc } = parsed.orderBy;
    const key = (r: Run) => rowOf(r)(field) ?? null;
    rows.sort((a, b) => {
      const x = key(a), y = key(b);
      const c = x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return desc ? -c : c;
    });
  } else {
    // Default order: open runs first, then by close time, then start time, newest first.
    rows.sort((a, b) => (b.open ? Infinity : b.closeTime) - (a.open ? Infinity : a.closeTime) || b.startTime - a.startTime);
  }
  return rows;
}

export function listExecutions(source: RunSource, ns: string, req: ListRequest): ListWorkflowsResponse {
  const parsed = parse(req.query ?? '');
  if (parsed.groupBy) throw invalidArgument('invalid query: GROUP BY is only supported when counting workflows');
  const rows = matching(source, ns, parsed);
  const offset = req.nextPageToken?.length ? Number(Buffer.from(req.nextPageToken).toString()) || 0 : 0;
  const size = (req.pageSize ?? 0) > 0 ? req.pageSize! : DEFAULT_PAGE_SIZE;
  const page = rows.slice(offset, offset + size);
  const next = offset + size < rows.length ? Buffer.from(String(offset + size)) : undefined;
  return { executions: page.map(executionInfo), nextPageToken: next };
}

/** A Keyword search attribute value, as the real server returns group values. */
function keywordPayload(value: string): Payload {
  return { metadata: { encoding: Buffer.from('json/plain'), type: Buffer.from('Keyword') }, data: Buffer.from(JSON.stringify(value)) };
}

export function countExecutions(source: RunSource, ns: string, req: { query?: string }): CountWorkflowsResponse {
  const parsed = parse(req.query ?? '');
  // Like the real server, only the execution status can be grouped by.
  if (parsed.groupBy && parsed.groupBy !== 'ExecutionStatus') throw invalidArgument(`invalid query: GROUP BY ${parsed.groupBy} is not supported, only GROUP BY ExecutionStatus`);
  if (parsed.orderBy && parsed.groupBy) throw invalidArgument('invalid query: ORDER BY cannot be combined with GROUP BY');
  const rows = matching(source, ns, parsed);
  if (!parsed.groupBy) return { count: rows.length };
  const byStatus = new Map<string, number>();
  for (const run of rows) {
    const status = statusName(run.status);
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }
  const groups = [...byStatus].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return { count: rows.length, groups: groups.map(([status, count]) => ({ groupValues: [keywordPayload(status)], count })) };
}
