// temporal.api.testservice.v1.TestService: the time-skipping controls @temporalio/testing uses.
import type { VirtualClock } from '../../clock';
import type { TestServiceHandlers } from '../../messages';
import { durationMs, timestamp, timestampMs } from '../../proto';

export function testServiceHandlers(clock: VirtualClock): TestServiceHandlers {
  const sleepUntil = (due: number) =>
    new Promise<void>((resolve) => {
      if (due <= clock.now()) return resolve();
      clock.at(due, resolve);
    });
  return {
    LockTimeSkipping: () => {
      clock.lock();
      return {};
    },
    UnlockTimeSkipping: () => {
      clock.unlock();
      return {};
    },
    Sleep: async (req) => {
      await sleepUntil(clock.now() + durationMs(req.duration));
      return {};
    },
    SleepUntil: async (req) => {
      await sleepUntil(timestampMs(req.timestamp) ?? 0);
      return {};
    },
    UnlockTimeSkippingWithSleep: async (req) => {
      const done = new Promise<void>((resolve) =>
        clock.after(durationMs(req.duration), () => {
          clock.lock();
          resolve();
        }),
      );
      clock.unlock();
      await done;
      return {};
    },
    GetCurrentTime: () => ({ time: timestamp(clock.now()) }),
  };
}
