// The production engine without Docker: go.temporal.io/server at the pinned version (versions.json;
// docker-compose.yml runs the same), built with the machine's Go into `.temporal/server-<version>`
// (git-ignored; built again only when the pin changes), on Postgres persistence and visibility set up
// by its own schema tool. `npm run temporal:build-server` builds it; `npm run test:temporal-postgres`
// runs the production topology, fault and restart tests on it.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { freePort } from '../postgres';
import { TEMPORAL_PINS, officialTemporalDir } from './paths';
import { waitUntilServing } from './dev-server';
import { registerPlatformSearchAttributes } from './search-attributes';

export class GoServerBuildError extends Error {}

export function goServerDir(): string {
  return path.join(officialTemporalDir(), `server-${TEMPORAL_PINS.server}`);
}

const serverBin = () => path.join(goServerDir(), 'bin', 'server');
const sqlToolBin = () => path.join(goServerDir(), 'bin', 'sql');
/** The server's own development config for Postgres, from the module at the pinned version. */
const baseConfig = () => path.join(goServerDir(), 'development-postgres12.yaml');
const stamp = () => path.join(goServerDir(), 'built.json');

export function goServerBuilt(): boolean {
  try {
    return (
      JSON.parse(fs.readFileSync(stamp(), 'utf8')).server === TEMPORAL_PINS.server &&
      fs.existsSync(serverBin()) &&
      fs.existsSync(sqlToolBin()) &&
      fs.existsSync(baseConfig())
    );
  } catch {
    return false;
  }
}

/** Builds cmd/server and cmd/tools/sql at the pinned version unless they are built; returns how long it took (0: cached). */
export function ensureGoServer(log: (line: string) => void = (l) => console.error(l)): number {
  if (goServerBuilt()) return 0;
  const go = process.env.GO ?? 'go';
  const version = spawnSync(go, ['version'], { encoding: 'utf8' });
  if (version.status !== 0)
    throw new GoServerBuildError(
      `Building go.temporal.io/server ${TEMPORAL_PINS.server} needs Go on the PATH (${version.error?.message ?? version.stderr.trim()}): install Go 1.24 or later (or set GO), then npm run temporal:build-server`,
    );
  const started = Date.now();
  // the folder of another pin goes: only the pinned server is kept
  fs.mkdirSync(officialTemporalDir(), { recursive: true });
  for (const entry of fs.readdirSync(officialTemporalDir()))
    if (entry.startsWith('server-') && path.join(officialTemporalDir(), entry) !== goServerDir())
      fs.rmSync(path.join(officialTemporalDir(), entry), { recursive: true, force: true });
  fs.rmSync(goServerDir(), { recursive: true, force: true });
  fs.mkdirSync(path.join(goServerDir(), 'bin'), { recursive: true });
  const module = `go.temporal.io/server`;
  log(`building ${module} v${TEMPORAL_PINS.server} (cmd/server, cmd/tools/sql) with ${version.stdout.trim()} into ${goServerDir()}`);
  const env = { ...process.env, GOBIN: path.join(goServerDir(), 'bin'), GOTOOLCHAIN: 'local', GOFLAGS: '-trimpath' };
  const built = spawnSync(go, ['install', `${module}/cmd/server@v${TEMPORAL_PINS.server}`, `${module}/cmd/tools/sql@v${TEMPORAL_PINS.server}`], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (built.status !== 0) {
    const last = built.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('go: downloading'))
      .slice(-3)
      .join(' | ');
    throw new GoServerBuildError(
      `go install ${module}@v${TEMPORAL_PINS.server} failed (${last}): check the Go module proxy (GOPROXY), then npm run temporal:build-server`,
    );
  }
  const modCache = execFileSync(go, ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
  fs.copyFileSync(path.join(modCache, `${module}@v${TEMPORAL_PINS.server}`, 'config', 'development-postgres12.yaml'), baseConfig());
  fs.writeFileSync(
    stamp(),
    `${JSON.stringify({ server: TEMPORAL_PINS.server, go: version.stdout.trim(), seconds: Math.round((Date.now() - started) / 1000) }, null, 2)}\n`,
  );
  const seconds = (Date.now() - started) / 1000;
  log(`built go.temporal.io/server v${TEMPORAL_PINS.server} in ${seconds.toFixed(0)} s`);
  return seconds;
}

export interface GoServer {
  address: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, SIGKILL after 2 s; resolves once it exited */
  stop(): Promise<void>;
}

/**
 * Sets up `<prefix>` and `<prefix>_visibility` on the Postgres at `postgresUrl` with the server's
 * schema tool (idempotent), then starts the server on 127.0.0.1:`port` with them and registers the
 * `default` namespace and the platform's search attributes. The schema survives the server, so a restart with the same prefix keeps its runs.
 */
export async function startGoServer(options: { port: number; postgresUrl: string; databasePrefix: string; readyTimeoutMs?: number }): Promise<GoServer> {
  if (!goServerBuilt()) ensureGoServer();
  const pg = new URL(options.postgresUrl);
  const sqlEnv = {
    ...process.env,
    SQL_PLUGIN: 'postgres12',
    SQL_HOST: pg.hostname,
    SQL_PORT: pg.port || '5432',
    SQL_USER: decodeURIComponent(pg.username),
    SQL_PASSWORD: decodeURIComponent(pg.password),
  };
  const databases = { temporal: options.databasePrefix, visibility: `${options.databasePrefix}_visibility` };
  for (const [schema, database] of Object.entries(databases)) {
    for (const args of [
      ['create', '--defaultdb', pg.pathname.slice(1) || 'postgres'],
      ['setup-schema', '-v', '0.0'],
      ['update-schema', '--schema-name', `postgresql/v12/${schema}`],
    ]) {
      const done = spawnSync(sqlToolBin(), ['--db', database, ...args], { env: sqlEnv, encoding: 'utf8' });
      if (done.status !== 0)
        throw new Error(`temporal sql tool ${args[0]} on ${database} failed: ${(done.stderr || done.stdout).trim().split('\n').slice(-3).join(' | ')}`);
    }
  }
  const config = YAML.parse(fs.readFileSync(baseConfig(), 'utf8'));
  config.log = { stdout: true, level: 'warn' };
  for (const [store, database] of [
    ['postgres-default', databases.temporal],
    ['postgres-visibility', databases.visibility],
  ]) {
    Object.assign(config.persistence.datastores[store].sql, {
      connectAddr: `${pg.hostname}:${pg.port || 5432}`,
      user: sqlEnv.SQL_USER,
      password: sqlEnv.SQL_PASSWORD,
      databaseName: database,
      maxConns: 10,
      maxIdleConns: 10,
    });
  }
  delete config.global.pprof;
  // its development dynamic config (like the docker image's) sets nothing: the server's defaults
  delete config.dynamicConfigClient;
  // The ports are picked free and taken by the server a moment later: another process may take one
  // meanwhile (the lanes of npm test start servers side by side), so a start that lost one of its own
  // ports is tried again with fresh ones. The frontend's port is the caller's and stays.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchGoServer(config, options);
    } catch (err) {
      const lost = /address already in use/.test((err as Error).message) && !(err as Error).message.includes(`127.0.0.1:${options.port}"`);
      if (!lost || attempt === 3) throw err;
    }
  }
}

