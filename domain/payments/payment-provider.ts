// The payment provider port (docs/rules/payments.md#payment-configs): the domain's interface, implemented by adapters in
// integrations/payments/. Every call that moves money carries the provider idempotency key, so a
// retried activity (Temporal runs activities at least once) never charges or refunds twice. A
// provider that takes no idempotency key says so (`takesIdempotencyKeys: false`); refunds through it
// first read what it has refunded so far (`refundedAmount`) and pay only the rest (provider-refunds.ts).
// A provider whose webhooks are registered through its own API (Vipps MobilePay) registers them when
// its config is checked (`registerWebhooks`); one that recommends asking when a webhook is late is
// polled by the payment workflow (`pollPayment`, docs/rules/payments.md#provider-webhooks).
import type { CaptureMode, FailureKind } from './payment.rules';

/** Decrypted credentials of one payment config; adapters read the fields they need. */
export type ProviderCredentials = Record<string, string>;

export interface CreateSessionRequest {
  paymentId: string;
  amount: number;
  currency: string;
  captureMode: CaptureMode;
  /** where the provider posts its webhooks for this tenant */
  webhookUrl: string;
  /** where the customer returns after the hosted page */
  returnUrl: string;
  idempotencyKey: string;
  /** the booking's contact phone (E.164), prefilled where the provider takes one (Vipps' landing page) */
  customerPhone?: string | null;
  /** what the customer sees the payment as in the provider's app, e.g. "Depositum Salong Nordlys" */
  description?: string;
}

export interface ProviderSession {
  sessionId: string;
  redirectUrl: string;
}

export type ProviderStatus = 'PENDING' | 'AUTHORIZED' | 'CAPTURED' | 'FAILED' | 'VOIDED' | 'REFUNDED' | 'PARTIALLY_REFUNDED' | 'UNKNOWN';

/** A verified webhook, in the platform's terms. */
export interface ProviderWebhookEvent {
  /** unique per event at the provider: the inbox key */
  providerEventId: string;
  /** our payment id, which the session carried as its reference */
  paymentId: string;
  /**
   * AUTHORIZED, CAPTURED, FAILED move the payment; VOIDED: the provider let the reservation go
   * (Vipps TERMINATED); NOTED: a fact that moves nothing (Vipps CREATED, REFUNDED, a partial CANCELLED)
   */
  outcome: 'AUTHORIZED' | 'CAPTURED' | 'FAILED' | 'VOIDED' | 'NOTED';
  failureKind?: FailureKind;
  failureReason?: string;
  transactionId?: string;
  amount?: number;
  /** the provider captures at authorization when the session asked for automatic capture (ePay instantcapture) */
  capturedIfAuto?: boolean;
}

export interface RawWebhook {
  method: string;
  /** the exact bytes received (POST), or empty for GET callbacks */
  rawBody: Buffer;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  /** the address the provider was given for this webhook (webhookUrlOf), with the query string as received */
  url: string;
}

/** Where a provider posts a salon's webhooks: the address sessions carry and registrations name. */
export function webhookUrlOf(providers: Pick<PaymentProviders, 'webhookBaseUrl'>, provider: string, tenantId: string): string {
  return `${providers.webhookBaseUrl}/webhooks/payments/${provider}/${tenantId}`;
}

/** A provider answered with an error: TRANSIENT (retry later) or PERMANENT (declined, invalid). */
export class ProviderError extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** A money call on an existing session: the provider's transaction id once known (ePay needs it). */
export interface ProviderMoneyRequest {
  sessionId: string;
  transactionId: string | null;
  amount: number;
  /** ISO 4217, the payment's (Vipps names it beside every amount) */
  currency: string;
  idempotencyKey: string;
}

export interface PaymentProvider {
  readonly name: string;
  /** Which credential fields a config of this provider must carry. */
  readonly credentialFields: readonly string[];
  /**
   * true: a money call repeated with the same idempotency key moves money once. false: every call
   * moves money again, so a call whose answer was lost must not simply be repeated.
   */
  readonly takesIdempotencyKeys: boolean;
  /**
   * The provider always reserves first (Vipps): a payment in AUTO capture mode is captured by the
   * platform as soon as it is authorized, instead of by the provider.
   */
  readonly reservesBeforeCapture?: boolean;
  createSession(credentials: ProviderCredentials, request: CreateSessionRequest): Promise<ProviderSession>;
  /** Server-side authorization of an open session (providers without a hosted page). */
  authorize(credentials: ProviderCredentials, request: { sessionId: string; amount: number; idempotencyKey: string }): Promise<{ transactionId: string }>;
  capture(credentials: ProviderCredentials, request: ProviderMoneyRequest): Promise<{ transactionId: string }>;
  void(credentials: ProviderCredentials, request: Omit<ProviderMoneyRequest, 'amount'>): Promise<void>;
  refund(credentials: ProviderCredentials, request: ProviderMoneyRequest): Promise<{ refundId: string }>;
  /** How much of the transaction the provider has refunded so far, in minor units. */
  refundedAmount(credentials: ProviderCredentials, request: Omit<ProviderMoneyRequest, 'amount' | 'idempotencyKey'>): Promise<number>;
  fetchStatus(credentials: ProviderCredentials, request: { sessionId: string }): Promise<ProviderStatus>;
  /** The event when the signature is valid; null when it is not (401, nothing written). */
  verifyWebhook(credentials: ProviderCredentials, webhook: RawWebhook): ProviderWebhookEvent | null;
  /** Resolves when the credentials work against the provider. */
  healthCheck(credentials: ProviderCredentials): Promise<void>;
  /**
   * Providers whose webhooks are registered through their API (Vipps' Webhooks API): makes sure the
   * salon's payment events are sent to `webhookUrl`, keeping the registration `credentials` already
   * hold when it is still there, and answers the credentials with the registration's fields (its id
   * and signing secret), to be sealed in their place.
   */
  registerWebhooks?(credentials: ProviderCredentials, webhookUrl: string): Promise<ProviderCredentials>;
  /**
   * Providers that recommend asking when a webhook is late (Vipps): what the provider would have
   * told by webhook, read from the payment now; null while nothing has happened yet.
   */
  pollPayment?(credentials: ProviderCredentials, request: { sessionId: string; paymentId: string }): Promise<ProviderWebhookEvent | null>;
}

export interface PaymentProviders {
  get(name: string): PaymentProvider | undefined;
  names(): string[];
  /** base URL the providers post webhooks to, e.g. https://api.example.com/api */
  webhookBaseUrl: string;
  /** where customers come back to after the hosted page */
  returnBaseUrl: string;
}
