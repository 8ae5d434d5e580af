// Shared plumbing for the dev-server conformance tests: one in-process server per test file,
// real SDK clients, a workflow bundle built once per process, and a helper that runs a Worker for
// the duration of a callback. Each suite is run twice: with the worker's default cache and with
// maxCachedWorkflows: 0 (every task a full replay), so history mistakes show up as nondeterminism.
import { randomUUID } from 'node:crypto';
import * as net from 'node:net';
import * as chai from 'chai';
import chaiAsPromised from 'chai-as-promised';
import { temporal } from '@temporalio/proto';
import { Worker, NativeConnection, bundleWorkflowCode, Runtime, DefaultLogger, WorkerOptions } from '@temporalio/worker';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { startDevServer, DevServer } from '../src';
import * as activities from './activities';

chai.use(chaiAsPromised);

export const CACHE_MODES: { name: string; maxCachedWorkflows?: number }[] = [
  { name: 'default cache' },
  { name: 'maxCachedWorkflows: 0', maxCachedWorkflows: 0 },
];

let runtimeInstalled = false;
function quietRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    const level = (process.env.DEVSERVER_TEST_LOG ?? 'ERROR') as 'ERROR' | 'WARN' | 'INFO';
    Runtime.install({ logger: new DefaultLogger(level), telemetryOptions: { logging: { filter: { core: level, other: level }, forward: {} } } });
  } catch {
    // Someone else installed the runtime first; keep theirs.
  }
}

const bundles = new Map<string, Promise<WorkflowBundleWithSourceMap>>();
export function bundle(file = './workflows'): Promise<WorkflowBundleWithSourceMap> {
  const path = require.resolve(file);
  let b = bundles.get(path);
  if (!b) {
    quietRuntime();
    b = bundleWorkflowCode({ workflowsPath: path, logger: new DefaultLogger('ERROR') });
    bundles.set(path, b);
  }
  return b;
}

export interface Env {
  server: DevServer;
  client: Client;
  connection: Connection;
  nativeConnection: NativeConnection;
  /** Runs a worker on `taskQueue` while `fn` runs; shuts it down afterwards. */
  withWorker<T>(taskQueue: string, fn: () => Promise<T>, opts?: Partial<WorkerOptions> & { workflowsFile?: string }): Promise<T>;
  createWorker(taskQueue: string, opts?: Partial<WorkerOptions> & { workflowsFile?: string }): Promise<Worker>;
}

/** Registers before/after hooks that give the suite a server, clients and a worker factory. */
export function useEnv(mode: { maxCachedWorkflows?: number }, serverOpts: Parameters<typeof startDevServer>[0] = {}): Env {
  const env = {} as Env;
  before(async function () {
    this.timeout(60_000);
    quietRuntime();
    env.server = await startDevServer({ port: 0, ...serverOpts });
    env.connection = await Connection.connect({ address: env.server.address });
    env.nativeConnection = await NativeConnection.connect({ address: env.server.address });
    env.client = new Client({ connection: env.connection });
    await bundle();
  });
  after(async function () {
    this.timeout(30_000);
    await env.connection?.close();
    await env.nativeConnection?.close();
    await env.server?.shutdown();
  });
  env.createWorker = async (taskQueue, opts = {}) => {
    const { workflowsFile, ...rest } = opts;
    return Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await bundle(workflowsFile),
      activities,
      ...(mode.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: mode.maxCachedWorkflows } : {}),
      ...rest,
    });
  };
  env.withWorker = async (taskQueue, fn, opts) => {
    const worker = await env.createWorker(taskQueue, opts);
    return worker.runUntil(fn);
  };
  return env;
}

/** A fresh id for task queues and workflow ids, so tests never share state. */
export function uid(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Event type names of a workflow's history, e.g. ['WORKFLOW_EXECUTION_STARTED', ...]. */
export async function eventTypes(client: Client, workflowId: string, runId?: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  return (history.events ?? []).map((e) => temporal.api.enums.v1.EventType[e.eventType!].replace('EVENT_TYPE_', ''));
}

export async function waitFor<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 10_000, stepMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
