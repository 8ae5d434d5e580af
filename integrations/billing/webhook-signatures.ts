// The two webhook signature schemes (docs/rules/billing.md#provider-events): Standard Webhooks (`webhook-id`,
// `webhook-timestamp`, `webhook-signature`, base64 secret, 5-minute replay window; verified by the
// `standardwebhooks` package) and an `x-signature` HMAC-SHA256 (hex) over the raw body, whose event
// id is the body's own hash: nothing outside the signed bytes names the event.
import crypto from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { WebhookPayloadError, WebhookSignatureError } from '../../domain/billing/billing-provider';

function json(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookPayloadError('the body is not JSON');
  }
}

/** Verifies a Standard Webhooks delivery; returns its id, signature header and parsed body. */
export function verifyStandardWebhook(
  rawBody: Buffer,
  headers: Record<string, string | undefined>,
  secret: string,
): { eventId: string; signature: string; payload: unknown } {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (!id || !timestamp || !signature) throw new WebhookSignatureError('webhook-id, webhook-timestamp and webhook-signature are required');
  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch {
    throw new WebhookSignatureError('the configured webhook secret is not base64');
  }
  try {
    webhook.verify(rawBody, { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature }, { jsonParse: false });
  } catch (err) {
    if (err instanceof WebhookVerificationError) throw new WebhookSignatureError(err.message);
    throw new WebhookSignatureError('signature did not verify');
  }
  return { eventId: id, signature, payload: json(rawBody) };
}

/** Signs a body the Standard Webhooks way (the sandbox provider and tests). */
export function signStandardWebhook(secret: string, id: string, at: Date, body: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, at, body) };
}

export function hmacHex(secret: string, rawBody: Buffer | string): string {
  return crypto.createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * Verifies an `x-signature` delivery. The event id is the SHA-256 of the signed body: an unsigned
 * header (`x-event-id`) would let anyone replay a captured body as a new event under a new id.
 */
export function verifyHmacWebhook(
  rawBody: Buffer,
  headers: Record<string, string | undefined>,
  secret: string,
): { eventId: string; signature: string; payload: unknown } {
  const signature = headers['x-signature'];
  if (!signature) throw new WebhookSignatureError('x-signature is required');
  const expected = Buffer.from(hmacHex(secret, rawBody), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new WebhookSignatureError('x-signature did not verify');
  const eventId = `sha256:${crypto.createHash('sha256').update(rawBody).digest('hex')}`;
  return { eventId, signature, payload: json(rawBody) };
}
