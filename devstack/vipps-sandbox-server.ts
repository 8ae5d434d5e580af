/**
 * The Vipps MobilePay sandbox: a small HTTP server on loopback that answers like Vipps' ePayment,
 * Access Token and Webhooks APIs (the request and response shapes of their public specifications),
 * so a Vipps deposit works on `npm start` and in the tests without the internet.
 *
 *   POST /accesstoken/get                          headers client_id, client_secret, Ocp-Apim-Subscription-Key, Merchant-Serial-Number
 *   POST /epayment/v1/payments                     create (Idempotency-Key): {amount, paymentMethod, customer?, reference, userFlow, returnUrl}
 *   GET  /epayment/v1/payments/{reference}         state, aggregate, pspReference
 *   GET  /epayment/v1/payments/{reference}/events  the event log
 *   POST /epayment/v1/payments/{reference}/capture | /cancel | /refund   (Idempotency-Key; {modificationAmount})
 *   POST /epayment/v1/test/payments/{reference}/approve                   force approve (test environment only at Vipps)
 *   POST /webhooks/v1/webhooks, GET /webhooks/v1/webhooks, DELETE /webhooks/v1/webhooks/{id}
 * Every API call but the token's needs `Authorization: Bearer <token>`, the subscription key and the
 * merchant serial number the token was issued for. Errors are Problem answers (`application/problem+json`).
 *
 * The landing page (`redirectUrl`, GET /landing?token=...) stands in for the Vipps app: it shows the
 * payment and a test phone (prefilled with the customer's number), and Approve or Reject, which
 * move the payment to AUTHORIZED or ABORTED, send the webhooks and return the customer to
 * `returnUrl`. A payment nobody acts on EXPIRES after `paymentTtlMs`.
 *
 * Webhooks go to every registration of the payment's merchant for that event, in order, signed as
 * Vipps signs them (integrations/payments/vipps/vipps-signature.ts). Tests can hold them back (a late
 * webhook), send one again (a duplicate) and read what was sent.
 *
 * Sales units: any client id, subscription key and 4-6 digit merchant serial number, with the client
 * secret `vippsSandboxSecret(clientId)`; any other secret is refused (401), as a wrong key is at Vipps.
 */
import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { vippsWebhookHeaders } from '../integrations/payments/vipps/vipps-signature';
import { listen } from './listen';

/** The client secret the sandbox accepts for a client id. */
export function vippsSandboxSecret(clientId: string): string {
  return crypto.createHash('sha256').update(`vipps-sandbox:${clientId}`).digest('base64url');
}

/** A sales unit the sandbox accepts: the four credentials of a Vipps payment config. */
export function vippsSandboxSalesUnit(merchantSerialNumber = String(crypto.randomInt(100_000, 999_999))) {
  const clientId = crypto.randomUUID();
  return { clientId, clientSecret: vippsSandboxSecret(clientId), subscriptionKey: crypto.randomBytes(16).toString('hex'), merchantSerialNumber };
}

type State = 'CREATED' | 'ABORTED' | 'EXPIRED' | 'AUTHORIZED' | 'TERMINATED';
type EventName = 'CREATED' | 'ABORTED' | 'EXPIRED' | 'CANCELLED' | 'CAPTURED' | 'REFUNDED' | 'AUTHORIZED' | 'TERMINATED';

interface Amount {
  currency: string;
  value: number;
}

interface PaymentEvent {
  reference: string;
  pspReference: string;
  name: EventName;
  amount: Amount;
  timestamp: string;
  idempotencyKey: string | null;
  success: boolean;
}

export interface SandboxVippsPayment {
  reference: string;
  msn: string;
  amount: Amount;
  state: State;
  pspReference: string;
  /** the test phone the customer approved with (or the prefilled one) */
  phoneNumber: string | null;
  returnUrl: string;
  description: string;
  token: string;
  createdAt: number;
  aggregate: { authorizedAmount: Amount; cancelledAmount: Amount; capturedAmount: Amount; refundedAmount: Amount };
  events: PaymentEvent[];
  /** every capture and refund request (replays and refusals too) and their distinct keys */
  requests: Record<'capture' | 'refund' | 'cancel', { count: number; keys: string[] }>;
}

