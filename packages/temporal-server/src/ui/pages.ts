// The UI's pages, rendered on the server from the engine's own read models: the workflow list is
// ListWorkflowExecutions (same visibility query, same order), a run's page is its history, its
// Describe (pending activities and children) and its user timers. Every value goes through html``,
// which escapes it.
import { describeRun } from '../rpc/visibility/describe';
import { executionInfo } from '../rpc/visibility/execution-info';
import { countExecutions, listExecutions, RunSource, statusName } from '../rpc/visibility/list-executions';
import type { HistoryEvent, WorkflowExecutionInfo } from '../messages';
import { EventType, eventAttributesKey, PendingActivityState, timestampMs } from '../proto';
import type { Run } from '../state/run';
import { Display, displayMessage } from './display-value';
import { html, SafeHtml } from './html';

export const PAGE_SIZE = 100;
const MAX_JSON_CHARS = 20_000;
const MAX_HEX_BYTES = 64;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2430;color:#fff;padding:10px 20px;display:flex;gap:24px;align-items:baseline}
header a{color:#fff;text-decoration:none}header .ns a{color:#b8c4d6;margin-right:10px}header .ns a.on{color:#fff;font-weight:600}
main{padding:16px 20px;max-width:1400px}h1{font-size:20px;margin:4px 0 12px;word-break:break-all}h2{font-size:16px;margin:24px 0 8px}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e3e6eb;vertical-align:top}
th{background:#eef0f4;font-weight:600}td.id{word-break:break-all}code,pre{font:12px/1.4 ui-monospace,monospace}
pre{margin:2px 0;white-space:pre-wrap;word-break:break-word;background:#f3f5f8;padding:4px 6px;border-radius:3px}
.status{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;background:#e3e6eb}
.status.Running{background:#dbeafe}.status.Completed{background:#dcfce7}.status.Failed,.status.TimedOut,.status.Terminated{background:#fee2e2}.status.Paused{background:#fef3c7}
p.tabs{margin:0 0 12px}
form.filter{display:flex;gap:8px;margin-bottom:12px}form.filter input{flex:1;padding:6px 8px;font:13px ui-monospace,monospace}
.error{background:#fee2e2;border:1px solid #fca5a5;padding:8px 12px;margin-bottom:12px}
.muted{color:#6b7280}dl{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:2px 10px}dt{color:#6b7280}dd{margin:0;min-width:0;overflow-wrap:anywhere}
ol.list{margin:0;padding-left:18px}.enc{font-size:11px;color:#6b7280}.binary code{word-break:break-all}
dl.summary{background:#fff;padding:10px 12px;border:1px solid #e3e6eb}
`;

export function layout(title: string, namespaces: string[], current: string | undefined, body: SafeHtml): SafeHtml {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Temporal dev server</title>
        <style>
          ${new SafeHtml(STYLE)}
        </style>
      </head>
      <body>
        <header>
          <a href="/"><strong>Temporal dev server</strong></a
          ><span class="ns">${namespaces.map((ns) => html`<a href="${workflowsUrl(ns)}" ${ns === current ? html` class="on"` : ''}>${ns}</a>`)}</span
          ><span class="muted">read-only</span>
        </header>
        <main>${body}</main>
      </body>
    </html>`;
}

export function workflowsUrl(ns: string, query?: string): string {
  const base = `/namespaces/${encodeURIComponent(ns)}/workflows`;
  return query ? `${base}?query=${encodeURIComponent(query)}` : base;
}

export function activitiesUrl(ns: string, query?: string): string {
  const base = `/namespaces/${encodeURIComponent(ns)}/activities`;
  return query ? `${base}?query=${encodeURIComponent(query)}` : base;
}

/** The two lists of a namespace: its workflows and its standalone activities. */
export function listTabs(ns: string, current: 'workflows' | 'activities'): SafeHtml {
  const tab = (name: 'workflows' | 'activities', label: string, url: string) =>
    name === current ? html`<strong>${label}</strong>` : html`<a href="${url}">${label}</a>`;
  return html`<p class="tabs">${tab('workflows', 'Workflows', workflowsUrl(ns))} · ${tab('activities', 'Standalone activities', activitiesUrl(ns))}</p>`;
}

export function runUrl(ns: string, workflowId: string, runId: string): string {
  return `/namespaces/${encodeURIComponent(ns)}/workflows/${encodeURIComponent(workflowId)}/${encodeURIComponent(runId)}`;
}

export function time(ms: number | undefined): string {
  return ms === undefined || ms === 0 ? '' : new Date(ms).toISOString().replace('T', ' ').replace('Z', ' UTC');
}

/** A status badge: `name` is the visibility name ('Running', 'Completed', ...), also its CSS class. */
export function badge(name: string): SafeHtml {
  return html`<span class="status ${name}">${name}</span>`;
}

function statusBadge(status: number | undefined): SafeHtml {
  return badge(statusName(status ?? 0));
}

// ------------------------------------------------------------------------------- workflow list

/** A list page's request: whose list, the filter, and the offset into the matches (the RPC's page token). */
export interface ListPageInput<S> {
  source: S;
  ns: string;
  query: string;
  offset: number;
}

/** Throws the engine's INVALID_ARGUMENT error for a query it cannot parse (the caller shows it). */
export function listPage(input: ListPageInput<RunSource>): { title: string; body: SafeHtml } {
  const { source, ns, query, offset } = input;
  const list = listExecutions(source, ns, { query, pageSize: PAGE_SIZE, nextPageToken: offset ? Buffer.from(String(offset)) : undefined });
  // Counting refuses ORDER BY only together with GROUP BY, which the list already refused.
  const total = countExecutions(source, ns, { query }).count ?? 0;
  const rows = list.executions ?? [];
  const next = list.nextPageToken ? Number(Buffer.from(list.nextPageToken).toString()) : undefined;
  const pageLink = (o: number) => `${workflowsUrl(ns, query)}${query ? '&' : '?'}offset=${o}`;
  return {
    title: `Workflows in ${ns}`,
    body: html`<h1>Workflows <span class="muted">in ${ns}</span></h1>
      ${listTabs(ns, 'workflows')} ${filterForm(workflowsUrl(ns), query)}
      <p class="muted" id="count">${total} workflow${total === 1 ? '' : 's'}${rows.length < total ? `, showing ${offset + 1}–${offset + rows.length}` : ''}</p>
      <table id="workflows">
        <thead>
          <tr>
            <th>Status</th>
            <th>Workflow ID</th>
            <th>Run ID</th>
            <th>Type</th>
            <th>Task queue</th>
            <th>Started</th>
            <th>Closed</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map((w) => listRow(ns, w))}
        </tbody>
      </table>
      <p>
        ${offset > 0 ? html`<a href="${pageLink(Math.max(0, offset - PAGE_SIZE))}">← previous</a> ` : ''}${next ? html`<a href="${pageLink(next)}">next →</a>` : ''}
      </p>`,
  };
}

/** The list filter of the list at `action` (a workflows or activities URL). */
export function filterForm(action: string, query: string, example = 'WorkflowType = "greet" AND ExecutionStatus = "Running"'): SafeHtml {
  return html`<form class="filter" method="get" action="${action}">
    <input name="query" value="${query}" placeholder="${example}" aria-label="List filter (visibility query)" />
    <button type="submit">Filter</button>${query ? html` <a href="${action}">clear</a>` : ''}
  </form>`;
}

function listRow(ns: string, w: WorkflowExecutionInfo): SafeHtml {
  const workflowId = w.execution?.workflowId ?? '';
  const runId = w.execution?.runId ?? '';
  return html`<tr>
    <td>${statusBadge(w.status)}</td>
    <td class="id"><a href="${runUrl(ns, workflowId, runId)}">${workflowId}</a></td>
    <td class="id"><code>${runId}</code></td>
    <td>${w.type?.name}</td>
    <td>${w.taskQueue}</td>
    <td>${time(timestampMs(w.startTime))}</td>
    <td>${time(timestampMs(w.closeTime))}</td>
  </tr>`;
}

// ------------------------------------------------------------------------------- one run

function hex(bytes: Uint8Array): string {
  const shown = Buffer.from(bytes.subarray(0, MAX_HEX_BYTES))
    .toString('hex')
    .replace(/(..)(?!$)/g, '$1 ');
  return bytes.length > MAX_HEX_BYTES ? `${shown} …` : shown;
}

function renderBytes(bytes: Uint8Array | undefined, encoding?: string): SafeHtml {
  const b = bytes ?? new Uint8Array();
  return html`<span class="binary"
    >${encoding ? html`<span class="enc">${encoding}</span> ` : ''}<span class="muted">${b.length} bytes</span> <code>${hex(b)}</code></span
  >`;
}

function renderJson(value: unknown): SafeHtml {
  let text = JSON.stringify(value, null, 2) ?? 'undefined';
  if (text.length > MAX_JSON_CHARS) text = `${text.slice(0, MAX_JSON_CHARS)}\n… (${text.length - MAX_JSON_CHARS} more characters)`;
  return html`<pre class="json">${text}</pre>`;
}

export function renderDisplay(d: Display | undefined): SafeHtml {
  if (!d) return html``;
  switch (d.kind) {
    case 'text':
      return html`${d.text}`;
    case 'bytes':
      return renderBytes(d.bytes);
    case 'payload': {
      const meta = d.meta.length ? html` <span class="enc">${d.meta.map(([k, v]) => `${k}=${v}`).join(' ')}</span>` : '';
      if (d.json) return html`<div class="payload"><span class="enc">${d.encoding}</span>${meta}${renderJson(d.json.value)}</div>`;
      return html`<div class="payload">${renderBytes(d.bytes, d.encoding)}${meta}</div>`;
    }
    case 'list':
      return html`<ol class="list">
        ${d.items.map((i) => html`<li>${renderDisplay(i)}</li>`)}
      </ol>`;
    case 'fields':
      return html`<dl>
        ${d.fields.map(
          ([k, v]) =>
            html`<dt>${k}</dt>
              <dd>${renderDisplay(v)}</dd>`,
        )}
      </dl>`;
  }
}

const PENDING_STATE_NAMES: Record<number, string> = {
  [PendingActivityState.SCHEDULED]: 'Scheduled',
  [PendingActivityState.STARTED]: 'Started',
  [PendingActivityState.CANCEL_REQUESTED]: 'Cancel requested',
  [PendingActivityState.PAUSED]: 'Paused',
  [PendingActivityState.PAUSE_REQUESTED]: 'Pause requested',
};

export function pendingStateName(state: number | undefined): string {
  return PENDING_STATE_NAMES[state ?? 0] ?? '';
}

/** 'ACTIVITY_TASK_SCHEDULED' -> 'ActivityTaskScheduled' (the names Temporal's UI and CLI show). */
function eventName(type: number): string {
  return (EventType.name(type) ?? String(type)).toLowerCase().replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());
}

function eventRow(ev: HistoryEvent): SafeHtml {
  const short = EventType.name(ev.eventType);
  const key = short ? eventAttributesKey(short) : undefined;
  const attrs = key ? (ev as Record<string, unknown>)[key] : undefined;
  const typeName = key ? `temporal.api.history.v1.${key[0].toUpperCase()}${key.slice(1)}` : undefined;
  let details: Display | undefined;
  try {
    details = typeName ? displayMessage(typeName, attrs) : undefined;
  } catch {
    details = undefined;
  }
  const meta = ev.userMetadata ? displayMessage('temporal.api.sdk.v1.UserMetadata', ev.userMetadata) : undefined;
  return html`<tr class="event" data-event-type="${eventName(ev.eventType)}">
    <td>${ev.eventId}</td>
    <td>${time(timestampMs(ev.eventTime))}</td>
    <td><strong>${eventName(ev.eventType)}</strong></td>
    <td>
      ${renderDisplay(details)}${
        meta
          ? html`<div class="muted">user metadata</div>
              ${renderDisplay(meta)}`
          : ''
      }
    </td>
  </tr>`;
}

export function runPage(run: Run, now: number): { title: string; body: SafeHtml } {
  const ns = run.namespace;
  const info = executionInfo(run);
  const described = describeRun(run);
  const activities = described.pendingActivities ?? [];
  const children = described.pendingChildren ?? [];
  const timers = [...run.timers].sort((a, b) => a[1].due - b[1].due);
  const memo = displayMessage('temporal.api.common.v1.Memo', info.memo);
  const searchAttributes = displayMessage('temporal.api.common.v1.SearchAttributes', info.searchAttributes);
  const fieldsOf = (d: Display | undefined) => (d?.kind === 'fields' && d.fields[0]?.[1]) || undefined;
  const parent = run.parent;
  return {
    title: `${run.workflowId} (${run.runId})`,
    body: html`<p><a href="${workflowsUrl(ns)}">← all workflows</a></p>
      <h1 id="workflow-id">${run.workflowId}</h1>
      <dl class="summary">
        <dt>Status</dt>
        <dd id="status">${statusBadge(run.status)}</dd>
        <dt>Run ID</dt>
        <dd><code>${run.runId}</code></dd>
        <dt>Type</dt>
        <dd id="workflow-type">${run.workflowType}</dd>
        <dt>Task queue</dt>
        <dd>${run.taskQueue}</dd>
        <dt>Started</dt>
        <dd>${time(run.startTime)}</dd>
        ${
          run.open
            ? ''
            : html`<dt>Closed</dt>
                <dd>${time(run.closeTime)}</dd>`
        }
        <dt>History</dt>
        <dd>${run.history.length} events</dd>
        ${
          parent
            ? html`<dt>Parent</dt>
                <dd><a href="${runUrl(parent.namespace, parent.workflowId, parent.runId)}">${parent.workflowId}</a></dd>`
            : ''
        }
        ${
          run.firstRunId !== run.runId
            ? html`<dt>First run</dt>
                <dd>
                  <a href="${runUrl(ns, run.workflowId, run.firstRunId)}"><code>${run.firstRunId}</code></a>
                </dd>`
            : ''
        }
        <dt>Server time</dt>
        <dd>${time(now)}</dd>
      </dl>
      ${
        fieldsOf(searchAttributes)
          ? html`<h2>Search attributes</h2>
              <div id="search-attributes">${renderDisplay(fieldsOf(searchAttributes))}</div>`
          : ''
      }
      ${
        fieldsOf(memo)
          ? html`<h2>Memo</h2>
              <div id="memo">${renderDisplay(fieldsOf(memo))}</div>`
          : ''
      }
      <h2>Pending activities (${activities.length})</h2>
      ${
        activities.length
          ? html`<table id="pending-activities">
              <thead>
                <tr>
                  <th>Activity ID</th>
                  <th>Type</th>
                  <th>State</th>
                  <th>Attempt</th>
                  <th>Scheduled</th>
                  <th>Details</th>
                </tr>
              </thead>
              <tbody>
                ${activities.map(
                  (a) =>
                    html`<tr>
                      <td class="id">${a.activityId}</td>
                      <td>${a.activityType?.name}</td>
                      <td>${pendingStateName(a.state)}</td>
                      <td>${a.attempt}${a.maximumAttempts ? ` of ${a.maximumAttempts}` : ''}</td>
                      <td>${time(timestampMs(a.scheduledTime))}</td>
                      <td>
                        ${renderDisplay(displayMessage('temporal.api.workflow.v1.PendingActivityInfo', { heartbeatDetails: a.heartbeatDetails, lastFailure: a.lastFailure, lastWorkerIdentity: a.lastWorkerIdentity }))}
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>`
          : html`<p class="muted">none</p>`
      }
      <h2>Pending timers (${timers.length})</h2>
      ${
        timers.length
          ? html`<table id="pending-timers">
              <thead>
                <tr>
                  <th>Timer ID</th>
                  <th>Started by event</th>
                  <th>Fires at</th>
                </tr>
              </thead>
              <tbody>
                ${timers.map(
                  ([id, t]) =>
                    html`<tr>
                      <td class="id">${id}</td>
                      <td>${t.startedEventId}</td>
                      <td>${time(t.due)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
          : html`<p class="muted">none</p>`
      }
      ${
        children.length
          ? html`<h2>Pending child workflows (${children.length})</h2>
              <table id="pending-children">
                <thead>
                  <tr>
                    <th>Workflow ID</th>
                    <th>Type</th>
                  </tr>
                </thead>
                <tbody>
                  ${children.map(
                    (c) =>
                      html`<tr>
                        <td class="id">${c.runId ? html`<a href="${runUrl(ns, c.workflowId ?? '', c.runId)}">${c.workflowId}</a>` : c.workflowId}</td>
                        <td>${c.workflowTypeName}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
          : ''
      }
      <h2>History (${run.history.length} events)</h2>
      <table id="history">
        <thead>
          <tr>
            <th>ID</th>
            <th>Time</th>
            <th>Event</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          ${run.history.map(eventRow)}
        </tbody>
      </table>`,
  };
}

export function messagePage(heading: string, message: string): { title: string; body: SafeHtml } {
  return {
    title: heading,
    body: html`<h1>${heading}</h1>
      <div class="error">${message}</div>
      <p><a href="/">all workflows</a></p>`,
  };
}
