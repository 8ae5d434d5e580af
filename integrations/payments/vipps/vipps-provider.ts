/**
 * Vipps MobilePay's ePayment API behind the platform's payment-provider port (docs/rules/payments.md#vipps-mobilepay).
 *
 * - Every call carries an access token from the Access Token API (`POST /accesstoken/get` with the
 *   sales unit's client id and secret), the `Ocp-Apim-Subscription-Key` and the
 *   `Merchant-Serial-Number`; tokens are kept until shortly before they expire, and a 401 fetches a
 *   new one once.
 * - A session is a payment (`POST /epayment/v1/payments`, WALLET, WEB_REDIRECT) whose `reference` is
 *   the platform's payment id, with the booking's phone number prefilled; the customer approves it
 *   in the app or on the landing page. Vipps always reserves: the payment is AUTHORIZED, and the
 *   platform captures (all or part), cancels what is reserved, or refunds, each with the platform's
 *   `Idempotency-Key` (a repeated key moves no money twice).
 * - Vipps keeps the state AUTHORIZED after a capture or a refund: what was captured, refunded or
 *   cancelled is read from the payment's `aggregate`, never from its state. ABORTED, EXPIRED and
 *   TERMINATED are final.
 * - Webhooks are registered for the salon's payment events through the Webhooks API when the config
 *   is checked; they are verified with the registration's secret (vipps-signature.ts). The payment
 *   workflow polls the payment (`pollPayment`) when a webhook is late, as Vipps recommends.
 * Credentials: `{clientId, clientSecret, subscriptionKey, merchantSerialNumber}`, plus the webhook
 * registration's `{webhookId, webhookSecret, webhookUrl}` once registered.
 */
import crypto from 'node:crypto';
import {
  ProviderError,
  type CreateSessionRequest,
  type PaymentProvider,
  type ProviderCredentials,
  type ProviderMoneyRequest,
  type ProviderStatus,
  type ProviderWebhookEvent,
  type RawWebhook,
} from '../../../domain/payments/payment-provider';
import { providerFetch } from '../provider-http';
import { isVippsSignature } from './vipps-signature';

/** Every ePayment event a salon's webhook is registered for. */
export const VIPPS_PAYMENT_EVENTS = ['created', 'aborted', 'expired', 'cancelled', 'captured', 'refunded', 'authorized', 'terminated'].map(
  (name) => `epayments.payment.${name}.v1`,
);

/** Vipps' states of a payment (final: ABORTED, EXPIRED, TERMINATED; AUTHORIZED stays after captures and refunds). */
export type VippsState = 'CREATED' | 'ABORTED' | 'EXPIRED' | 'AUTHORIZED' | 'TERMINATED';

interface VippsAmount {
  currency: string;
  value: number;
}

/** GET /epayment/v1/payments/{reference} as the adapter reads it. */
export interface VippsPayment {
  reference: string;
  state: VippsState;
  pspReference: string;
  aggregate: { authorizedAmount: VippsAmount; cancelledAmount: VippsAmount; capturedAmount: VippsAmount; refundedAmount: VippsAmount };
}

/** A token is taken as expired this long before Vipps says it is. */
const TOKEN_MARGIN_MS = 5 * 60_000;

/** The header Vipps asks integrations to name themselves by. */
const SYSTEM_HEADERS = { 'vipps-system-name': 'salon-platform', 'vipps-system-version': '1.0' };

/** Our payment ids are UUIDs: the only references this platform creates. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A Problem answer's reason: `VIPPS_<status>`. */
const refusal = (_json: Record<string, unknown>, status: number) => `VIPPS_HTTP_${status}`;

/**
 * What the aggregate says happened, in the platform's terms (a poll, and the status): captured when
 * anything was captured, authorized while a reservation stands, the final states as they are.
 */
export function outcomeOfVippsPayment(p: VippsPayment): { outcome: ProviderWebhookEvent['outcome']; amount: number; reason?: string } | null {
  const { authorizedAmount, capturedAmount } = p.aggregate;
  switch (p.state) {
    case 'CREATED':
      return null;
    case 'ABORTED':
      return { outcome: 'FAILED', amount: 0, reason: 'VIPPS_ABORTED' };
    case 'EXPIRED':
      return { outcome: 'FAILED', amount: 0, reason: 'VIPPS_EXPIRED' };
    case 'TERMINATED':
      return capturedAmount.value > 0 ? { outcome: 'CAPTURED', amount: capturedAmount.value } : { outcome: 'VOIDED', amount: authorizedAmount.value };
    case 'AUTHORIZED':
      return capturedAmount.value > 0 ? { outcome: 'CAPTURED', amount: capturedAmount.value } : { outcome: 'AUTHORIZED', amount: authorizedAmount.value };
  }
}

export class VippsProvider implements PaymentProvider {
  readonly name = 'vipps';
  readonly credentialFields = ['clientId', 'clientSecret', 'subscriptionKey', 'merchantSerialNumber'] as const;
  readonly takesIdempotencyKeys = true;
  readonly reservesBeforeCapture = true;
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();