interface Registration {
  id: string;
  msn: string;
  url: string;
  events: string[];
  secret: string;
}

export type VippsWebhookDelivery = (url: string, body: string, headers: Record<string, string>) => Promise<number>;

export interface VippsSandbox {
  url: string;
  /** every webhook the sandbox sent, in order */
  delivered: { url: string; body: string; status: number; name: EventName; reference: string }[];
  payment(reference: string): Readonly<SandboxVippsPayment> | undefined;
  /** the merchant's webhook registrations */
  registrations(msn: string): readonly Readonly<Registration>[];
  /** webhooks wait until released (a webhook that is late) */
  holdWebhooks(): void;
  releaseWebhooks(): Promise<void>;
  /** the last webhook of the payment again, byte for byte (a duplicate) */
  redeliver(reference: string): Promise<void>;
  /** what the landing page's buttons do, for a test phone */
  approve(reference: string, phoneNumber?: string): Promise<void>;
  reject(reference: string): Promise<void>;
  /** a payment nobody acted on runs out now */
  expire(reference: string): Promise<void>;
  close(): Promise<void>;
}

async function fetchDelivery(url: string, body: string, headers: Record<string, string>): Promise<number> {
  // fetch sets the host from the address, which is the one signed
  const { host: _host, ...rest } = headers;
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...rest }, signal: AbortSignal.timeout(10_000) });
  return res.status;
}

const REFERENCE = /^[a-zA-Z0-9-]{8,50}$/;
const MSN = /^[0-9]{4,6}$/;
/** At most this many registrations per event and merchant, as at Vipps. */
const REGISTRATIONS_PER_EVENT = 5;

