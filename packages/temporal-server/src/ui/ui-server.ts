// The dev server's read-only web UI (the `temporal server start-dev` UI port, 8233 by default):
// plain node:http, server-rendered pages (pages.ts), GET and HEAD only, nothing that changes state.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { status as Status } from '@grpc/grpc-js';
import { RpcError } from '../errors';
import type { ActivityExecutionRegistry } from '../state/activity-execution-registry';
import type { RunRegistry } from '../state/run-registry';
import { activityFilterForm, activityListPage, activityPage, activityUrl } from './activity-pages';
import { html, SafeHtml } from './html';
import { filterForm, layout, listPage, listTabs, messagePage, runPage, runUrl, workflowsUrl } from './pages';

export interface UiDeps {
  registry: Pick<RunRegistry, 'namespaces' | 'allRuns' | 'resolveRun' | 'checkNamespace'>;
  executions: Pick<ActivityExecutionRegistry, 'all' | 'resolve'>;
  /** The engine's clock (virtual time in time-skipping mode). */
  clock: { now(): number };
  /** Stored runs restored; pages wait for it. */
  ready: Promise<void>;
  log(msg: string): void;
}

export interface UiServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  // No script at all; inline styles only; forms only to ourselves.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

type Page = { status: number; title: string; body: SafeHtml; ns?: string } | { status: 302; location: string };

function segments(pathname: string): string[] | undefined {
  try {
    return pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

function route(deps: UiDeps, url: URL): Page {
  const parts = segments(url.pathname);
  if (!parts) return { status: 400, ...messagePage('Bad request', 'The address is not valid.') };
  if (parts.length === 0) return { status: 302, location: workflowsUrl('default') };
  const kind = parts[2];
  if (parts[0] !== 'namespaces' || (kind !== 'workflows' && kind !== 'activities') || parts.length < 3 || parts.length > 5) {
    return { status: 404, ...messagePage('Not found', `Nothing at ${url.pathname}.`) };
  }
  const ns = deps.registry.checkNamespace(parts[1]);
  if (parts.length === 3) {
    const query = url.searchParams.get('query') ?? '';
    const offset = Math.max(0, Math.floor(Number(url.searchParams.get('offset') ?? 0)) || 0);
    try {
      if (kind === 'activities') return { status: 200, ns, ...activityListPage({ source: deps.executions, ns, query, offset }) };
      return { status: 200, ns, ...listPage({ source: deps.registry, ns, query, offset }) };
    } catch (e) {
      if (!(e instanceof RpcError) || e.code !== Status.INVALID_ARGUMENT) throw e;
      const heading = kind === 'activities' ? 'Standalone activities' : 'Workflows';
      const form = kind === 'activities' ? activityFilterForm(ns, query) : filterForm(workflowsUrl(ns), query);
      return {
        status: 400,
        ns,
        title: 'Invalid query',
        body: html`<h1>${heading} <span class="muted">in ${ns}</span></h1>
          ${listTabs(ns, kind)}${form}
          <div class="error" id="query-error">${e.message}</div>`,
      };
    }
  }
  if (kind === 'activities') {
    const exec = deps.executions.resolve(ns, parts[3], parts[4]);
    if (parts.length === 4) return { status: 302, location: activityUrl(ns, exec.activityId, exec.runId) };
    return { status: 200, ns, ...activityPage(exec, deps.clock.now()) };
  }
  const run = deps.registry.resolveRun(ns, { workflowId: parts[3], runId: parts[4] });
  if (parts.length === 4) return { status: 302, location: runUrl(ns, run.workflowId, run.runId) };
  return { status: 200, ns, ...runPage(run, deps.clock.now()) };
}

async function handle(deps: UiDeps, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...HEADERS, allow: 'GET, HEAD' }).end();
    return;
  }
  await deps.ready;
  let page: Page;
  try {
    page = route(deps, new URL(req.url ?? '/', 'http://ui.invalid'));
  } catch (e) {
    if (e instanceof RpcError && e.code === Status.NOT_FOUND) page = { status: 404, ...messagePage('Not found', e.message) };
    else if (e instanceof RpcError && e.code === Status.INVALID_ARGUMENT) page = { status: 400, ...messagePage('Bad request', e.message) };
    else {
      deps.log(`ui: ${req.url}: ${(e as Error).stack ?? String(e)}`);
      page = { status: 500, ...messagePage('Internal error', 'The page could not be rendered; the dev server log has the details.') };
    }
  }
  if ('location' in page) {
    res.writeHead(302, { ...HEADERS, location: page.location }).end();
    return;
  }
  const body = layout(page.title, [...deps.registry.namespaces], page.ns, page.body).toString();
  res.writeHead(page.status, { ...HEADERS, 'content-length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

export async function startUiServer(deps: UiDeps, options: { port: number; host: string }): Promise<UiServer> {
  const server = http.createServer((req, res) => {
    handle(deps, req, res).catch((e: unknown) => {
      deps.log(`ui: ${(e as Error).message}`);
      if (!res.headersSent) res.writeHead(500, HEADERS);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
