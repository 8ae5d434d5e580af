// The dev server's settings in one place: what startDevServer is given (DevServerOptions, which
// the launcher builds from its flags) and the value each one takes when it is not given. The rest
// of the server reads the resolved settings only, so a default is written once: the retention the
// sweep applies is the one DescribeNamespace reports.

export interface DevServerOptions {
  /** Port to listen on; 0 picks a free one. Default 7233. */
  port?: number;
  /** Interface to bind. Default '127.0.0.1'. */
  host?: string;
  /** Namespace(s) to register besides 'default'. */
  namespace?: string | string[];
  /** Time-skipping test-server mode (starts with time skipping locked, like Temporal's test server). */
  timeSkipping?: boolean;
  /** Long-poll expiry for task polls (ms). Default 60 s; tests may lower it. */
  longPollMs?: number;
  /**
   * How long a client's long poll for new history, a workflow result or a standalone activity's
   * outcome waits before answering "nothing yet" (ms; the client asks again). Default 20 s.
   */
  resultLongPollMs?: number;
  /**
   * Postgres connection string: keeps every run in the table temporal_devserver_runs, every
   * standalone activity in temporal_devserver_activities and every schedule in
   * temporal_devserver_schedules, so workflows, timers, retries, activities and schedules survive a
   * restart (dev-server role). Without it, state is in memory only.
   */
  databaseUrl?: string;
  /** Separates several servers sharing one database. Default 'default'. */
  storeId?: string;
  /**
   * Closed runs are forgotten this long after closing (dev-server mode only; the time-skipping
   * test server keeps everything). Default 24 h, the retention DescribeNamespace reports.
   */
  retentionMs?: number;
  /** Logger for unexpected internal errors. Default console.error. */
  log?: (msg: string) => void;
  /**
   * Serve the read-only web UI (workflow list, run history) on this port (0 = a free one), on the
   * same host as the gRPC port. Default: no UI.
   */
  uiPort?: number;
}

/** DevServerOptions with every default filled in. */
export interface ServerSettings {
  port: number;
  host: string;
  /** 'default' first, then the ones asked for. */
  namespaces: string[];
  timeSkipping: boolean;
  longPollMs: number;
  resultLongPollMs: number;
  databaseUrl?: string;
  storeId: string;
  retentionMs: number;
  log(msg: string): void;
  uiPort?: number;
}

export const DEFAULT_PORT = 7233;
export const DEFAULT_TASK_LONG_POLL_MS = 60_000;
export const DEFAULT_RESULT_LONG_POLL_MS = 20_000;
export const DEFAULT_RETENTION_MS = 24 * 3600 * 1000;

export function resolveOptions(options: DevServerOptions): ServerSettings {
  const extra = options.namespace === undefined ? [] : Array.isArray(options.namespace) ? options.namespace : [options.namespace];
  return {
    port: options.port ?? DEFAULT_PORT,
    host: options.host ?? '127.0.0.1',
    namespaces: [...new Set(['default', ...extra])],
    timeSkipping: !!options.timeSkipping,
    longPollMs: options.longPollMs ?? DEFAULT_TASK_LONG_POLL_MS,
    resultLongPollMs: options.resultLongPollMs ?? DEFAULT_RESULT_LONG_POLL_MS,
    databaseUrl: options.databaseUrl,
    storeId: options.storeId ?? 'default',
    retentionMs: options.retentionMs ?? DEFAULT_RETENTION_MS,
    log: options.log ?? ((m: string) => console.error(`[temporal-devserver] ${m}`)),
    uiPort: options.uiPort,
  };
}
