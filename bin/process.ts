// What every process entry point does first: refuse a production configuration that is not fit
// for it, and exit on an unhandled error instead of running on in an unknown state.
import { productionProblem, type AppConfig } from '../config';
import type { Logger } from '../integrations/logger';

/** Exits with one line on stderr when NODE_ENV=production and the configuration is not fit for it. */
export function refuseUnfitProduction(config: AppConfig, processName: string, needs?: { database?: boolean; temporal?: boolean }): void {
  const problem = productionProblem(config, needs);
  if (problem) {
    console.error(`${processName}: ${problem}`);
    process.exit(1);
  }
}

/**
 * Process-level safety net: an unhandled rejection or exception is logged and the process exits
 * non-zero (the orchestrator restarts it) instead of running on in an unknown state.
 */
export function exitOnUnhandled(logger: Logger, processName: string): void {
  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, `${processName}: unhandled promise rejection`);
    process.exit(1);
  });
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, `${processName}: uncaught exception`);
    process.exit(1);
  });
}
