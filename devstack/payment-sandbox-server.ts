/**
 * The sandbox payment provider: a small HTTP server on loopback that behaves like a hosted-checkout
 * provider, so the whole deposit journey works on `npm start` and in tests without the internet.
 *
 * API (JSON; `Authorization: Bearer <apiKey>`; money calls take an `Idempotency-Key` header and
 * answer a repeated key with the first answer, doing nothing twice):
 *   POST /v1/sessions                 {reference, amount, currency, captureMode, webhookUrl, returnUrl}
 *   GET  /v1/sessions/:id             status, captured and refunded amounts, how many captures ran
 *   POST /v1/sessions/:id/authorize   server-side authorization (no page)
 *   POST /v1/sessions/:id/capture     {amount}
 *   POST /v1/sessions/:id/void
 *   POST /v1/sessions/:id/refund      {amount}
 *   POST /v1/sessions/:id/redeliver   sends the last webhook again (same event id)
 *   GET  /v1/health
 * Hosted page: GET /checkout/:id shows Pay, Decline, Fail (transient) and Abandon; each POSTs to
 * /checkout/:id/<action>, which sends the signed webhook and sends the customer back to returnUrl.
 * Webhooks: JSON `{id, type, data}` with header `Sandbox-Signature: <hex HMAC-SHA256(apiKey, body)>`.
 * API keys look like `sk_test_<at least 8 letters or digits>`; anything else is 401.
 */
import http from 'node:http';
import crypto from 'node:crypto';
import { SANDBOX_SIGNATURE_HEADER, sandboxSignature } from '../integrations/payments/sandbox/sandbox-provider';
import { listen } from './listen';

export function isSandboxApiKey(key: string): boolean {
  return /^sk_(test|live)_[A-Za-z0-9]{8,}$/.test(key);
}

type SessionStatus = 'PENDING' | 'AUTHORIZED' | 'CAPTURED' | 'FAILED' | 'VOIDED' | 'REFUNDED' | 'PARTIALLY_REFUNDED';

interface Session {
  id: string;
  apiKey: string;
  reference: string;
  amount: number;
  currency: string;
  captureMode: 'AUTO' | 'MANUAL';
  webhookUrl: string;
  returnUrl: string;
  status: SessionStatus;
  capturedAmount: number;
  refundedAmount: number;
  /** how many times the session went to CAPTURED (on the hosted page or by a capture call) */
  captureCount: number;
  /** every capture and refund request for the session (replays of a key and refused ones too), and their distinct idempotency keys */
  requests: Record<MoneyCall, { count: number; keys: string[] }>;
  lastEvent?: { body: string };
}

type MoneyCall = 'capture' | 'refund';

export type WebhookDelivery = (url: string, body: string, headers: Record<string, string>) => Promise<number>;

export interface SandboxServer {
  url: string;
  /** every webhook the sandbox sent, in order (tests read it) */
  delivered: { url: string; body: string; status: number }[];
  /** a session as the sandbox holds it, with every capture and refund request it got (tests read it) */
  session(id: string): Readonly<Session> | undefined;
  close(): Promise<void>;
}

async function fetchDelivery(url: string, body: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return res.status;
}

