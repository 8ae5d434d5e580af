// The billing adapters behind the domain's BillingProviderAdapter port (domain/billing/billing-provider.ts):
//   sandbox       the embedded default (devstack/billing-sandbox-server.ts): hosted checkout and
//                 portal pages on loopback that post Standard Webhooks-signed events
//   polar         Standard Webhooks signatures, Polar's REST API
//   lemonsqueezy  x-signature HMAC (the event id is the signed body's hash, its time its updated_at), Lemon Squeezy's JSON:API
// Endpoints come from each billing config row (`apiBaseUrl`), credentials from its sealed secrets.
import type {
  BillingProviderAdapter,
  BillingProviderId,
  BillingProviders,
  CheckoutRequest,
  ProviderConnection,
  ProviderSubscription,
  VerifiedWebhook,
} from '../../domain/billing/billing-provider';
import { lemonEvent, mapProviderStatus, standardEvent } from './events';
import { verifyHmacWebhook, verifyStandardWebhook } from './webhook-signatures';

const TIMEOUT_MS = 10_000;

/** The provider answered with an error or not at all. */
export class BillingProviderError extends Error {}

async function call(
  connection: ProviderConnection,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<Record<string, unknown> | null> {
  let res: Response;
  try {
    res = await fetch(`${connection.apiBaseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${connection.credentials.apiKey}`,
        accept: contentType,
        ...(body === undefined ? {} : { 'content-type': contentType }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new BillingProviderError(`${connection.provider}: ${method} ${path} failed: ${(err as Error).message}`);
  }
  if (res.status === 404 && method === 'GET') return null;
  if (!res.ok) throw new BillingProviderError(`${connection.provider}: ${method} ${path} answered ${res.status}`);
  const text = await res.text();
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
const strOrNull = (v: unknown): string | null => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : null);

function standardVerified(rawBody: Buffer, headers: Record<string, string | undefined>, secret: string): VerifiedWebhook {
  const verified = verifyStandardWebhook(rawBody, headers, secret);
  return { ...verified, ...standardEvent(verified.payload) };
}

function standardSubscription(d: Record<string, unknown>): ProviderSubscription {
  const metadata = obj(d.metadata);
  return {
    providerSubId: String(d.id),
    status: mapProviderStatus(d.status),
    cancelAtPeriodEnd: d.cancel_at_period_end === true,
    currentPeriodEnd: strOrNull(d.current_period_end),
    planKey: strOrNull(metadata.plan_key),
    tenantId: strOrNull(metadata.tenant_id),
  };
}

export const sandboxAdapter: BillingProviderAdapter = {
  id: 'sandbox',
  verifyWebhook: standardVerified,
  async createCheckout(connection: ProviderConnection, r: CheckoutRequest) {
    const res = obj(
      await call(connection, 'POST', '/v1/checkouts', {
        variantId: r.variantId,
        trialDays: r.trialDays,
        email: r.email,
        successUrl: r.successUrl,
        cancelUrl: r.cancelUrl,
        metadata: { tenant_id: r.tenantId, plan_key: r.planKey },
      }),
    );
    return { checkoutUrl: String(res.url) };
  },
  async portalUrl(connection, sub) {
    return String(obj(await call(connection, 'POST', '/v1/portal-sessions', { subscriptionId: sub.providerSubId })).url);
  },
  async cancelAtPeriodEnd(connection, providerSubId) {
    await call(connection, 'POST', `/v1/subscriptions/${encodeURIComponent(providerSubId)}/cancel`, {});
  },
  async fetchSubscription(connection, providerSubId) {
    const d = await call(connection, 'GET', `/v1/subscriptions/${encodeURIComponent(providerSubId)}`);
    return d ? standardSubscription(d) : null;
  },
  async healthCheck(connection) {
    await call(connection, 'GET', '/v1/health');
  },
};

export const polarAdapter: BillingProviderAdapter = {
  id: 'polar',
  verifyWebhook: standardVerified,
  async createCheckout(connection, r) {
    const res = obj(
      await call(connection, 'POST', '/v1/checkouts/', {
        products: [r.variantId],
        success_url: r.successUrl,
        ...(r.email ? { customer_email: r.email } : {}),
        metadata: { tenant_id: r.tenantId, plan_key: r.planKey },
        ...(r.trialDays > 0 ? { allow_trial: true, trial_interval: 'day', trial_interval_count: r.trialDays } : { allow_trial: false }),
      }),
    );
    return { checkoutUrl: String(res.url) };
  },
  async portalUrl(connection, sub) {
    if (!sub.providerCustomerId) throw new BillingProviderError('polar: the subscription has no customer id yet');
    return String(obj(await call(connection, 'POST', '/v1/customer-sessions/', { customer_id: sub.providerCustomerId })).customer_portal_url);
  },
  async cancelAtPeriodEnd(connection, providerSubId) {
    await call(connection, 'PATCH', `/v1/subscriptions/${encodeURIComponent(providerSubId)}`, { cancel_at_period_end: true });
  },
  async fetchSubscription(connection, providerSubId) {
    const d = await call(connection, 'GET', `/v1/subscriptions/${encodeURIComponent(providerSubId)}`);
    return d ? standardSubscription(d) : null;
  },
  async healthCheck(connection) {
    await call(connection, 'GET', '/v1/subscriptions/?limit=1');
  },
};

const JSON_API = 'application/vnd.api+json';

export const lemonSqueezyAdapter: BillingProviderAdapter = {
  id: 'lemonsqueezy',
  verifyWebhook(rawBody, headers, secret) {
    const verified = verifyHmacWebhook(rawBody, headers, secret);
    return { ...verified, ...lemonEvent(verified.payload) };
  },
  async createCheckout(connection, r) {
    const res = await call(
      connection,
      'POST',
      '/v1/checkouts',
      {
        data: {
          type: 'checkouts',
          attributes: {
            checkout_data: { ...(r.email ? { email: r.email } : {}), custom: { tenant_id: r.tenantId, plan_key: r.planKey, trial_days: String(r.trialDays) } },
            product_options: { redirect_url: r.successUrl },
            test_mode: connection.isTest,
          },
          relationships: { store: { data: { type: 'stores', id: connection.storeId } }, variant: { data: { type: 'variants', id: r.variantId } } },
        },
      },
      JSON_API,
    );
    return { checkoutUrl: String(obj(obj(obj(res).data).attributes).url) };
  },
  async portalUrl(connection, sub) {
    const res = await call(connection, 'GET', `/v1/subscriptions/${encodeURIComponent(sub.providerSubId)}`, undefined, JSON_API);
    const url = obj(obj(obj(obj(res).data).attributes).urls).customer_portal;
    if (typeof url !== 'string') throw new BillingProviderError('lemonsqueezy: no customer portal url');
    return url;
  },
  async cancelAtPeriodEnd(connection, providerSubId) {
    // Lemon Squeezy's DELETE cancels at the end of the period (the subscription stays usable until then)
    await call(connection, 'DELETE', `/v1/subscriptions/${encodeURIComponent(providerSubId)}`, undefined, JSON_API);
  },
  async fetchSubscription(connection, providerSubId) {
    const res = await call(connection, 'GET', `/v1/subscriptions/${encodeURIComponent(providerSubId)}`, undefined, JSON_API);
    if (!res) return null;
    const a = obj(obj(res.data).attributes);
    return {
      providerSubId,
      status: mapProviderStatus(a.status),
      cancelAtPeriodEnd: a.cancelled === true,
      currentPeriodEnd: strOrNull(a.renews_at) ?? strOrNull(a.ends_at),
      planKey: null,
      tenantId: null,
    };
  },
  async healthCheck(connection) {
    await call(connection, 'GET', '/v1/users/me', undefined, JSON_API);
  },
};

const ADAPTERS: Record<BillingProviderId, BillingProviderAdapter> = { sandbox: sandboxAdapter, polar: polarAdapter, lemonsqueezy: lemonSqueezyAdapter };

export function createBillingProviders(overrides: Partial<Record<BillingProviderId, BillingProviderAdapter>> = {}): BillingProviders {
  const adapters = { ...ADAPTERS, ...overrides };
  return { get: (id) => adapters[id] };
}
