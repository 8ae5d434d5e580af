// The tests' client of the HTTP API, typed by the contract: openapi-fetch over the types that
// openapi-typescript generates from openapi.yaml (web/generated/api.d.ts, `npm run build:types`),
// the pair the booking page uses and a consumer would (docs/api/README.md#generating-a-client).
// Paths, parameters, bodies and answers are checked against the contract when the tests compile
// (`npm test` builds test/ with tsc first), so a contract change that breaks a consumer breaks them.
// Calls go over loopback to the test stack's real app (its baseUrl): the whole middleware chain, the
// request validation and, in tests, the response validation against openapi.yaml.
import { expect } from 'chai';
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../../web/generated/api';
import { stack } from './stack';

export type Api = Client<paths>;
export type Schemas = components['schemas'];
export type ErrorEnvelope = Schemas['ErrorResponse'];

/** A client of the test stack's api; with `token`, every call carries it as the bearer token. */
export async function apiClient(token?: string): Promise<Api> {
  const { baseUrl } = await stack();
  return createClient<paths>({ baseUrl: `${baseUrl}/api`, headers: token ? { Authorization: `Bearer ${token}` } : {} });
}

/** What an openapi-fetch call answers: the success body or the error body, and the response. */
interface Answer<D, E> {
  data?: D;
  error?: E;
  response: Response;
}

function shown(answer: Answer<unknown, unknown>): string {
  return `${answer.response.status} ${JSON.stringify(answer.error ?? answer.data ?? null)}`;
}

/** The success body of an answer with `status`; anything else fails, showing the body. */
export function expectOk<D, E>(answer: Answer<D, E>, status: number): D {
  expect(answer.response.status, shown(answer)).to.equal(status);
  expect(answer.data, `a body with the ${status}`).to.not.equal(undefined);
  return answer.data as D;
}

/** An answer with `status` and no body (204). */
export function expectEmpty(answer: Answer<unknown, unknown>, status = 204): void {
  expect(answer.response.status, shown(answer)).to.equal(status);
}

/** The error envelope of an answer with `status` and, when given, the error `code`. */
export function expectError(answer: Answer<unknown, unknown>, status: number, code?: string): ErrorEnvelope['error'] {
  expect(answer.response.status, shown(answer)).to.equal(status);
  const envelope = answer.error as ErrorEnvelope | undefined;
  expect(envelope?.success, shown(answer)).to.equal(false);
  if (code !== undefined) expect(envelope?.error.code, shown(answer)).to.equal(code);
  return envelope!.error;
}
