// The official Temporal CLI's dev server (`temporal server start-dev`: the real server, SQLite
// persistence, the real Web UI) as a child process: what `npm start` runs, and the Temporal of the
// tests' embedded stack and of the benchmarks. Ready once its frontend answers DescribeNamespace for
// the namespace the platform uses and the platform's search attributes are registered.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort } from '../postgres';
import { findTemporalCli, missingCliLine } from './paths';
import { registerPlatformSearchAttributes, searchAttributeFlags } from './search-attributes';

/**
 * The SQLite file in WAL mode, synced at checkpoints: a process that is killed loses nothing it
 * answered (only a machine that loses power may lose the last writes), and the server spends half
 * the CPU per workflow and runs twice the workflows a second of the default rollback journal
 * (docs/temporal-engines.md).
 */
export const SQLITE_PRAGMAS = ['--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal'];

export interface OfficialDevServerOptions {
  /** the CLI; default: findTemporalCli() (TEMPORAL_CLI_PATH, else the checkout's install) */
  cli?: string;
  /** frontend port; 0 = a free one */
  port?: number;
  ip?: string;
  /** the Web UI's port; unset or 0 = headless */
  uiPort?: number;
  /** SQLite file the runs are kept in (a restart on it keeps them); unset = in memory */
  dbFile?: string;
  namespaces?: string[];
  /** the server's own log level (its output is kept for failure messages) */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  readyTimeoutMs?: number;
  /** extra environment of the CLI process */
  env?: NodeJS.ProcessEnv;
  /** dynamic config values (`--dynamic-config-value KEY=JSON`) on top of the CLI's own */
  dynamicConfig?: Record<string, unknown>;
}

export interface OfficialDevServer {
  address: string;
  port: number;
  uiUrl?: string;
  child: ChildProcess;
  /** what the CLI printed so far */
  output(): string;
  /** SIGTERM, then SIGKILL after 10 s; resolves once it exited */
  stop(): Promise<void>;
}

export async function startOfficialDevServer(options: OfficialDevServerOptions = {}): Promise<OfficialDevServer> {
  const cli = options.cli ?? findTemporalCli();
  if (!cli) throw new Error(missingCliLine());
  const ip = options.ip ?? '127.0.0.1';
  const port = options.port || (await freePort());
  const args = ['server', 'start-dev', '--ip', ip, '--port', String(port), '--log-level', options.logLevel ?? 'warn'];
  if (options.uiPort) args.push('--ui-port', String(options.uiPort), '--ui-disable-news-fetch');
  else args.push('--headless');
  if (options.dbFile) {
    fs.mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile, ...SQLITE_PRAGMAS);
  }
  for (const ns of options.namespaces ?? []) args.push('--namespace', ns);
  args.push(...searchAttributeFlags());
  for (const [key, value] of Object.entries(options.dynamicConfig ?? {})) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // a CLI that cannot be run (TEMPORAL_CLI_PATH pointing nowhere) says so in the readiness error
  child.once('error', (err) => keep(Buffer.from(`cannot run ${cli}: ${err.message}`)));
  // it goes with this process, however this process ends its run (mocha --exit, process.exit)
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.off('exit', killOnExit);
      resolve();
    }),
  );
  const address = `${ip}:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const uiUrl = options.uiPort ? `http://${ip === '0.0.0.0' ? '127.0.0.1' : ip}:${options.uiPort}` : undefined;
  try {
    await waitUntilServing(address, child, () => output, options.readyTimeoutMs ?? 60_000);
    // the Web UI comes up beside the frontend, a moment later: its address is printed once it answers
    if (uiUrl) await waitUntilAnswering(uiUrl, child, () => output, options.readyTimeoutMs ?? 60_000);
    // a SQLite file made before an attribute existed: the flags only reach a new file
    const connection = await Connection.connect({ address });
    try {
      for (const ns of ['default', ...(options.namespaces ?? [])]) await registerPlatformSearchAttributes(connection, ns);
    } finally {
      await connection.close();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    address,
    port,
    uiUrl,
    child,
    output: () => output,
    stop,
  };
}

/** Until `url` answers HTTP at all; fails at once when the process exits. */
async function waitUntilAnswering(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the Temporal server exited before its Web UI at ${url} answered: ${output().trim().split('\n').slice(-5).join(' | ')}`);
    const answered = await fetch(url).then(
      () => true,
      () => false,
    );
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`the Temporal Web UI at ${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Until the frontend answers DescribeNamespace('default'); fails at once when the process exits. */
export async function waitUntilServing(
  address: string,
  child: ChildProcess | undefined,
  output: () => string,
  timeoutMs: number,
  namespace = 'default',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null || (child.pid === undefined && /cannot run/.test(output())))) {
      throw new Error(
        `the Temporal server at ${address} exited (${child.exitCode ?? child.signalCode}) before it served: ${output().trim().split('\n').slice(-5).join(' | ')}`,
      );
    }
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: 2000 });
      await connection.workflowService.describeNamespace({ namespace });
      return;
    } catch (err) {
      last = (err as Error).message;
    } finally {
      await connection?.close().catch(() => undefined);
    }
    if (Date.now() > deadline)
      throw new Error(
        `the Temporal server at ${address} did not serve namespace ${namespace} within ${timeoutMs} ms (${last}): ${output().trim().split('\n').slice(-5).join(' | ')}`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}
