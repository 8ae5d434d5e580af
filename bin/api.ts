#!/usr/bin/env node
// The HTTP API process (production: one of several behind a load balancer). Configured by
// environment only: DATABASE_URL (already migrated by bin/migrate) and TEMPORAL_ADDRESS are
// required; it signals the real Temporal there. SIGTERM: stop accepting connections, let in-flight
// requests finish (up to SHUTDOWN_TIMEOUT_MS), close the pools, exit 0.
import http from 'node:http';
import { loadConfig } from '../config';
import { createKnex } from '../db/knex';
import { createLogger } from '../integrations/logger';
import { Metrics } from '../api/ops/metrics';
import { composeApi, createTemporalSignaller } from '../composition/compose';
import { exitOnUnhandled, refuseUnfitProduction } from './process';
import { closeServer, startApi } from '../composition/http-server';

async function main(): Promise<void> {
  const config = loadConfig();
  refuseUnfitProduction(config, 'api');
  const { databaseUrl, temporalAddress } = config;
  if (!databaseUrl) return fail('api: DATABASE_URL is not set (use `npm start` for the embedded stack)');
  if (!temporalAddress) return fail('api: TEMPORAL_ADDRESS is not set (use `npm start` for the embedded stack)');
  const logger = createLogger(config.logLevel);
  exitOnUnhandled(logger, 'api');
  const knex = createKnex(databaseUrl, { max: config.dbPoolMax });
  const metrics = new Metrics(knex);
  const signaller = createTemporalSignaller({ ...config, temporalAddress }, metrics);
  const composed = await composeApi({ config: { ...config, databaseUrl }, logger, knex, signaller, metrics });
  const server = await startApi(composed.deps, config.port);
  logger.info({ port: config.port, temporal: temporalAddress }, 'api listening');
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'api stopping: finishing in-flight requests');
    // the front desk's waiting change reads answer now rather than hold the close up to 25 s
    await composed.deps.changes?.close();
    const outcome = await closeServer(server, config.shutdownTimeoutMs);
    await composed.close();
    await signaller.close();
    await knex.destroy();
    logger.info({ outcome }, 'api stopped');
    process.exit(outcome === 'closed' ? 0 : 1);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

function fail(line: string): void {
  console.error(line);
  process.exit(1);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`api: ${(err as Error).message}`);
    process.exit(1);
  });
}
