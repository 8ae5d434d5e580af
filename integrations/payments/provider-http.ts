// JSON over HTTP to a payment provider, with the provider's answers sorted into the two failure
// kinds (docs/rules/payments.md#failures-and-retry): no answer, 429 or 5xx is TRANSIENT (PROVIDER_UNAVAILABLE); any other refusal is
// PERMANENT. Error messages never carry credentials or request bodies.
import { ProviderError } from '../../domain/payments/payment-provider';

export async function providerFetch(
  url: string,
  init: {
    method: string;
    headers?: Record<string, string>;
    body?: unknown;
    form?: boolean;
    /** the refusal's reason from the provider's error body (default: its `error` field) */
    refusal?: (json: Record<string, unknown>, status: number) => string;
  },
): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': init.form ? 'application/x-www-form-urlencoded' : 'application/json' } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : init.form ? new URLSearchParams(init.body as Record<string, string>).toString() : JSON.stringify(init.body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new ProviderError('TRANSIENT', 'PROVIDER_UNAVAILABLE', `payment provider unreachable (${new URL(url).host})`);
  }
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    json = {};
  }
  if (res.status === 429 || res.status >= 500) throw new ProviderError('TRANSIENT', 'PROVIDER_UNAVAILABLE', `payment provider answered ${res.status}`);
  if (!res.ok) {
    const reason = init.refusal ? init.refusal(json, res.status) : String(json.error ?? `HTTP_${res.status}`);
    throw new ProviderError('PERMANENT', reason.toUpperCase().slice(0, 60), `payment provider refused: ${res.status} ${reason}`);
  }
  return json;
}
