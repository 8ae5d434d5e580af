// How Vipps MobilePay signs the webhooks it sends (its Webhooks API, "request authentication"): the
// body's SHA-256 in `x-ms-content-sha256`, the time in `x-ms-date`, and `Authorization:
// HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=<base64>`, an HMAC-SHA256
// under the registration's secret over "POST\n<path and query>\n<date>;<host>;<content hash>" of
// the address the webhook was registered for. The adapter verifies with it; the sandbox signs with it.
import crypto from 'node:crypto';

export const VIPPS_SIGNED_HEADERS = 'x-ms-date;host;x-ms-content-sha256';

/** Base64 SHA-256 of the exact bytes of the body. */
export function vippsContentHash(body: string | Buffer): string {
  return crypto.createHash('sha256').update(body).digest('base64');
}

/** The `Authorization` value of a webhook POSTed to `url` at `date` with a body of hash `contentHash`. */
export function vippsAuthorization(secret: string, signed: { url: string; date: string; contentHash: string }): string {
  const target = new URL(signed.url);
  const text = `POST\n${target.pathname}${target.search}\n${signed.date};${target.host};${signed.contentHash}`;
  const signature = crypto.createHmac('sha256', secret).update(text, 'utf8').digest('base64');
  return `HMAC-SHA256 SignedHeaders=${VIPPS_SIGNED_HEADERS}&Signature=${signature}`;
}

/** The headers a signed webhook carries (the sandbox sends them; `host` is the registered address's). */
export function vippsWebhookHeaders(secret: string, url: string, body: string, date: Date): Record<string, string> {
  const contentHash = vippsContentHash(body);
  const when = date.toUTCString();
  return {
    'x-ms-date': when,
    'x-ms-content-sha256': contentHash,
    host: new URL(url).host,
    authorization: vippsAuthorization(secret, { url, date: when, contentHash }),
  };
}

/** True when the headers are a valid signature of `body` for `url` under `secret`. */
export function isVippsSignature(secret: string, url: string, body: Buffer, headers: Record<string, string | undefined>): boolean {
  const date = headers['x-ms-date'];
  const given = headers['x-ms-content-sha256'];
  const authorization = headers.authorization;
  if (!date || !given || !authorization) return false;
  const contentHash = vippsContentHash(body);
  if (!same(given, contentHash)) return false;
  return same(authorization, vippsAuthorization(secret, { url, date, contentHash }));
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
