// ListSchedules: the schedules of a namespace matching the list filter, by schedule id, in pages.
// Fields: ScheduleId, TemporalSchedulePaused and the schedule's own search attributes (the real
// server lists schedules through the visibility records of their scheduler workflows).
import type { Plain, ScheduleListEntry } from '../../messages';
import type { temporal } from '@temporalio/proto';
import { attributeValue, checkListQuery, filterRows, offsetPage, parseFilter, Row } from '../visibility/filter';
import type { ScheduleState } from './schedule-state';

type ListSchedulesRequest = Plain<temporal.api.workflowservice.v1.IListSchedulesRequest>;

function rowOf(s: ScheduleState): Row {
  return (field) => {
    switch (field) {
      case 'ScheduleId':
        return s.scheduleId;
      case 'TemporalSchedulePaused':
        return !!s.schedule.state?.paused;
    }
    return attributeValue(s.searchAttributes?.indexedFields?.[field]);
  };
}

const byId = (a: ScheduleState, b: ScheduleState) => a.scheduleId.localeCompare(b.scheduleId);

export function listSchedules(all: ScheduleState[], req: ListSchedulesRequest, entry: (s: ScheduleState) => ScheduleListEntry) {
  const parsed = parseFilter(req.query);
  checkListQuery(parsed, 'executions');
  const { page, nextPageToken } = offsetPage(filterRows(all, parsed, rowOf, byId), req.maximumPageSize, req.nextPageToken);
  return { schedules: page.map(entry), nextPageToken };
}

export function countSchedules(all: ScheduleState[], query: string | undefined): { count: number } {
  const parsed = parseFilter(query);
  checkListQuery(parsed, 'executions');
  return { count: filterRows(all, parsed, rowOf, byId).length };
}
