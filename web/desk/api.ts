// The one way the front desk reaches the platform: the client typed by the schema generated from
// openapi.yaml (web/generated/api.d.ts), same origin, the session's HttpOnly cookies sent by the
// browser (docs/rules/front-desk.md#sessions). The page never sees a token. A 401 refreshes the
// session once (the refresh cookie) and repeats the call; when the session is over, the call waits
// for the sign-in dialog and is then repeated, so nothing the user typed is lost.
import createClient from 'openapi-fetch';
import type { components, paths } from '../generated/api';
import { NETWORK_ERROR } from '../shared/error-codes';
import { callApi, problemOf, type ApiProblem, type ApiResult } from '../shared/api-call';

export type Schemas = components['schemas'];
export type AuthUser = Schemas['AuthUser'];
export type Booking = Schemas['Booking'];
export type DaySchedule = Schemas['DaySchedule'];
export type ScheduleRow = Schemas['ScheduleRow'];
export type ScheduleBlock = Schemas['ScheduleBlock'];
export type Resource = Schemas['Resource'];
export type Service = Schemas['CatalogueService'];
export type Tenant = Schemas['Tenant'];
export type BookingStatus = Schemas['BookingStatus'];

export const api = createClient<paths>({ baseUrl: '/api', credentials: 'same-origin' });

export type Problem = ApiProblem;
export type Result<T> = ApiResult<T>;

/** Who waits for the session to come back (the sign-in dialog resolves them). */
let sessionLost: ((retry: () => void) => void) | null = null;
let refreshing: Promise<boolean> | null = null;

/** The sign-in dialog's hook: called with a function to run once signed in again. */
export function onSessionLost(handler: (retry: () => void) => void): void {
  sessionLost = handler;
}

/** The session's next access cookie, once at a time for every caller (the refresh cookie is single use). */
export function refreshSession(): Promise<boolean> {
  refreshing ??= api
    .POST('/auth/cookie-session/refresh')
    .then(({ response, data }) => {
      if (response.ok && data) scheduleRefresh(data.data.expiresIn);
      return response.ok;
    })
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

let refreshTimer: ReturnType<typeof setTimeout> | undefined;

/** Refreshes a minute before the access cookie ends, so calls rarely meet a 401. */
export function scheduleRefresh(expiresInSeconds: number): void {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => void refreshSession(), Math.max(5, expiresInSeconds - 60) * 1000);
}

export function stopRefreshing(): void {
  clearTimeout(refreshTimer);
}

/**
 * Runs an API call of the signed-in desk. A 401 refreshes the session and runs it again; a session
 * that is over waits for the user to sign in again (the dialog), then runs it again.
 */
export async function call<T>(run: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<Result<T>> {
  for (let attempt = 0; ; attempt++) {
    let answer: { data?: T; error?: unknown; response: Response };
    try {
      answer = await run();
    } catch {
      return { ok: false, problem: { code: NETWORK_ERROR, details: [] }, status: 0 };
    }
    const { data, error, response } = answer;
    if (response.ok && data !== undefined) return { ok: true, data };
    if (response.status !== 401 || attempt > 2) return { ok: false, problem: problemOf(error), status: response.status };
    if (await refreshSession()) continue;
    if (!sessionLost) return { ok: false, problem: problemOf(error), status: 401 };
    await new Promise<void>((resolve) => sessionLost!(resolve));
  }
}

/** A call that needs no session (sign-in, forgotten password): network errors as NETWORK_ERROR. */
export const plainCall = callApi;