export async function startVippsSandbox(
  options: { port?: number; host?: string; deliver?: VippsWebhookDelivery; paymentTtlMs?: number; stateFile?: string } = {},
): Promise<VippsSandbox> {
  const host = options.host ?? '127.0.0.1';
  const deliver = options.deliver ?? fetchDelivery;
  const paymentTtlMs = options.paymentTtlMs ?? 10 * 60_000;
  const saved = readState(options.stateFile);
  const payments = new Map<string, SandboxVippsPayment>(saved.payments.map((p) => [p.reference, p]));
  const registrations = new Map<string, Registration>(saved.registrations.map((r) => [r.id, r]));
  const tokens = new Map<string, { msn: string; subscriptionKey: string; expiresAt: number }>();
  const replays = new Map<string, { status: number; body: unknown }>();
  const delivered: VippsSandbox['delivered'] = [];
  const lastBody = new Map<string, { url: string; body: string; secret: string; name: EventName }[]>();
  const queues = new Map<string, Promise<void>>();
  let held: (() => Promise<void>)[] | null = null;
  const timers = new Set<NodeJS.Timeout>();
  let base = '';

  const persist = () => {
    if (options.stateFile)
      fs.writeFileSync(options.stateFile, JSON.stringify({ payments: [...payments.values()], registrations: [...registrations.values()] }));
  };

  const zero = (currency: string): Amount => ({ currency, value: 0 });
  const psp = () => String(crypto.randomInt(1_000_000_000, 9_999_999_999));

  function send(res: http.ServerResponse, status: number, body?: unknown): void {
    if (body === undefined) return void res.writeHead(status).end();
    res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' }).end(JSON.stringify(body));
  }

  const problem = (status: number, title: string, detail?: string) => ({
    type: `https://developer.vippsmobilepay.com/docs/knowledge-base/errors#${status}`,
    title,
    status,
    detail: detail ?? title,
    traceId: crypto.randomUUID(),
  });

  function view(p: SandboxVippsPayment) {
    return {
      aggregate: p.aggregate,
      amount: p.amount,
      state: p.state,
      paymentMethod: { type: 'WALLET' },
      profile: {},
      pspReference: p.pspReference,
      redirectUrl: landingUrl(p),
      reference: p.reference,
    };
  }

  function modification(p: SandboxVippsPayment, amount: Amount) {
    return { amount, state: p.state, aggregate: p.aggregate, pspReference: p.pspReference, reference: p.reference };
  }

  const landingUrl = (p: SandboxVippsPayment) => `${base}/landing?token=${p.token}`;

  /** An event of the payment: its log and its webhooks. */
  function happened(p: SandboxVippsPayment, name: EventName, amount: Amount, idempotencyKey: string | null): void {
    const event: PaymentEvent = {
      reference: p.reference,
      pspReference: psp(),
      name,
      amount,
      timestamp: new Date().toISOString(),
      idempotencyKey,
      success: true,
    };
    p.events.push(event);
    persist();
    const body = JSON.stringify({ msn: p.msn, ...event });
    const eventType = `epayments.payment.${name.toLowerCase()}.v1`;
    for (const r of registrations.values()) {
      if (r.msn !== p.msn || !r.events.includes(eventType)) continue;
      const sends = lastBody.get(p.reference) ?? [];
      sends.push({ url: r.url, body, secret: r.secret, name });
      lastBody.set(p.reference, sends);
      enqueue(r.id, () => post(r.url, body, r.secret, name, p.reference));
    }
  }

  /** Deliveries to one registration go out in order; held ones wait until released. */
  function enqueue(registrationId: string, job: () => Promise<void>): void {
    if (held) return void held.push(job);
    const next = (queues.get(registrationId) ?? Promise.resolve()).then(job);
    queues.set(registrationId, next);
  }

  async function post(url: string, body: string, secret: string, name: EventName, reference: string): Promise<void> {
    let status = 0;
    try {
      status = await deliver(url, body, vippsWebhookHeaders(secret, url, body, new Date()));
    } catch {
      status = 0;
    }
    delivered.push({ url, body, status, name, reference });
  }

  /** A CREATED payment past its time expires (checked whenever it is read, and by a timer). */
  function expireIfDue(p: SandboxVippsPayment): void {
    if (p.state === 'CREATED' && Date.now() >= p.createdAt + paymentTtlMs) {
      p.state = 'EXPIRED';
      happened(p, 'EXPIRED', p.amount, null);
    }
  }

  function authorize(p: SandboxVippsPayment, phoneNumber?: string): boolean {
    expireIfDue(p);
    if (p.state !== 'CREATED') return false;
    p.state = 'AUTHORIZED';
    p.phoneNumber = phoneNumber ?? p.phoneNumber;
    p.aggregate.authorizedAmount = { ...p.amount };
    happened(p, 'AUTHORIZED', p.amount, null);
    return true;
  }

  function abort(p: SandboxVippsPayment): boolean {
    expireIfDue(p);
    if (p.state !== 'CREATED') return false;
    p.state = 'ABORTED';
    happened(p, 'ABORTED', p.amount, null);
    return true;
  }

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  const header = (req: http.IncomingMessage, name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : (v ?? '');
  };

  function accessToken(req: http.IncomingMessage, res: http.ServerResponse): void {
    const clientId = header(req, 'client_id');
    const secret = header(req, 'client_secret');
    const subscriptionKey = header(req, 'ocp-apim-subscription-key');
    const msn = header(req, 'merchant-serial-number');
    if (!clientId || !subscriptionKey || !MSN.test(msn) || secret !== vippsSandboxSecret(clientId)) return send(res, 401, problem(401, 'Unauthorized'));
    const token = crypto.randomBytes(32).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    tokens.set(token, { msn, subscriptionKey, expiresAt: Date.now() + 3600_000 });
    send(res, 200, {
      token_type: 'Bearer',
      expires_in: '3600',
      ext_expires_in: '3600',
      expires_on: String(now + 3600),
      not_before: String(now),
      resource: '00000002-0000-0000-c000-000000000000',
      access_token: token,
    });
  }

  /** The merchant serial number the request is allowed to act for, or null (answered 401). */
  function caller(req: http.IncomingMessage): string | null {
    const token = /^Bearer (.+)$/.exec(header(req, 'authorization'))?.[1] ?? '';
    const found = tokens.get(token);
    if (!found || found.expiresAt < Date.now()) return null;
    if (header(req, 'merchant-serial-number') !== found.msn || header(req, 'ocp-apim-subscription-key') !== found.subscriptionKey) return null;
    return found.msn;
  }

  async function webhooksApi(req: http.IncomingMessage, res: http.ServerResponse, msn: string, path: string[], body: Record<string, unknown>): Promise<void> {
    if (req.method === 'GET' && path.length === 3) {
      const own = [...registrations.values()].filter((r) => r.msn === msn).map(({ id, url, events }) => ({ id, url, events }));
      return send(res, 200, { webhooks: own });
    }
    if (req.method === 'POST' && path.length === 3) {
      const events = Array.isArray(body.events) ? body.events.map(String) : [];
      if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url) || events.length === 0)
        return send(res, 400, problem(400, 'Bad Request', 'url and events are required'));
      for (const event of events) {
        const count = [...registrations.values()].filter((r) => r.msn === msn && r.events.includes(event)).length;
        if (count >= REGISTRATIONS_PER_EVENT) return send(res, 400, problem(400, 'Bad Request', `at most ${REGISTRATIONS_PER_EVENT} webhooks per event`));
      }
      const registration: Registration = { id: crypto.randomUUID(), msn, url: body.url, events, secret: crypto.randomBytes(48).toString('base64') };
      registrations.set(registration.id, registration);
      persist();
      return send(res, 201, { id: registration.id, secret: registration.secret });
    }
    if (req.method === 'DELETE' && path.length === 4) {
      const found = registrations.get(path[3]);
      if (!found || found.msn !== msn) return send(res, 400, problem(400, 'Bad Request', 'no such webhook'));
      registrations.delete(found.id);
      persist();
      return send(res, 204);
    }
    send(res, 404, problem(404, 'Not Found'));
  }

  async function epayment(req: http.IncomingMessage, res: http.ServerResponse, msn: string, path: string[], body: Record<string, unknown>): Promise<void> {
    const key = header(req, 'idempotency-key');
    const isTest = path[2] === 'test';
    const [reference, action] = isTest ? [path[4], path[5]] : [path[3], path[4]];
    const p = reference ? payments.get(reference) : undefined;
    if (p && p.msn === msn) expireIfDue(p);
    if (req.method === 'POST' && !isTest) {
      if (!key) return send(res, 400, problem(400, 'Bad Request', 'Idempotency-Key is required'));
      if (p && p.msn === msn && (action === 'capture' || action === 'refund' || action === 'cancel')) {
        const calls = p.requests[action];
        calls.count += 1;
        if (!calls.keys.includes(key)) calls.keys.push(key);
      }
      const replay = replays.get(`${msn}|${req.url}|${key}`);
      if (replay) return send(res, replay.status, replay.body);
    }
    const answer = (status: number, payload: unknown) => {
      if (req.method === 'POST' && !isTest && status < 500) replays.set(`${msn}|${req.url}|${key}`, { status, body: payload });
      send(res, status, payload);
    };

    if (req.method === 'POST' && path.length === 3) {
      const amount = body.amount as Partial<Amount> | undefined;
      const value = Number(amount?.value);
      const ref = String(body.reference ?? '');
      if (!Number.isSafeInteger(value) || value <= 0 || typeof amount?.currency !== 'string' || !REFERENCE.test(ref) || typeof body.returnUrl !== 'string')
        return answer(400, problem(400, 'Bad Request', 'amount, reference and returnUrl are required'));
      if (payments.has(ref)) return answer(409, problem(409, 'Conflict', 'the reference is already used'));
      const phone = (body.customer as { phoneNumber?: unknown } | undefined)?.phoneNumber;
      const created: SandboxVippsPayment = {
        reference: ref,
        msn,
        amount: { currency: amount.currency, value },
        state: 'CREATED',
        pspReference: psp(),
        phoneNumber: typeof phone === 'string' ? phone : null,
        returnUrl: body.returnUrl,
        description: String(body.paymentDescription ?? ''),
        token: crypto.randomBytes(18).toString('base64url'),
        createdAt: Date.now(),
        aggregate: {
          authorizedAmount: zero(amount.currency),
          cancelledAmount: zero(amount.currency),
          capturedAmount: zero(amount.currency),
          refundedAmount: zero(amount.currency),
        },
        events: [],
        requests: { capture: { count: 0, keys: [] }, refund: { count: 0, keys: [] }, cancel: { count: 0, keys: [] } },
      };
      payments.set(ref, created);
      happened(created, 'CREATED', created.amount, key);
      const timer = setTimeout(() => {
        timers.delete(timer);
        expireIfDue(created);
      }, paymentTtlMs + 10);
      timer.unref();
      timers.add(timer);
      return answer(201, { redirectUrl: landingUrl(created), reference: ref });
    }
    if (!p || p.msn !== msn) return answer(404, problem(404, 'Not Found', 'no such payment'));
    if (req.method === 'GET' && !action) return send(res, 200, view(p));
    if (req.method === 'GET' && action === 'events') return send(res, 200, p.events);
    if (req.method !== 'POST') return send(res, 405, problem(405, 'Method Not Allowed'));
    if (isTest && action === 'approve') {
      const phone = (body.customer as { phoneNumber?: unknown } | undefined)?.phoneNumber;
      return authorize(p, typeof phone === 'string' ? phone : undefined) ? send(res, 200, {}) : send(res, 400, problem(400, 'Bad Request', p.state));
    }
    const modificationAmount = body.modificationAmount as Partial<Amount> | undefined;
    const value = Number(modificationAmount?.value);
    const { authorizedAmount, capturedAmount, cancelledAmount, refundedAmount } = p.aggregate;
    switch (action) {
      case 'capture': {
        if (p.state !== 'AUTHORIZED') return answer(400, problem(400, 'Bad Request', `cannot capture a payment in state ${p.state}`));
        const left = authorizedAmount.value - capturedAmount.value - cancelledAmount.value;
        if (!Number.isSafeInteger(value) || value <= 0 || value > left) return answer(400, problem(400, 'Bad Request', `at most ${left} can be captured`));
        capturedAmount.value += value;
        happened(p, 'CAPTURED', { currency: p.amount.currency, value }, key);
        return answer(200, modification(p, { currency: p.amount.currency, value }));
      }
      case 'cancel': {
        if (p.state === 'CREATED') {
          p.state = 'TERMINATED';
          happened(p, 'TERMINATED', p.amount, key);
          return answer(200, modification(p, p.amount));
        }
        if (p.state !== 'AUTHORIZED') return answer(400, problem(400, 'Bad Request', `cannot cancel a payment in state ${p.state}`));
        const left = authorizedAmount.value - capturedAmount.value - cancelledAmount.value;
        cancelledAmount.value += left;
        happened(p, 'CANCELLED', { currency: p.amount.currency, value: left }, key);
        if (capturedAmount.value === 0) {
          p.state = 'TERMINATED';
          happened(p, 'TERMINATED', p.amount, key);
        }
        return answer(200, modification(p, { currency: p.amount.currency, value: left }));
      }
      case 'refund': {
        const left = capturedAmount.value - refundedAmount.value;
        if (!Number.isSafeInteger(value) || value <= 0 || value > left) return answer(400, problem(400, 'Bad Request', `at most ${left} can be refunded`));
        refundedAmount.value += value;
        happened(p, 'REFUNDED', { currency: p.amount.currency, value }, key);
        return answer(200, modification(p, { currency: p.amount.currency, value }));
      }
      default:
        return send(res, 404, problem(404, 'Not Found'));
    }
  }

  async function api(req: http.IncomingMessage, res: http.ServerResponse, path: string[]): Promise<void> {
    if (path[0] === 'accesstoken' && path[1] === 'get' && req.method === 'POST') {
      await readBody(req);
      return accessToken(req, res);
    }
    const msn = caller(req);
    if (!msn) return send(res, 401, problem(401, 'Unauthorized', 'a valid access token, subscription key and merchant serial number are required'));
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return send(res, 400, problem(400, 'Bad Request', 'the body is not JSON'));
    }
    if (path[0] === 'webhooks' && path[1] === 'v1' && path[2] === 'webhooks') return webhooksApi(req, res, msn, path, body);
    if (path[0] === 'epayment' && path[1] === 'v1' && (path[2] === 'payments' || (path[2] === 'test' && path[3] === 'payments')))
      return epayment(req, res, msn, path, body);
    send(res, 404, problem(404, 'Not Found'));
  }

  function escape(value: string): string {
    return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  }

  function landingPage(p: SandboxVippsPayment): string {
    const amount = `${Math.floor(p.amount.value / 100)},${String(p.amount.value % 100).padStart(2, '0')} ${p.amount.currency}`;
    const open = p.state === 'CREATED';
    const shown = p.phoneNumber ? `+${p.phoneNumber}` : '';
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vipps MobilePay sandbox</title></head><body>
<main><h1>Vipps MobilePay sandbox</h1>
<p>${escape(p.description)}</p><p>Amount: <strong>${amount}</strong> (reserved now, captured by the merchant)</p>
<p id="state">State: ${p.state}</p>
${
  open
    ? `<form method="post" action="/landing/approve"><input type="hidden" name="token" value="${p.token}">
<label for="phone">Test phone</label> <input id="phone" name="phone" type="tel" value="${escape(shown)}" required>
<button type="submit">Approve</button></form>
<form method="post" action="/landing/reject"><input type="hidden" name="token" value="${p.token}"><button type="submit">Reject</button></form>`
    : `<p><a href="${escape(p.returnUrl)}">Back to the merchant</a></p>`
}
</main></body></html>`;
  }

  async function landing(req: http.IncomingMessage, res: http.ServerResponse, path: string[], query: URLSearchParams): Promise<void> {
    const byToken = (token: string | null) => [...payments.values()].find((p) => p.token === token);
    if (req.method === 'GET' && path.length === 1) {
      const p = byToken(query.get('token'));
      if (!p) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such payment');
      expireIfDue(p);
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(landingPage(p));
    }
    if (req.method !== 'POST' || path.length !== 2) return void res.writeHead(405).end();
    const form = new URLSearchParams(await readBody(req));
    const p = byToken(form.get('token'));
    if (!p) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such payment');
    if (path[1] === 'approve') authorize(p, (form.get('phone') ?? '').replace(/[^\d]/g, '') || undefined);
    else if (path[1] === 'reject') abort(p);
    else return void res.writeHead(404).end();
    res.writeHead(303, { location: p.returnUrl }).end();
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname.split('/').filter(Boolean);
    const handled = path[0] === 'landing' ? landing(req, res, path, url.searchParams) : api(req, res, path);
    handled.catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  base = await listen(server, host, options.port);

  const known = (reference: string) => {
    const p = payments.get(reference);
    if (!p) throw new Error(`the Vipps sandbox has no payment ${reference}`);
    return p;
  };
  return {
    url: base,
    delivered,
    payment: (reference) => payments.get(reference),
    registrations: (msn) => [...registrations.values()].filter((r) => r.msn === msn),
    holdWebhooks() {
      held ??= [];
    },
    async releaseWebhooks() {
      const jobs = held ?? [];
      held = null;
      for (const job of jobs) await job();
    },
    async redeliver(reference) {
      const last = lastBody.get(reference)?.at(-1);
      if (last) await post(last.url, last.body, last.secret, last.name, reference);
    },
    async approve(reference, phoneNumber) {
      authorize(known(reference), phoneNumber);
      await Promise.all(queues.values());
    },
    async reject(reference) {
      abort(known(reference));
      await Promise.all(queues.values());
    },
    async expire(reference) {
      const p = known(reference);
      p.createdAt = Date.now() - paymentTtlMs;
      expireIfDue(p);
      await Promise.all(queues.values());
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
      }),
  };
}

function readState(file: string | undefined): { payments: SandboxVippsPayment[]; registrations: Registration[] } {
  if (!file) return { payments: [], registrations: [] };
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return { payments: [], registrations: [] };
  }
}
