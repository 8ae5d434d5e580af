// Reading the platform's answers in the browser, for the booking page (web/src/api.ts) and the front
// desk (web/desk/api.ts): the error envelope's code and details, and a call whose thrown fetch
// (offline, connection refused) becomes NETWORK_ERROR. Pure: no client of its own.
import { NETWORK_ERROR, UNKNOWN_ERROR } from './error-codes';

export interface ApiProblem {
  code: string;
  details: { field: string; message: string }[];
}

export type ApiResult<T> = { ok: true; data: T } | { ok: false; problem: ApiProblem; status: number };

/** The error envelope's code and field details of a failed call, or UNKNOWN_ERROR when the answer had none. */
export function problemOf(error: unknown): ApiProblem {
  const envelope = error as { error?: { code?: string; details?: { field: string; message: string }[] } } | undefined;
  if (envelope?.error?.code) return { code: envelope.error.code, details: envelope.error.details ?? [] };
  return { code: UNKNOWN_ERROR, details: [] };
}

/** Runs an API call; a thrown fetch (offline, connection refused) becomes NETWORK_ERROR. */
export async function callApi<T>(run: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<ApiResult<T>> {
  try {
    const { data, error, response } = await run();
    if (response.ok && data !== undefined) return { ok: true, data };
    return { ok: false, problem: problemOf(error), status: response.status };
  } catch {
    return { ok: false, problem: { code: NETWORK_ERROR, details: [] }, status: 0 };
  }
}
