// startDevServer(): the programmatic entry point (bin/dev, tests, the launcher).
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { exposeRequestEncoding } from './compression';
import { Engine } from './engine';
import { addProtoService } from './grpc-services';
import { PostgresActivityStore } from './persistence/activity-store';
import { PostgresRunStore } from './persistence/run-store';
import { PostgresScheduleStore } from './persistence/schedule-store';
import { resolveOptions, type DevServerOptions } from './options';
import { startUiServer, UiServer } from './ui/ui-server';
import { operatorHandlers, testHandlers, workflowServiceHandlers } from './workflow-service';

export type { DevServerOptions } from './options';

export interface DevServer {
  /** host:port to give to Connection/NativeConnection. */
  address: string;
  port: number;
  /** Base URL of the web UI when `uiPort` was given, e.g. 'http://127.0.0.1:8233'. */
  uiUrl?: string;
  /** The engine (tests and tools may inspect state). */
  engine: Engine;
  /** Resolves once stored state (if any) has been restored; RPCs wait for it automatically. */
  ready: Promise<void>;
  /** Graceful stop: completes in-flight long polls with empty responses, stores state, closes. */
  shutdown(): Promise<void>;
}

const MAX_MESSAGE = 128 * 1024 * 1024;

/** Calls that change nothing a restart must keep: reads, and polls (a task handed out and lost is retried). */
const READ_ONLY = /^(Describe|Get|List|Count|Poll|Query|Scan)/;

export async function startDevServer(given: DevServerOptions = {}): Promise<DevServer> {
  const options = resolveOptions(given);
  const { host, log, retentionMs } = options;
  const engine = new Engine({ timeSkipping: options.timeSkipping, namespaces: options.namespaces, log, longPollMs: options.resultLongPollMs });
  const server = new Server({
    'grpc.max_receive_message_length': MAX_MESSAGE,
    'grpc.max_send_message_length': MAX_MESSAGE,
    // Channelz (per-call counters and timestamps for the channelz admin service, which this
    // server does not expose) only costs CPU on every call.
    'grpc.enable_channelz': 0,
    interceptors: [exposeRequestEncoding],
  });
  const serviceOpts = { longPollMs: options.longPollMs, historyLongPollMs: options.resultLongPollMs, retentionMs };
  const workflowHandlers = workflowServiceHandlers(engine, serviceOpts);
  const store = options.databaseUrl ? new PostgresRunStore(options.databaseUrl, options.storeId) : undefined;
  const scheduleStore = options.databaseUrl ? new PostgresScheduleStore(options.databaseUrl, options.storeId) : undefined;
  const activityStore = options.databaseUrl ? new PostgresActivityStore(options.databaseUrl, options.storeId) : undefined;
  // Listen first (sdk-core gives a spawned server ~5 s), restore afterwards; RPCs wait for it.
  let markReady!: () => void;
  let failReady!: (e: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  ready.catch(() => undefined);
  // With a store, an answer that acknowledges a change waits until the change is stored, as the real
  // server's does: a start, signal or completion acknowledged and then lost to a crash (kill -9)
  // would be a booking without its workflow, or a message sent twice.
  const durable = (method: string) => (store && !READ_ONLY.test(method) ? engine.flushStores() : undefined);
  addProtoService(server, 'temporal.api.workflowservice.v1.WorkflowService', workflowHandlers, log, ready, durable);
  addProtoService(server, 'temporal.api.operatorservice.v1.OperatorService', operatorHandlers(engine), log, ready, durable);
  addProtoService(server, 'temporal.api.testservice.v1.TestService', testHandlers(engine), log, ready);

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${host.includes(':') ? `[${host}]` : host}:${options.port}`, ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    );
  });
  let ui: UiServer | undefined;
  if (options.uiPort !== undefined) {
    try {
      ui = await startUiServer({ registry: engine.registry, executions: engine.executions, clock: engine.clock, ready, log }, { port: options.uiPort, host });
    } catch (e) {
      server.forceShutdown();
      throw e;
    }
  }
  if (store && scheduleStore && activityStore) {
    engine
      .attachStore(store)
      .restore()
      .then(() => engine.attachActivityStore(activityStore))
      .then(() => engine.attachScheduleStore(scheduleStore))
      .then(() => markReady(), failReady);
  } else {
    markReady();
  }
  // Retention sweep in real time (a virtual-time timer would fire on every time skip).
  const sweep = options.timeSkipping
    ? undefined
    : setInterval(
        () => {
          // Purge first: `persistence?.forget(purge())` would skip the purge without a store.
          const purged = engine.purgeClosedRuns(retentionMs);
          engine.persistence?.forget(purged);
          engine.purgeClosedActivities(retentionMs);
        },
        Math.min(Math.max(retentionMs / 4, 10), 10 * 60 * 1000),
      );
  sweep?.unref();
  let stopped: Promise<void> | undefined;
  return {
    address: `${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    port,
    uiUrl: ui?.url,
    engine,
    ready,
    shutdown() {
      stopped ??= new Promise<void>((resolve) => {
        if (sweep) clearInterval(sweep);
        engine.shutdown();
        const force = setTimeout(() => server.forceShutdown(), 5_000);
        // Let the empty poll responses flush before closing.
        setImmediate(() =>
          server.tryShutdown(() => {
            clearTimeout(force);
            resolve();
          }),
        );
      }).then(async () => {
        await ui?.close();
        await engine.persistence?.close();
        await engine.schedulePersistence?.close();
        await engine.activityPersistence?.close();
      });
      return stopped;
    },
  };
}
