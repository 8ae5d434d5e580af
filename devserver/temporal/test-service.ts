// temporal.api.testservice.v1.TestService: the time-skipping controls @temporalio/testing uses.
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { Engine } from './engine';
import { durationMs, timestamp, timestampMs } from './proto';
import type { Handler } from './workflow-service';

export function testServiceHandlers(engine: Engine): Record<string, Handler> {
  const clock = engine.clock;
  const sleepUntil = (due: number) => new Promise<void>((resolve) => {
    if (due <= clock.now()) return resolve();
    clock.at(due, resolve);
  });
  return {
    LockTimeSkipping: () => { clock.lock(); return {}; },
    UnlockTimeSkipping: () => { clock.unlock(); return {}; },
    Sleep: async (req: any) => { await sleepUntil(clock.now() + durationMs(req.duration)); return {}; },
    SleepUntil: async (req: any) => { await sleepUntil(timestampMs(req.timestamp) ?? 0); return {}; },
    UnlockTimeSkippingWithSleep: async (req: any) => {
      const done = new Promise<void>((resolve) => clock.after(durationMs(req.duration), () => { clock.lock(); resolve(); }));
      clock.unlock();
      await done;
      return {};
    },
    GetCurrentTime: () => ({ time: timestamp(clock.now()) }),
  };
}