/** The parts of the server's YAML configuration this file sets (the rest passes through). */
type ServerConfig = {
  global: { metrics: { prometheus: { listenAddress: string } } };
  services: Record<string, { rpc: { grpcPort: number; membershipPort: number; httpPort?: number } }>;
};

/** Starts the server with `config` on fresh ports (the frontend's is `options.port`), and registers what the platform needs. */
async function launchGoServer(config: ServerConfig, options: { port: number; readyTimeoutMs?: number }): Promise<GoServer> {
  config.global.metrics.prometheus.listenAddress = `127.0.0.1:${await freePort()}`;
  const membership = new Set<number>();
  for (const service of ['frontend', 'history', 'matching', 'worker']) {
    const rpc = config.services[service].rpc;
    rpc.grpcPort = service === 'frontend' ? options.port : await freePort();
    // stored as a smallint in cluster_membership: below the kernel's ephemeral range
    rpc.membershipPort = await freePortBelow(32768, membership);
    membership.add(rpc.membershipPort);
    if (service === 'frontend') rpc.httpPort = await freePort();
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-temporal-server-'));
  const configFile = path.join(dir, 'config.yaml');
  fs.writeFileSync(configFile, YAML.stringify(config));
  const child = spawn(serverBin(), ['--config-file', configFile, '--allow-no-auth', 'start'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.off('exit', killOnExit);
      // its config goes with it, however it ended (a test kills it -9)
      fs.rmSync(dir, { recursive: true, force: true });
      resolve();
    }),
  );
  const address = `127.0.0.1:${options.port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // its graceful stop takes up to 15 s (membership, shard draining); what it acknowledged is
      // stored already, so after a moment it is killed (a start on the same databases recovers)
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    await registerDefaultNamespace(address, child, () => output, options.readyTimeoutMs ?? 90_000);
    await waitUntilServing(address, child, () => output, options.readyTimeoutMs ?? 90_000);
    const connection = await Connection.connect({ address });
    try {
      await registerPlatformSearchAttributes(connection, 'default');
    } finally {
      await connection.close();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { address, child, output: () => output, stop };
}

/** A port between 20000 and `limit` nobody listens on now and not `picked` already (tried at random). */
async function freePortBelow(limit: number, picked: ReadonlySet<number>): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * (limit - 20_000));
    if (picked.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/** The namespace the platform uses; a real server has none until it is registered. */
async function registerDefaultNamespace(address: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `the Temporal server exited (${child.exitCode ?? child.signalCode}) before it served: ${output().trim().split('\n').slice(-5).join(' | ')}`,
      );
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: 2000 });
      await connection.workflowService.registerNamespace({ namespace: 'default', workflowExecutionRetentionPeriod: msToTs('3 days') });
      return;
    } catch (err) {
      if (/already exists/i.test((err as Error).message)) return;
      if (Date.now() > deadline) throw new Error(`registering namespace default at ${address} failed: ${(err as Error).message}`);
    } finally {
      await connection?.close().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

if (require.main === module) {
  try {
    const seconds = ensureGoServer();
    if (!seconds) console.log(`go.temporal.io/server v${TEMPORAL_PINS.server} is built: ${goServerDir()}`);
  } catch (err) {
    console.error(err instanceof GoServerBuildError ? err.message : `npm run temporal:build-server: ${(err as Error).message}`);
    process.exit(1);
  }
}