  constructor(private readonly apiUrl: string) {}

  private tokenKey(c: ProviderCredentials): string {
    return crypto.createHash('sha256').update(`${c.clientId}\n${c.clientSecret}\n${c.subscriptionKey}\n${c.merchantSerialNumber}`).digest('hex');
  }

  private async accessToken(c: ProviderCredentials, fresh = false): Promise<string> {
    const key = this.tokenKey(c);
    const kept = this.tokens.get(key);
    if (!fresh && kept && kept.expiresAt > Date.now()) return kept.token;
    const answer = await providerFetch(`${this.apiUrl}/accesstoken/get`, {
      method: 'POST',
      headers: {
        client_id: c.clientId,
        client_secret: c.clientSecret,
        'ocp-apim-subscription-key': c.subscriptionKey,
        'merchant-serial-number': c.merchantSerialNumber,
        ...SYSTEM_HEADERS,
      },
      refusal,
    });
    const token = typeof answer.access_token === 'string' ? answer.access_token : '';
    // Vipps documents `expires_in` as seconds and has sent it as a string
    const seconds = Number(answer.expires_in);
    if (!token || !Number.isFinite(seconds)) throw new ProviderError('TRANSIENT', 'VIPPS_TOKEN_UNREADABLE', 'Vipps gave no usable access token');
    this.tokens.set(key, { token, expiresAt: Date.now() + seconds * 1000 - TOKEN_MARGIN_MS });
    return token;
  }

