// The domain's port to a platform billing provider (docs/rules/billing.md). integrations/billing/
// implements one adapter per provider; composition/compose.ts hands the registry to the api and the worker.
import type { BillingEvent } from './subscription.rules';

export const BILLING_PROVIDER_IDS = ['sandbox', 'polar', 'lemonsqueezy'] as const;
export type BillingProviderId = (typeof BILLING_PROVIDER_IDS)[number];

/** Which plan column holds the provider's variant id when no config mapping exists. */
export const VARIANT_COLUMN: Record<BillingProviderId, 'sandboxVariantId' | 'polarVariantId' | 'lemonsqueezyVariantId'> = {
  sandbox: 'sandboxVariantId',
  polar: 'polarVariantId',
  lemonsqueezy: 'lemonsqueezyVariantId',
};

export function isBillingProviderId(value: string): value is BillingProviderId {
  return (BILLING_PROVIDER_IDS as readonly string[]).includes(value);
}

export interface ProviderCredentials {
  apiKey: string;
  webhookSecret: string;
}

/** One billing config row with its opened credentials. */
export interface ProviderConnection {
  provider: BillingProviderId;
  isTest: boolean;
  apiBaseUrl: string;
  storeId: string | null;
  storeDomain: string | null;
  credentials: ProviderCredentials;
}

export interface VerifiedWebhook {
  /** the provider's event id (the inbox's unique key) */
  eventId: string;
  /** the provider's event name as sent */
  eventName: string;
  signature: string;
  payload: unknown;
  event: BillingEvent;
  /**
   * When the provider says the event happened, inside the signed body: the platform refuses it when it
   * is older than SIGNED_EVENT_MAX_AGE_MINUTES (docs/rules/billing.md#provider-events). Unset for
   * schemes whose signature carries its own time window (Standard Webhooks).
   */
  occurredAt?: Date;
}

export interface CheckoutRequest {
  variantId: string;
  tenantId: string;
  planKey: string;
  /** days the provider must not charge for (the rest of the platform trial) */
  trialDays: number;
  email: string | null;
  successUrl: string;
  cancelUrl: string;
}

/** The provider's current view of a subscription (reconcile). */
export interface ProviderSubscription {
  providerSubId: string;
  status: BillingEvent['status'];
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: string | null;
  planKey: string | null;
  tenantId: string | null;
}

/** The signature did not verify (401, nothing written). */
export class WebhookSignatureError extends Error {}
/** The body is not an event the adapter understands (400). */
export class WebhookPayloadError extends Error {}

export interface BillingProviderAdapter {
  readonly id: BillingProviderId;
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | undefined>, webhookSecret: string): VerifiedWebhook;
  createCheckout(connection: ProviderConnection, request: CheckoutRequest): Promise<{ checkoutUrl: string }>;
  portalUrl(connection: ProviderConnection, sub: { providerSubId: string; providerCustomerId: string | null }): Promise<string>;
  cancelAtPeriodEnd(connection: ProviderConnection, providerSubId: string): Promise<void>;
  fetchSubscription(connection: ProviderConnection, providerSubId: string): Promise<ProviderSubscription | null>;
  healthCheck(connection: ProviderConnection): Promise<void>;
}

export interface BillingProviders {
  get(id: BillingProviderId): BillingProviderAdapter;
}