export async function startSandboxServer(options: { port?: number; host?: string; deliver?: WebhookDelivery } = {}): Promise<SandboxServer> {
  const sessions = new Map<string, Session>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const delivered: SandboxServer['delivered'] = [];
  const deliver = options.deliver ?? fetchDelivery;
  const host = options.host ?? '127.0.0.1';
  let base = '';

  async function sendWebhook(session: Session, type: string, data: Record<string, unknown>): Promise<void> {
    const body = JSON.stringify({
      id: `evt_${crypto.randomBytes(8).toString('hex')}`,
      type,
      created: new Date().toISOString(),
      data: { sessionId: session.id, reference: session.reference, amount: session.amount, currency: session.currency, ...data },
    });
    session.lastEvent = { body };
    await post(session, body);
  }

  async function post(session: Session, body: string): Promise<void> {
    let status = 0;
    try {
      status = await deliver(session.webhookUrl, body, { [SANDBOX_SIGNATURE_HEADER]: sandboxSignature(session.apiKey, body) });
    } catch {
      status = 0;
    }
    delivered.push({ url: session.webhookUrl, body, status });
  }

  function send(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  function view(s: Session) {
    return {
      id: s.id,
      reference: s.reference,
      status: s.status,
      amount: s.amount,
      currency: s.currency,
      captureMode: s.captureMode,
      capturedAmount: s.capturedAmount,
      refundedAmount: s.refundedAmount,
      captureCount: s.captureCount,
      checkoutUrl: `${base}/checkout/${s.id}`,
    };
  }

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  async function api(req: http.IncomingMessage, res: http.ServerResponse, path: string[]): Promise<void> {
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const apiKey = auth?.[1] ?? '';
    if (!isSandboxApiKey(apiKey)) return send(res, 401, { error: 'invalid_api_key' });
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return send(res, 400, { error: 'invalid_json' });
    }
    if (path[1] === 'health') return send(res, 200, { ok: true });
    const key = req.method === 'POST' ? String(req.headers['idempotency-key'] ?? '') : '';
    if (req.method === 'POST' && !key) return send(res, 400, { error: 'idempotency_key_required' });
    const called = req.method === 'POST' && (path[3] === 'capture' || path[3] === 'refund') ? sessions.get(path[2] ?? '') : undefined;
    if (called && called.apiKey === apiKey) {
      const calls = called.requests[path[3] as MoneyCall];
      calls.count += 1;
      if (!calls.keys.includes(key)) calls.keys.push(key);
    }
    const replay = idempotent.get(`${apiKey}|${req.url}|${key}`);
    if (replay) return send(res, replay.status, replay.body);
    const answer = (status: number, payload: unknown) => {
      if (req.method === 'POST' && status < 500) idempotent.set(`${apiKey}|${req.url}|${key}`, { status, body: payload });
      send(res, status, payload);
    };

    if (path[1] === 'sessions' && path.length === 2 && req.method === 'POST') {
      const amount = Number(body.amount);
      if (!Number.isSafeInteger(amount) || amount <= 0 || typeof body.reference !== 'string' || typeof body.webhookUrl !== 'string')
        return answer(422, { error: 'invalid_session' });
      const s: Session = {
        id: `cs_${crypto.randomBytes(10).toString('hex')}`,
        apiKey,
        reference: body.reference,
        amount,
        currency: String(body.currency ?? 'NOK'),
        captureMode: body.captureMode === 'MANUAL' ? 'MANUAL' : 'AUTO',
        webhookUrl: body.webhookUrl,
        returnUrl: String(body.returnUrl ?? ''),
        status: 'PENDING',
        capturedAmount: 0,
        refundedAmount: 0,
        captureCount: 0,
        requests: { capture: { count: 0, keys: [] }, refund: { count: 0, keys: [] } },
      };
      sessions.set(s.id, s);
      return answer(201, view(s));
    }
    const s = sessions.get(path[2] ?? '');
    if (!s || s.apiKey !== apiKey) return answer(404, { error: 'no_such_session' });
    const action = path[3];
    if (req.method === 'GET' && !action) return send(res, 200, view(s));
    if (req.method !== 'POST') return send(res, 405, { error: 'method_not_allowed' });
    switch (action) {
      case 'authorize':
        if (s.status !== 'PENDING') return answer(409, { error: 'not_pending', status: s.status });
        s.status = 'AUTHORIZED';
        return answer(200, { ...view(s), transactionId: `tx_${s.id}` });
      case 'capture': {
        if (s.status !== 'AUTHORIZED') return answer(409, { error: 'not_authorized', status: s.status });
        const amount = body.amount === undefined ? s.amount : Number(body.amount);
        if (!Number.isSafeInteger(amount) || amount <= 0 || amount > s.amount) return answer(422, { error: 'invalid_amount' });
        s.status = 'CAPTURED';
        s.capturedAmount = amount;
        s.captureCount += 1;
        return answer(200, { ...view(s), transactionId: `tx_${s.id}` });
      }
      case 'void':
        if (s.status !== 'AUTHORIZED' && s.status !== 'PENDING') return answer(409, { error: 'not_voidable', status: s.status });
        s.status = 'VOIDED';
        return answer(200, view(s));
      case 'refund': {
        const amount = Number(body.amount);
        if (s.status !== 'CAPTURED' && s.status !== 'PARTIALLY_REFUNDED') return answer(409, { error: 'not_captured', status: s.status });
        if (!Number.isSafeInteger(amount) || amount <= 0 || amount > s.capturedAmount - s.refundedAmount) return answer(422, { error: 'invalid_amount' });
        s.refundedAmount += amount;
        s.status = s.refundedAmount === s.capturedAmount ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
        return answer(200, { ...view(s), refundId: `re_${crypto.randomBytes(8).toString('hex')}` });
      }
      case 'redeliver':
        if (s.lastEvent) await post(s, s.lastEvent.body);
        return send(res, 200, { redelivered: !!s.lastEvent });
      default:
        return send(res, 404, { error: 'unknown_action' });
    }
  }

  function page(s: Session): string {
    const amount = `${Math.floor(s.amount / 100)},${String(s.amount % 100).padStart(2, '0')} ${s.currency}`;
    const button = (action: string, label: string) =>
      `<form method="post" action="/checkout/${s.id}/${action}"><button type="submit" name="action" value="${action}">${label}</button></form>`;
    return `<!doctype html><html lang="nb"><head><meta charset="utf-8"><title>Sandbox checkout</title></head><body>
<h1>Sandbox checkout</h1><p>Amount: <strong>${amount}</strong> (${s.captureMode === 'MANUAL' ? 'reserved now, charged at the visit' : 'charged now'})</p>
<p>Status: ${s.status}</p>
${s.status === 'PENDING' ? [button('pay', 'Pay'), button('decline', 'Decline (card refused)'), button('fail', 'Fail (provider error, try again)'), button('abandon', 'Abandon')].join('\n') : ''}
</body></html>`;
  }

  async function checkout(req: http.IncomingMessage, res: http.ServerResponse, path: string[]): Promise<void> {
    const s = sessions.get(path[1] ?? '');
    if (!s) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such checkout session');
    if (req.method === 'GET' && path.length === 2) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(s));
    if (req.method !== 'POST' || path.length !== 3) return void res.writeHead(405).end();
    await readBody(req);
    const action = path[2];
    if (s.status === 'PENDING') {
      if (action === 'pay') {
        s.status = s.captureMode === 'AUTO' ? 'CAPTURED' : 'AUTHORIZED';
        if (s.status === 'CAPTURED') {
          s.capturedAmount = s.amount;
          s.captureCount += 1;
        }
        await sendWebhook(s, s.status === 'CAPTURED' ? 'payment.captured' : 'payment.authorized', { transactionId: `tx_${s.id}` });
      } else if (action === 'decline') {
        s.status = 'FAILED';
        await sendWebhook(s, 'payment.failed', { failureKind: 'PERMANENT', failureReason: 'CARD_DECLINED' });
      } else if (action === 'fail') {
        // the session stays usable at the provider, but this attempt failed
        await sendWebhook(s, 'payment.failed', { failureKind: 'TRANSIENT', failureReason: 'PROVIDER_UNAVAILABLE' });
        s.status = 'FAILED';
      } else if (action !== 'abandon') {
        return void res.writeHead(404).end('unknown action');
      }
    }
    const back = s.returnUrl ? `${s.returnUrl}${s.returnUrl.includes('?') ? '&' : '?'}result=${encodeURIComponent(action)}` : `/checkout/${s.id}`;
    res.writeHead(303, { location: back }).end();
  }

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0].split('/').filter(Boolean);
    const handler = path[0] === 'v1' ? api : path[0] === 'checkout' ? checkout : null;
    if (!handler) return void res.writeHead(404).end();
    handler(req, res, path).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  base = await listen(server, host, options.port);
  return {
    url: base,
    delivered,
    session: (id) => sessions.get(id),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
