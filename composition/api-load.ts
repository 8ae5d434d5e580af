// The api's load as the worker sees it under `npm start`, where both share the machine's cores
// (docs/rules/consistency.md#worker-priority). Niceness 19 keeps the worker off a core the api wants,
// but not off the other one: in a burst of bookings the worker's activities still ran beside the api
// and made Postgres work harder for it. So the api reports when its event loop is saturated, and the
// worker's activities wait until it is not, never longer than MAX_HOLD_MS each.
import { performance } from 'node:perf_hooks';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';

export type ApiLoad = 'busy' | 'idle';

/** What the api process sends the worker process it forked, on each change. */
export interface ApiLoadMessage {
  apiLoad: ApiLoad;
}

export function isApiLoadMessage(message: unknown): message is ApiLoadMessage {
  const load = (message as Partial<ApiLoadMessage> | null)?.apiLoad;
  return load === 'busy' || load === 'idle';
}

/** The share of a sample the api's event loop must be running for it to count as busy... */
export const BUSY_FROM = 0.9;
/** ...and the share it must fall below to count as idle again (between the two, nothing changes). */
export const IDLE_BELOW = 0.5;
export const SAMPLE_MS = 50;
/**
 * The longest an activity waits for the api. A burst of 100 bookings keeps the api saturated for about
 * half a second; under longer overload the worker goes on, each activity a second late (their
 * start-to-close timeouts are 10 s and more).
 */
export const MAX_HOLD_MS = 1000;

export function nextApiLoad(current: ApiLoad, utilisation: number): ApiLoad {
  if (utilisation >= BUSY_FROM) return 'busy';
  if (utilisation < IDLE_BELOW) return 'idle';
  return current;
}

/**
 * Samples this thread's event loop utilisation every `sampleMs` and reports each change of load.
 * Returns the function that stops it. The sampling timer does not keep the process alive.
 */
export function watchApiLoad(report: (load: ApiLoad) => void, sampleMs = SAMPLE_MS): () => void {
  let load: ApiLoad = 'idle';
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const next = nextApiLoad(load, performance.eventLoopUtilization(now, last).utilization);
    last = now;
    if (next !== load) report((load = next));
  }, sampleMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The worker's side: where its activities wait while the api is busy. */
export class ApiLoadGate {
  private load: ApiLoad = 'idle';
  private waiting: { activity: string; release: () => void }[] = [];

  constructor(private readonly maxHoldMs = MAX_HOLD_MS) {}

  set(load: ApiLoad): void {
    this.load = load;
    if (load === 'idle') {
      const waiting = this.waiting;
      this.waiting = [];
      for (const { release } of waiting) release();
    }
  }

  /** Nothing while the api is idle (no promise on the common path); else when it is idle, or after maxHoldMs. */
  wait(activity = 'activity'): Promise<void> | undefined {
    if (this.load === 'idle') return undefined;
    return new Promise<void>((resolve) => {
      const waiter = {
        activity,
        release: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((w) => w !== waiter);
        resolve();
      }, this.maxHoldMs);
      this.waiting.push(waiter);
    });
  }

  /** The activities (their types) waiting at the gate now, in the order they came. */
  held(): string[] {
    return this.waiting.map((w) => w.activity);
  }
}

/** Every activity (local ones too) begins once the gate lets it; it holds nothing while it waits. */
export function yieldingActivities(gate: ApiLoadGate): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const held = gate.wait(ctx.info.activityType);
        if (held) await held;
        return next(input);
      },
    },
  });
}
