// The adapter for the sandbox provider behind the domain's PaymentProvider port: production uses it when
// PAYMENT_SANDBOX_URL is set; `npm start` and the tests run the provider itself (devstack/payment-sandbox-server.ts).
// Credentials: `{apiKey}`; webhooks are verified with HMAC-SHA256 of the raw body under that key.
import crypto from 'node:crypto';
import {
  type PaymentProvider,
  type ProviderMoneyRequest,
  type ProviderCredentials,
  type ProviderStatus,
  type ProviderWebhookEvent,
  type RawWebhook,
} from '../../../domain/payments/payment-provider';
import { providerFetch } from '../provider-http';

/** The header the sandbox signs its webhooks in. */
export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';

/** A webhook's signature: hex HMAC-SHA256 of the raw body under the API key. */
export function sandboxSignature(apiKey: string, body: string): string {
  return crypto.createHmac('sha256', apiKey).update(body).digest('hex');
}

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  readonly credentialFields = ['apiKey'] as const;
  /** the sandbox replays a POST with a seen Idempotency-Key instead of moving money again */
  readonly takesIdempotencyKeys = true;

  constructor(private readonly baseUrl: string) {}

  private call(credentials: ProviderCredentials, method: string, path: string, body?: unknown, idempotencyKey?: string) {
    return providerFetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${credentials.apiKey}`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      body,
    });
  }

  async createSession(credentials: ProviderCredentials, r: Parameters<PaymentProvider['createSession']>[1]) {
    const s = await this.call(
      credentials,
      'POST',
      '/v1/sessions',
      { reference: r.paymentId, amount: r.amount, currency: r.currency, captureMode: r.captureMode, webhookUrl: r.webhookUrl, returnUrl: r.returnUrl },
      r.idempotencyKey,
    );
    return { sessionId: String(s.id), redirectUrl: String(s.checkoutUrl) };
  }

  async authorize(credentials: ProviderCredentials, r: { sessionId: string; amount: number; idempotencyKey: string }) {
    const s = await this.call(credentials, 'POST', `/v1/sessions/${encodeURIComponent(r.sessionId)}/authorize`, { amount: r.amount }, r.idempotencyKey);
    return { transactionId: String(s.transactionId) };
  }

  async capture(credentials: ProviderCredentials, r: ProviderMoneyRequest) {
    const s = await this.call(credentials, 'POST', `/v1/sessions/${encodeURIComponent(r.sessionId)}/capture`, { amount: r.amount }, r.idempotencyKey);
    return { transactionId: String(s.transactionId) };
  }

  async void(credentials: ProviderCredentials, r: Omit<ProviderMoneyRequest, 'amount'>) {
    await this.call(credentials, 'POST', `/v1/sessions/${encodeURIComponent(r.sessionId)}/void`, {}, r.idempotencyKey);
  }

  async refund(credentials: ProviderCredentials, r: ProviderMoneyRequest) {
    const s = await this.call(credentials, 'POST', `/v1/sessions/${encodeURIComponent(r.sessionId)}/refund`, { amount: r.amount }, r.idempotencyKey);
    return { refundId: String(s.refundId) };
  }

  async refundedAmount(credentials: ProviderCredentials, r: { sessionId: string }): Promise<number> {
    const s = await this.call(credentials, 'GET', `/v1/sessions/${encodeURIComponent(r.sessionId)}`);
    return Number(s.refundedAmount ?? 0);
  }

  async fetchStatus(credentials: ProviderCredentials, r: { sessionId: string }): Promise<ProviderStatus> {
    const s = await this.call(credentials, 'GET', `/v1/sessions/${encodeURIComponent(r.sessionId)}`);
    const status = String(s.status);
    return (
      ['AUTHORIZED', 'CAPTURED', 'FAILED', 'VOIDED', 'REFUNDED', 'PARTIALLY_REFUNDED'].includes(status) ? status : status === 'PENDING' ? 'PENDING' : 'UNKNOWN'
    ) as ProviderStatus;
  }

  verifyWebhook(credentials: ProviderCredentials, webhook: RawWebhook): ProviderWebhookEvent | null {
    const given = webhook.headers[SANDBOX_SIGNATURE_HEADER] ?? '';
    const expected = sandboxSignature(credentials.apiKey, webhook.rawBody.toString('utf8'));
    if (given.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))) return null;
    let event: { id?: unknown; type?: unknown; data?: Record<string, unknown> };
    try {
      event = JSON.parse(webhook.rawBody.toString('utf8'));
    } catch {
      return null;
    }
    const data = event.data ?? {};
    const outcome =
      event.type === 'payment.authorized' ? 'AUTHORIZED' : event.type === 'payment.captured' ? 'CAPTURED' : event.type === 'payment.failed' ? 'FAILED' : null;
    if (!outcome || typeof event.id !== 'string' || typeof data.reference !== 'string') return null;
    return {
      providerEventId: event.id,
      paymentId: data.reference,
      outcome,
      failureKind: data.failureKind === 'TRANSIENT' ? 'TRANSIENT' : data.failureKind === 'PERMANENT' ? 'PERMANENT' : undefined,
      failureReason: typeof data.failureReason === 'string' ? data.failureReason : undefined,
      transactionId: typeof data.transactionId === 'string' ? data.transactionId : undefined,
      amount: typeof data.amount === 'number' ? data.amount : undefined,
    };
  }

  async healthCheck(credentials: ProviderCredentials): Promise<void> {
    await this.call(credentials, 'GET', '/v1/health');
  }
}
