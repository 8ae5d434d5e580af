// What a workflow's history and description say about what it still has to do, for barriers before a
// check that something did NOT happen (CONTRIBUTING.md, "Tests"). Needs only a Temporal client, so the
// production-topology tests use it with theirs; test/support/workflow-barriers.ts with the stack's.
import type { Client } from '@temporalio/client';

const WORKFLOW_TASK_EVENTS = [
  'workflowTaskScheduledEventAttributes',
  'workflowTaskStartedEventAttributes',
  'workflowTaskCompletedEventAttributes',
  'workflowTaskFailedEventAttributes',
  'workflowTaskTimedOutEventAttributes',
] as const;

/**
 * Whether the workflow has nothing to do now: closed, or no activity pending and its last workflow
 * task completed (a signal, an activity's result or a fired timer each schedule a new task in the
 * same step as their event). It may still wait on a timer: a delivery's next attempt is one.
 */
export async function workflowIdle(temporal: Client, workflowId: string): Promise<boolean> {
  const handle = temporal.workflow.getHandle(workflowId);
  const described = await handle.describe();
  if (described.status.name !== 'RUNNING') return true;
  if (described.raw.pendingActivities?.length) return false;
  const events = (await handle.fetchHistory()).events ?? [];
  const lastTask = events.filter((e) => WORKFLOW_TASK_EVENTS.some((k) => e[k])).at(-1);
  return Boolean(lastTask?.workflowTaskCompletedEventAttributes);
}

/**
 * The activities the workflow's history records as done, by type, in order: a local activity's
 * marker with its result (a failed attempt records a failure, and its retry a timer), or a remote
 * activity's completion. A message delivery listed here will not be tried again.
 */
export async function completedActivities(temporal: Client, workflowId: string): Promise<string[]> {
  const events = (await temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const scheduled = new Map<string, string>();
  const done: string[] = [];
  for (const e of events) {
    const marker = e.markerRecordedEventAttributes;
    const data = marker?.details?.data?.payloads?.[0]?.data;
    if (marker?.markerName === 'core_local_activity' && !marker.failure && marker.details?.result && data)
      done.push(String(JSON.parse(Buffer.from(data).toString('utf8')).activity_type));
    if (e.activityTaskScheduledEventAttributes) scheduled.set(String(e.eventId), e.activityTaskScheduledEventAttributes.activityType?.name ?? '');
    const completed = e.activityTaskCompletedEventAttributes;
    if (completed) done.push(scheduled.get(String(completed.scheduledEventId)) ?? '');
  }
  return done;
}
