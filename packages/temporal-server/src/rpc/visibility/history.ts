// GetWorkflowExecutionHistory: pages of events, the long poll for new events, and the close-event
// long poll clients use to wait for a result (packages/temporal-server/PROTOCOL.md#waiting-for-a-result). Page tokens name the
// run and the next event index.
import type { temporal } from '@temporalio/proto';
import { invalidArgument, notFound } from '../../errors';
import type { Call, Plain } from '../../messages';
import { HistoryFilter } from '../../proto';
import { waitForChange } from '../../long-poll';
import type { RunRegistry } from '../../state/run-registry';
import type { ShutdownSignal } from '../../shutdown';

type HistoryRequest = Plain<temporal.api.workflowservice.v1.IGetWorkflowExecutionHistoryRequest>;
type HistoryResponse = Plain<temporal.api.workflowservice.v1.IGetWorkflowExecutionHistoryResponse>;

export interface HistoryDeps {
  registry: Pick<RunRegistry, 'runs' | 'resolveRun'>;
  shutdown: Pick<ShutdownSignal, 'stopping'>;
  historyLongPollMs: number;
}

function pageToken(runId: string, next: number): Buffer {
  return Buffer.from(JSON.stringify({ runId, next }));
}

function parsePageToken(bytes: Uint8Array | undefined): { runId: string; next: number } | undefined {
  if (!bytes?.length) return undefined;
  try {
    return JSON.parse(Buffer.from(bytes).toString()) as { runId: string; next: number };
  } catch {
    throw invalidArgument('invalid next_page_token');
  }
}

export async function getHistory(deps: HistoryDeps, ns: string, req: HistoryRequest, call: Call): Promise<HistoryResponse> {
  const token = parsePageToken(req.nextPageToken);
  const run = token ? deps.registry.runs.get(token.runId) : deps.registry.resolveRun(ns, req.execution);
  if (!run) throw notFound('workflow execution not found');
  const waitFor = (ready: () => boolean) => waitForChange(run, ready, call, deps.historyLongPollMs);
  if (req.historyEventFilterType === HistoryFilter.v('CLOSE_EVENT')) {
    if (run.open && req.waitNewEvent) await waitFor(() => !run.open || deps.shutdown.stopping);
    if (!run.open) return { history: { events: [run.history[run.history.length - 1]] } };
    return { history: { events: [] }, nextPageToken: pageToken(run.runId, 0) };
  }
  const start = token?.next ?? 0;
  if (req.waitNewEvent && run.open) await waitFor(() => run.history.length > start || !run.open || deps.shutdown.stopping);
  const size = (req.maximumPageSize ?? 0) > 0 ? req.maximumPageSize! : Infinity;
  const end = Math.min(run.history.length, start + size);
  const events = run.history.slice(start, end);
  const more = end < run.history.length || (req.waitNewEvent && run.open);
  return { history: { events }, nextPageToken: more ? pageToken(run.runId, end) : undefined };
}
