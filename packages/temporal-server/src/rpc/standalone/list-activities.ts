// ListActivityExecutions / CountActivityExecutions: the list filter over the standalone activities
// of a namespace. Fields: ActivityId, RunId, ActivityType, ExecutionStatus, TaskQueue, StartTime
// (when it was started), ExecutionTime (its first dispatch), CloseTime and its search attributes.
import type { Plain } from '../../messages';
import type { temporal } from '@temporalio/proto';
import type { ActivityExecution } from '../../state/activity-execution';
import { attributeValue, checkCountQuery, checkListQuery, countByStatus, matchingInNamespace, offsetPage, parseFilter, Row } from '../visibility/filter';
import type { ParsedQuery } from '../visibility/visibility-query';
import { activityStatus, activityStatusName, listInfo } from './describe-activity';

type ListRequest = Plain<temporal.api.workflowservice.v1.IListActivityExecutionsRequest>;
type ListResponse = Plain<temporal.api.workflowservice.v1.IListActivityExecutionsResponse>;
type CountResponse = Plain<temporal.api.workflowservice.v1.ICountActivityExecutionsResponse>;

export interface ExecutionSource {
  all(): Iterable<ActivityExecution>;
}

function rowOf(exec: ActivityExecution): Row {
  return (field) => {
    switch (field) {
      case 'ActivityId':
        return exec.activityId;
      case 'RunId':
        return exec.runId;
      case 'ActivityType':
        return exec.act.activityType;
      case 'ExecutionStatus':
        return activityStatusName(activityStatus(exec));
      case 'TaskQueue':
        return exec.act.taskQueue;
      case 'StartTime':
        return exec.scheduleTime;
      case 'ExecutionTime':
        return exec.act.firstScheduledTime;
      case 'CloseTime':
        return exec.open ? null : exec.closeTime;
    }
    return attributeValue(exec.searchAttributes[field]);
  };
}

/** Default order: running ones first, then by close time, then start time, newest first. */
function newestFirst(a: ActivityExecution, b: ActivityExecution): number {
  return (b.open ? Infinity : b.closeTime) - (a.open ? Infinity : a.closeTime) || b.scheduleTime - a.scheduleTime;
}

function matching(source: ExecutionSource, ns: string, parsed: ParsedQuery): ActivityExecution[] {
  return matchingInNamespace(source.all(), ns, parsed, rowOf, newestFirst);
}

export function listActivities(source: ExecutionSource, ns: string, req: ListRequest): ListResponse {
  const parsed = parseFilter(req.query);
  checkListQuery(parsed, 'activities');
  const { page, nextPageToken } = offsetPage(matching(source, ns, parsed), req.pageSize, req.nextPageToken);
  return { executions: page.map(listInfo), nextPageToken };
}

export function countActivities(source: ExecutionSource, ns: string, query: string | undefined): CountResponse {
  const parsed = parseFilter(query);
  checkCountQuery(parsed);
  const rows = matching(source, ns, parsed);
  if (!parsed.groupBy) return { count: rows.length };
  return { count: rows.length, groups: countByStatus(rows, activityStatus, activityStatusName) };
}
