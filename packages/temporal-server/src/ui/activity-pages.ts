// The UI's pages for standalone activities: the list is ListActivityExecutions (same filter, same
// order) and one activity's page is its DescribeActivityExecution with input, heartbeat details,
// last failure and outcome decoded. Every value goes through html``, which escapes it.
import { activityStatus, activityStatusName, describeActivity, listInfo } from '../rpc/standalone/describe-activity';
import { listActivities, countActivities, type ExecutionSource } from '../rpc/standalone/list-activities';
import type { ActivityExecutionListInfo } from '../messages';
import { timestampMs } from '../proto';
import type { ActivityExecution } from '../state/activity-execution';
import { displayMessage } from './display-value';
import { html, SafeHtml } from './html';
import { activitiesUrl, badge, filterForm, type ListPageInput, listTabs, pendingStateName, renderDisplay, time } from './pages';

export const ACTIVITY_PAGE_SIZE = 100;
const EXAMPLE_QUERY = 'ActivityType = "chargeCard" AND ExecutionStatus = "Running"';

export function activityUrl(ns: string, activityId: string, runId: string): string {
  return `${activitiesUrl(ns)}/${encodeURIComponent(activityId)}/${encodeURIComponent(runId)}`;
}

/** Throws the engine's INVALID_ARGUMENT error for a query it cannot parse (the caller shows it). */
export function activityListPage(input: ListPageInput<ExecutionSource>): { title: string; body: SafeHtml } {
  const { source, ns, query, offset } = input;
  const list = listActivities(source, ns, { query, pageSize: ACTIVITY_PAGE_SIZE, nextPageToken: offset ? Buffer.from(String(offset)) : undefined });
  const total = countActivities(source, ns, query).count ?? 0;
  const rows = list.executions ?? [];
  const next = list.nextPageToken ? Number(Buffer.from(list.nextPageToken).toString()) : undefined;
  const pageLink = (o: number) => `${activitiesUrl(ns, query)}${query ? '&' : '?'}offset=${o}`;
  return {
    title: `Standalone activities in ${ns}`,
    body: html`<h1>Standalone activities <span class="muted">in ${ns}</span></h1>
      ${listTabs(ns, 'activities')} ${activityFilterForm(ns, query)}
      <p class="muted" id="count">
        ${total} activit${total === 1 ? 'y' : 'ies'}${rows.length < total ? `, showing ${offset + 1}–${offset + rows.length}` : ''}
      </p>
      <table id="activities">
        <thead>
          <tr>
            <th>Status</th>
            <th>Activity ID</th>
            <th>Run ID</th>
            <th>Type</th>
            <th>Task queue</th>
            <th>Started</th>
            <th>Closed</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map((a) => listRow(ns, a))}
        </tbody>
      </table>
      <p>
        ${offset > 0 ? html`<a href="${pageLink(Math.max(0, offset - ACTIVITY_PAGE_SIZE))}">← previous</a> ` : ''}${next ? html`<a href="${pageLink(next)}">next →</a>` : ''}
      </p>`,
  };
}

export function activityFilterForm(ns: string, query: string): SafeHtml {
  return filterForm(activitiesUrl(ns), query, EXAMPLE_QUERY);
}

function listRow(ns: string, a: ActivityExecutionListInfo): SafeHtml {
  const activityId = a.activityId ?? '';
  const runId = a.runId ?? '';
  return html`<tr>
    <td>${badge(activityStatusName(a.status ?? 0))}</td>
    <td class="id"><a href="${activityUrl(ns, activityId, runId)}">${activityId}</a></td>
    <td class="id"><code>${runId}</code></td>
    <td>${a.activityType?.name}</td>
    <td>${a.taskQueue}</td>
    <td>${time(timestampMs(a.scheduleTime))}</td>
    <td>${time(timestampMs(a.closeTime))}</td>
  </tr>`;
}

export function activityPage(exec: ActivityExecution, now: number): { title: string; body: SafeHtml } {
  const ns = exec.namespace;
  const act = exec.act;
  const summary = listInfo(exec);
  const described = describeActivity(
    exec,
    { includeInput: true, includeOutcome: true, includeHeartbeatDetails: true, includeLastFailure: true },
    Buffer.alloc(0),
  );
  const section = (id: string, heading: string, typeName: string, value: unknown) =>
    value === undefined
      ? ''
      : html`<h2>${heading}</h2>
          <div id="${id}">${renderDisplay(displayMessage(typeName, value))}</div>`;
  const info = described.info ?? {};
  return {
    title: `${exec.activityId} (${exec.runId})`,
    body: html`<p><a href="${activitiesUrl(ns)}">← all standalone activities</a></p>
      <h1 id="activity-id">${exec.activityId}</h1>
      <dl class="summary">
        <dt>Status</dt>
        <dd id="status">${badge(activityStatusName(activityStatus(exec)))}</dd>
        ${
          exec.open
            ? html`<dt>State</dt>
                <dd id="run-state">${pendingStateName(info.runState)}</dd>`
            : ''
        }
        <dt>Run ID</dt>
        <dd><code>${exec.runId}</code></dd>
        <dt>Type</dt>
        <dd id="activity-type">${act.activityType}</dd>
        <dt>Task queue</dt>
        <dd>${act.taskQueue}</dd>
        <dt>Attempt</dt>
        <dd id="attempt">${act.attempt}</dd>
        <dt>Started</dt>
        <dd>${time(exec.scheduleTime)}</dd>
        ${
          exec.open
            ? ''
            : html`<dt>Closed</dt>
                <dd>${time(exec.closeTime)}</dd>`
        }
        ${
          act.paused
            ? html`<dt>Paused</dt>
                <dd id="paused">${time(act.paused.time)}${act.paused.reason ? ` (${act.paused.reason})` : ''}</dd>`
            : ''
        }
        ${
          exec.cancellation
            ? html`<dt>Cancel requested</dt>
                <dd>${exec.cancellation.reason ?? ''}</dd>`
            : ''
        }
        <dt>Server time</dt>
        <dd>${time(now)}</dd>
      </dl>
      ${section('outcome', 'Outcome', 'temporal.api.activity.v1.ActivityExecutionOutcome', described.outcome)}
      ${section('input', 'Input', 'temporal.api.common.v1.Payloads', described.input)}
      ${Object.keys(exec.searchAttributes).length ? section('search-attributes', 'Search attributes', 'temporal.api.common.v1.SearchAttributes', summary.searchAttributes) : ''}
      ${section('details', 'Details', 'temporal.api.activity.v1.ActivityExecutionInfo', info)}`,
  };
}