  private async call(c: ProviderCredentials, method: string, path: string, options: { body?: unknown; idempotencyKey?: string } = {}) {
    const send = async (token: string) =>
      providerFetch(`${this.apiUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'ocp-apim-subscription-key': c.subscriptionKey,
          'merchant-serial-number': c.merchantSerialNumber,
          ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey.slice(0, 50) } : {}),
          ...SYSTEM_HEADERS,
        },
        body: options.body,
        refusal,
      });
    try {
      return await send(await this.accessToken(c));
    } catch (err) {
      // the token ran out between our clock and theirs: once more with a new one
      if (err instanceof ProviderError && err.reason === 'VIPPS_HTTP_401') return send(await this.accessToken(c, true));
      throw err;
    }
  }

  private payment(c: ProviderCredentials, reference: string): Promise<VippsPayment> {
    return this.call(c, 'GET', `/epayment/v1/payments/${encodeURIComponent(reference)}`) as unknown as Promise<VippsPayment>;
  }

  async createSession(c: ProviderCredentials, r: CreateSessionRequest) {
    const msisdn = r.customerPhone?.replace(/^\+/, '');
    const description = (r.description ?? 'Depositum').slice(0, 100).padEnd(3, '.');
    const created = await this.call(c, 'POST', '/epayment/v1/payments', {
      idempotencyKey: r.idempotencyKey,
      body: {
        amount: { currency: r.currency, value: r.amount },
        paymentMethod: { type: 'WALLET' },
        ...(msisdn && /^\d{10,15}$/.test(msisdn) ? { customer: { phoneNumber: msisdn } } : {}),
        reference: r.paymentId,
        userFlow: 'WEB_REDIRECT',
        returnUrl: r.returnUrl,
        paymentDescription: description,
      },
    });
    if (typeof created.redirectUrl !== 'string') throw new ProviderError('TRANSIENT', 'VIPPS_NO_REDIRECT', 'Vipps gave no landing page address');
    return { sessionId: r.paymentId, redirectUrl: created.redirectUrl };
  }

  async authorize(): Promise<{ transactionId: string }> {
    throw new ProviderError('PERMANENT', 'VIPPS_APP_ONLY', 'Vipps payments are approved by the customer in the app or on the landing page');
  }

  async capture(c: ProviderCredentials, r: ProviderMoneyRequest) {
    const done = await this.call(c, 'POST', `/epayment/v1/payments/${encodeURIComponent(r.sessionId)}/capture`, {
      idempotencyKey: r.idempotencyKey,
      body: { modificationAmount: { currency: r.currency, value: r.amount } },
    });
    return { transactionId: String(done.pspReference ?? r.transactionId ?? '') };
  }

  async void(c: ProviderCredentials, r: Omit<ProviderMoneyRequest, 'amount'>) {
    const now = await this.payment(c, r.sessionId);
    // nothing is reserved any more: the customer said no, it ran out, or it was let go before
    if (now.state === 'ABORTED' || now.state === 'EXPIRED' || now.state === 'TERMINATED') return;
    await this.call(c, 'POST', `/epayment/v1/payments/${encodeURIComponent(r.sessionId)}/cancel`, { idempotencyKey: r.idempotencyKey });
  }

  async refund(c: ProviderCredentials, r: ProviderMoneyRequest) {
    await this.call(c, 'POST', `/epayment/v1/payments/${encodeURIComponent(r.sessionId)}/refund`, {
      idempotencyKey: r.idempotencyKey,
      body: { modificationAmount: { currency: r.currency, value: r.amount } },
    });
    return { refundId: `${r.sessionId}:${r.idempotencyKey}` };
  }

  async refundedAmount(c: ProviderCredentials, r: { sessionId: string }): Promise<number> {
    return (await this.payment(c, r.sessionId)).aggregate.refundedAmount.value;
  }

  async fetchStatus(c: ProviderCredentials, r: { sessionId: string }): Promise<ProviderStatus> {
    const p = await this.payment(c, r.sessionId);
    const { capturedAmount, refundedAmount } = p.aggregate;
    if (capturedAmount.value > 0) {
      if (refundedAmount.value === 0) return 'CAPTURED';
      return refundedAmount.value >= capturedAmount.value ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    }
    const seen = outcomeOfVippsPayment(p);
    if (!seen) return 'PENDING';
    return seen.outcome === 'NOTED' || seen.outcome === 'CAPTURED' ? 'UNKNOWN' : seen.outcome;
  }

  verifyWebhook(c: ProviderCredentials, webhook: RawWebhook): ProviderWebhookEvent | null {
    if (!c.webhookSecret || !isVippsSignature(c.webhookSecret, webhook.url, webhook.rawBody, webhook.headers)) return null;
    let event: {
      msn?: unknown;
      reference?: unknown;
      pspReference?: unknown;
      name?: unknown;
      amount?: { value?: unknown };
      idempotencyKey?: unknown;
      success?: unknown;
    };
    try {
      event = JSON.parse(webhook.rawBody.toString('utf8'));
    } catch {
      return null;
    }
    if (String(event.msn) !== c.merchantSerialNumber || typeof event.reference !== 'string' || !UUID.test(event.reference)) return null;
    const name = String(event.name);
    const amount = Number(event.amount?.value);
    const base = {
      // one event of one payment: a redelivery has the same name, psp reference and idempotency key
      providerEventId: `${event.reference}:${name}:${String(event.pspReference ?? '')}:${String(event.idempotencyKey ?? '')}`,
      paymentId: event.reference.toLowerCase(),
      transactionId: typeof event.pspReference === 'string' ? event.pspReference : undefined,
      amount: Number.isSafeInteger(amount) ? amount : undefined,
    };
    if (event.success === false) return { ...base, outcome: 'NOTED' };
    switch (name) {
      case 'AUTHORIZED':
        return { ...base, outcome: 'AUTHORIZED' };
      case 'CAPTURED':
        return { ...base, outcome: 'CAPTURED' };
      case 'ABORTED':
      case 'EXPIRED':
        return { ...base, outcome: 'FAILED', failureKind: 'PERMANENT', failureReason: `VIPPS_${name}` };
      case 'TERMINATED':
        return { ...base, outcome: 'VOIDED' };
      default:
        // CREATED, REFUNDED, CANCELLED: the platform moved the money itself, or nothing happened yet
        return { ...base, outcome: 'NOTED' };
    }
  }

  async pollPayment(c: ProviderCredentials, r: { sessionId: string; paymentId: string }): Promise<ProviderWebhookEvent | null> {
    const p = await this.payment(c, r.sessionId);
    const seen = outcomeOfVippsPayment(p);
    if (!seen) return null;
    return {
      providerEventId: `poll:${r.sessionId}:${p.state}:${p.aggregate.capturedAmount.value}`,
      paymentId: r.paymentId,
      outcome: seen.outcome,
      amount: seen.amount,
      transactionId: p.pspReference,
      ...(seen.outcome === 'FAILED' ? { failureKind: 'PERMANENT' as const, failureReason: seen.reason } : {}),
    };
  }

  async healthCheck(c: ProviderCredentials): Promise<void> {
    await this.accessToken(c, true);
  }

  async registerWebhooks(c: ProviderCredentials, webhookUrl: string): Promise<ProviderCredentials> {
    const listed = (await this.call(c, 'GET', '/webhooks/v1/webhooks')) as { webhooks?: { id: string; url: string }[] };
    const ours = (listed.webhooks ?? []).filter((w) => w.url === webhookUrl);
    if (c.webhookSecret && c.webhookUrl === webhookUrl && ours.some((w) => w.id === c.webhookId)) return c;
    // a registration whose secret we no longer hold signs nothing we can check: replace it
    for (const stale of ours) await this.call(c, 'DELETE', `/webhooks/v1/webhooks/${encodeURIComponent(stale.id)}`);
    const registered = await this.call(c, 'POST', '/webhooks/v1/webhooks', { body: { url: webhookUrl, events: VIPPS_PAYMENT_EVENTS } });
    if (typeof registered.id !== 'string' || typeof registered.secret !== 'string')
      throw new ProviderError('TRANSIENT', 'VIPPS_WEBHOOK_UNREADABLE', 'Vipps answered the webhook registration without id and secret');
    return { ...c, webhookId: registered.id, webhookSecret: registered.secret, webhookUrl };
  }
}
