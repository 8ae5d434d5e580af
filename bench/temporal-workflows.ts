// The workflow of `npm run bench:temporal` (bundled by the benchmark's worker from this file): one
// activity and one short timer, the shape of the platform's own workflows.
import { condition, defineSignal, proxyActivities, proxyLocalActivities, setHandler, sleep } from '@temporalio/workflow';

const acts = proxyActivities<{ echo(s: string): Promise<string> }>({ startToCloseTimeout: '10s', retry: { initialInterval: '50ms', maximumAttempts: 3 } });

/** An activity and a short timer: the benchmark workflow. */
export async function activityAndTimer(): Promise<string> {
  const r = await acts.echo('bench');
  await sleep(10);
  return r;
}

const local = proxyLocalActivities<{ echo(s: string): Promise<string> }>({ startToCloseTimeout: '10s' });
export const bookingEvent = defineSignal<[number]>('event');

/**
 * The shape of a booking's workflow (bench:temporal --shape booking): started by a signal-with-start,
 * one local activity (the read), two in parallel (the SMS and the e-mail), then it waits a day for
 * the next event, as a booking waits for its reminder.
 */
export async function bookingShape(): Promise<void> {
  let events = 0;
  setHandler(bookingEvent, () => void (events += 1));
  await condition(() => events > 0);
  await local.echo('read');
  await Promise.all([local.echo('sms'), local.echo('email')]);
  await condition(() => events > 1, '1 day');
}
