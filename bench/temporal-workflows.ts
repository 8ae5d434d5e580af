// The workflow of `npm run bench:temporal` (bundled by the benchmark's worker from this file): one
// activity and one short timer, the shape of the platform's own workflows.
import { proxyActivities, sleep } from '@temporalio/workflow';

const acts = proxyActivities<{ echo(s: string): Promise<string> }>({ startToCloseTimeout: '10s', retry: { initialInterval: '50ms', maximumAttempts: 3 } });

/** An activity and a short timer: the benchmark workflow. */
export async function activityAndTimer(): Promise<string> {
  const r = await acts.echo('bench');
  await sleep(10);
  return r;
}
