// Task tokens are opaque to the SDK; ours are small JSON blobs that name the task precisely enough
// to reject stale ones (an older attempt, a timed-out task, a closed run) with NOT_FOUND.
import { notFound } from './errors';

export type TaskToken =
  | { k: 'wft'; runId: string; scheduledEventId: number; attempt: number }
  | { k: 'act'; runId: string; scheduledEventId: number; attempt: number }
  | { k: 'query'; runId: string; queryId: string };

export function encodeToken(t: TaskToken): Buffer {
  return Buffer.from(JSON.stringify(t));
}

export function decodeToken(buf: Uint8Array | undefined): TaskToken {
  try {
    const t = JSON.parse(Buffer.from(buf ?? []).toString()) as TaskToken;
    if (t && typeof t === 'object' && typeof t.runId === 'string') return t;
  } catch {
    // fall through
  }
  throw notFound('task token not recognised');
}
