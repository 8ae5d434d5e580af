// Workflows of the worker watchdog test (test/workflows/worker-watchdog.test.ts): one that never
// yields, and one that yields on every step as the platform's workflows do.
import { condition, defineSignal, setHandler, sleep } from '@temporalio/workflow';

export const stepSignal = defineSignal('step');

/** Runs synchronously for ever once started: the watchdog has to end its workflow task. */
export async function neverYields(): Promise<void> {
  for (;;) {
    // busy: no await, so the activation never ends
  }
}

/** Never yields once it has been signalled (the spin starts in the activation of the signal). */
export async function spinsAfterSignal(): Promise<void> {
  let signalled = false;
  setHandler(stepSignal, () => {
    signalled = true;
  });
  await condition(() => signalled);
  for (;;) {
    // busy
  }
}

/** A few activations, each short: a timer, a signal and a condition. */
export async function yieldsEachStep(): Promise<string> {
  let steps = 0;
  setHandler(stepSignal, () => {
    steps += 1;
  });
  await sleep(1000);
  await condition(() => steps >= 2);
  return `done after ${steps} signals`;
}
