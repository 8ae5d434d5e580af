// The one way the page reaches the platform: a client typed by the schema generated from
// openapi.yaml at build time (web/generated/api.d.ts), so a contract change the page does not follow
// fails `npm run build`. Same origin, the customer's cookies included.
import createClient from 'openapi-fetch';
import type { paths } from '../generated/api';
import { NETWORK_ERROR, UNKNOWN_ERROR } from '../shared/error-codes';

export const api = createClient<paths>({ baseUrl: '/api', credentials: 'same-origin' });

export interface ApiProblem {
  code: string;
  details: { field: string; message: string }[];
}

/** The error envelope's code and field details of a failed call, or NETWORK_ERROR when no answer came. */
export function problemOf(error: unknown): ApiProblem {
  const envelope = error as { error?: { code?: string; details?: { field: string; message: string }[] } } | undefined;
  if (envelope?.error?.code) return { code: envelope.error.code, details: envelope.error.details ?? [] };
  return { code: UNKNOWN_ERROR, details: [] };
}

/** Runs an API call; a thrown fetch (offline, connection refused) becomes NETWORK_ERROR. */
export async function call<T>(
  run: () => Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<{ ok: true; data: T } | { ok: false; problem: ApiProblem; status: number }> {
  try {
    const { data, error, response } = await run();
    if (response.ok && data !== undefined) return { ok: true, data };
    return { ok: false, problem: problemOf(error), status: response.status };
  } catch {
    return { ok: false, problem: { code: NETWORK_ERROR, details: [] }, status: 0 };
  }
}
