// Dependency checks for GET /health: each check is a named async probe with a deadline. Latency is
// a stopwatch reading (performance.now(), monotonic), not a time of day.
import { performance } from 'node:perf_hooks';
import type { HealthCheck } from './health-check';

export interface HealthReport {
  status: 'ok' | 'degraded';
  /** what a caller may see: up or down, how long the probe took, and for a probe that failed only whether it timed out */
  checks: Record<string, { status: 'up' | 'down'; latencyMs: number; error?: 'timeout' | 'unavailable' }>;
  down: string[];
  /** why each failed probe failed, for the server's log only: the raw error text can name hosts, users and ports (docs/rules/security.md#secrets-in-logs-and-messages) */
  causes: Record<string, unknown>;
}

class DeadlinePassed extends Error {}

const DEADLINE_MS = 2000;

async function withDeadline(check: HealthCheck): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new DeadlinePassed(`no answer within ${DEADLINE_MS} ms`)), DEADLINE_MS);
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
        return [
          name,
          {
            status: 'down' as const,
            latencyMs: Math.round(performance.now() - started),
            error: err instanceof DeadlinePassed ? ('timeout' as const) : ('unavailable' as const),
          },
          err,
        ] as const;
      }
    }),
  );
  const checksByName = Object.fromEntries(entries.map(([name, check]) => [name, check]));
  const down = entries.filter(([, c]) => c.status === 'down').map(([n]) => n);
  const causes = Object.fromEntries(entries.filter((e) => e.length === 3).map(([name, , cause]) => [name, cause]));
  return { status: down.length ? 'degraded' : 'ok', checks: checksByName, down, causes };
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
