// A test worker's SMS queue (workflows/shared/sms-queue.ts): the reminders' SMS go through it, so a
// test whose booking workflows reach a reminder runs its worker beside one on `<taskQueue>-sms`.
import type { NativeConnection, Worker } from '@temporalio/worker';
import { createSmsWorker } from '../../../composition/worker';

/** Runs `worker` and the SMS worker of its task queue (the same activities) until `work` settles. */
export async function runUntilWithSms<T>(
  worker: Worker,
  sms: { connection: NativeConnection; taskQueue: string; activities: object; ratePerSecond?: number },
  work: Promise<T> | (() => Promise<T>),
): Promise<T> {
  const smsWorker = await createSmsWorker(sms);
  return smsWorker.runUntil(worker.runUntil(work));
}
