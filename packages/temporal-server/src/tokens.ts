// Task tokens are opaque to the SDK; ours are small JSON blobs that name the task precisely enough
// to reject stale ones (an older attempt, a timed-out task, a closed run) with NOT_FOUND. Each names
// its namespace: a token used in a call for another namespace is refused, as the real server does.
import { invalidArgument, notFound } from './errors';

export type TaskToken =
  | { k: 'wft'; ns: string; runId: string; scheduledEventId: number; attempt: number }
  | { k: 'act'; ns: string; runId: string; scheduledEventId: number; attempt: number }
  /** A standalone activity: its run id and the attempt the worker was given. */
  | { k: 'sact'; ns: string; runId: string; attempt: number }
  | { k: 'query'; ns: string; runId: string; queryId: string };

export function encodeToken(t: TaskToken): Buffer {
  return Buffer.from(JSON.stringify(t));
}

/**
 * The token in `buf`, or NOT_FOUND when it is not one of ours. `namespace` is the namespace the
 * call names (empty: the token's own); a different one is INVALID_ARGUMENT.
 */
export function decodeToken(buf: Uint8Array | undefined, namespace: string | undefined): TaskToken {
  let t: TaskToken | undefined;
  try {
    t = JSON.parse(Buffer.from(buf ?? []).toString()) as TaskToken;
  } catch {
    // not ours
  }
  if (!t || typeof t !== 'object' || typeof t.runId !== 'string' || typeof t.ns !== 'string') throw notFound('task token not recognised');
  if (namespace && namespace !== t.ns) throw invalidArgument('token does not match namespace');
  return t;
}
