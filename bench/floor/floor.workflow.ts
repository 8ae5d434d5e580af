// The floor's workflow (bench/e2e.ts): what Temporal costs a booking with nothing of the platform in
// it. Started by signal-with-start like a booking's, it waits for its signal, runs as many local
// activities as a new booking's workflow does at the bench's salon, which approves its bookings (its
// read, then the customer's SMS and e-mail and the salon's notice side by side), each doing nothing,
// and completes.
import { condition, defineSignal, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { FloorActivities } from './floor-activities';

export const floorSignal = defineSignal<[{ type: string; entityVersion: number }]>('floor');

const { read, sms, email, notice } = proxyLocalActivities<FloorActivities>({ startToCloseTimeout: '30 seconds' });

export async function floorWorkflow(id: string): Promise<void> {
  let signalled = false;
  setHandler(floorSignal, () => {
    signalled = true;
  });
  await condition(() => signalled);
  await read(id);
  await Promise.all([sms(id), email(id), notice(id)]);
}
