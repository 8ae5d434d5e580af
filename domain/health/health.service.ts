// Dependency checks for GET /health: each check is a named async probe with a deadline. Latency is
// a stopwatch reading (performance.now(), monotonic), not a time of day.
import { performance } from 'node:perf_hooks';
import type { HealthCheck } from './health-check';

export interface HealthReport {
  status: 'ok' | 'degraded';
  checks: Record<string, { status: 'up' | 'down'; latencyMs: number; error?: string }>;
  down: string[];
}

const DEADLINE_MS = 2000;

async function withDeadline(check: HealthCheck): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${DEADLINE_MS} ms`)), DEADLINE_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(checks: Record<string, HealthCheck>): Promise<HealthReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      const started = performance.now();
      try {
        await withDeadline(check);
        return [name, { status: 'up' as const, latencyMs: Math.round(performance.now() - started) }] as const;
      } catch (err) {
        return [name, { status: 'down' as const, latencyMs: Math.round(performance.now() - started), error: (err as Error).message }] as const;
      }
    }),
  );
  const checksByName = Object.fromEntries(entries);
  const down = entries.filter(([, c]) => c.status === 'down').map(([n]) => n);
  return { status: down.length ? 'degraded' : 'ok', checks: checksByName, down };
}

/** How long one report answers GET /health for everyone (load balancers and monitors poll it often). */
export const HEALTH_REPORT_TTL_MS = 1000;

/**
 * checkHealth that runs the probes at most once per `ttlMs`: callers within that time, and callers
 * while a round of probes is running, share its report, so a burst of health checks costs one
 * database round trip and one Temporal call, not one each.
 */
export function cachedHealthCheck(checks: Record<string, HealthCheck>, ttlMs = HEALTH_REPORT_TTL_MS): () => Promise<HealthReport> {
  let last: { at: number; report: Promise<HealthReport> } | undefined;
  return () => {
    const now = performance.now();
    if (!last || now - last.at >= ttlMs) last = { at: now, report: checkHealth(checks) };
    return last.report;
  };
}
