// The sandbox billing provider: the embedded default for `npm start` and the tests (no internet).
// A loopback HTTP server with a hosted checkout page and a customer-portal page; completing a
// checkout, or an action in the portal, posts a Standard Webhooks-signed event to `webhookUrl`,
// just as a real provider would. Its REST API (Bearer apiKey) is what integrations/billing/providers.ts
// `sandboxAdapter` calls:
//   POST /v1/checkouts            {variantId, trialDays, email, successUrl, cancelUrl, metadata} -> {id, url}
//   POST /v1/portal-sessions      {subscriptionId} -> {url}
//   GET  /v1/subscriptions/:id    the subscription
//   POST /v1/subscriptions/:id/cancel             cancel at period end (webhook subscription.canceled)
//   GET  /v1/health
// Pages (no auth, as a hosted page would be):
//   GET  /checkout/:id, POST /checkout/:id/complete          pays; webhook subscription.created
//   GET  /portal/:subId, POST /portal/:subId/:action         renew | fail-payment | cancel | expire
// State lives in memory: a restart forgets subscriptions (reconcile then finds them gone).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signStandardWebhook } from '../integrations/billing/webhook-signatures';

export interface SandboxBillingOptions {
  apiKey: string;
  /** Standard Webhooks secret (base64, optionally `whsec_`-prefixed) */
  webhookSecret: string;
  /** where events are posted, e.g. http://127.0.0.1:3000/api/webhooks/subscription/sandbox */
  webhookUrl?: string;
  port?: number;
  host?: string;
}

interface Checkout {
  id: string;
  variantId: string;
  trialDays: number;
  email: string | null;
  successUrl: string;
  cancelUrl: string;
  metadata: Record<string, string>;
  completedSubscriptionId?: string;
}

export interface SandboxSubscription {
  id: string;
  status: 'active' | 'trialing' | 'past_due' | 'canceled' | 'expired';
  customer_id: string;
  product_id: string;
  current_period_end: string;
  trial_end: string | null;
  cancel_at_period_end: boolean;
  metadata: Record<string, string>;
}

export interface Delivery {
  type: string;
  status: number | 'FAILED';
}

const DAY = 24 * 60 * 60 * 1000;
const PERIOD_DAYS = 30;

export const SANDBOX_ACTIONS = ['renew', 'fail-payment', 'cancel', 'expire'] as const;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="nb"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}<p><small>Sandbox billing provider - no real money moves.</small></p></body></html>`;
}

export class SandboxBillingServer {
  readonly checkouts = new Map<string, Checkout>();
  readonly subscriptions = new Map<string, SandboxSubscription>();
  readonly deliveries: Delivery[] = [];
  webhookUrl: string | undefined;
  /** the provider's clock; tests move it along with their workflow time */
  now: () => number = () => Date.now();
  private server?: http.Server;
  private base = '';

  constructor(private readonly options: SandboxBillingOptions) {
    this.webhookUrl = options.webhookUrl;
  }

  get url(): string {
    return this.base;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      this.route(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(err) }));
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    const { port } = this.server.address() as AddressInfo;
    this.base = `http://${this.options.host ?? '127.0.0.1'}:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Completes a checkout as the customer would (the page's pay button). */
  async completeCheckout(checkoutId: string): Promise<{ subscription: SandboxSubscription; delivery: Delivery }> {
    const checkout = this.checkouts.get(checkoutId);
    if (!checkout) throw new Error(`no checkout ${checkoutId}`);
    if (checkout.completedSubscriptionId) throw new Error('checkout already completed');
    const now = this.now();
    const trialEnd = checkout.trialDays > 0 ? new Date(now + checkout.trialDays * DAY).toISOString() : null;
    const subscription: SandboxSubscription = {
      id: `sub_${crypto.randomBytes(8).toString('hex')}`,
      status: trialEnd ? 'trialing' : 'active',
      customer_id: `cus_${crypto.randomBytes(6).toString('hex')}`,
      product_id: checkout.variantId,
      current_period_end: trialEnd ?? new Date(now + PERIOD_DAYS * DAY).toISOString(),
      trial_end: trialEnd,
      cancel_at_period_end: false,
      metadata: checkout.metadata,
    };
    checkout.completedSubscriptionId = subscription.id;
    this.subscriptions.set(subscription.id, subscription);
    return { subscription, delivery: await this.send('subscription.created', subscription) };
  }

  /** A portal or billing-cycle action: renew, fail-payment, cancel (at period end), expire. */
  async act(subscriptionId: string, action: (typeof SANDBOX_ACTIONS)[number]): Promise<Delivery> {
    const sub = this.subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`no subscription ${subscriptionId}`);
    switch (action) {
      case 'renew':
        sub.status = 'active';
        sub.cancel_at_period_end = false;
        sub.current_period_end = new Date(Math.max(Date.parse(sub.current_period_end), this.now()) + PERIOD_DAYS * DAY).toISOString();
        return this.send('subscription.renewed', sub);
      case 'fail-payment':
        sub.status = 'past_due';
        return this.send('subscription.payment_failed', sub);
      case 'cancel':
        sub.status = 'canceled';
        sub.cancel_at_period_end = true;
        return this.send('subscription.canceled', sub);
      case 'expire':
        sub.status = 'expired';
        return this.send('subscription.expired', sub);
    }
  }

  /** Signs and posts one event; the delivery's HTTP status is recorded (and returned). */
  async send(type: string, subscription: SandboxSubscription): Promise<Delivery> {
    const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data: subscription });
    const id = `evt_${crypto.randomBytes(10).toString('hex')}`;
    let delivery: Delivery;
    if (!this.webhookUrl) {
      delivery = { type, status: 'FAILED' };
    } else {
      try {
        const res = await fetch(this.webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signStandardWebhook(this.options.webhookSecret, id, new Date(), body) },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await res.text();
        delivery = { type, status: res.status };
      } catch {
        delivery = { type, status: 'FAILED' };
      }
    }
    this.deliveries.push(delivery);
    return delivery;
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    const parts = url.pathname.split('/').filter(Boolean);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const html = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    const readJson = async (): Promise<Record<string, unknown>> => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    };

    if (parts[0] === 'v1') {
      if (req.headers.authorization !== `Bearer ${this.options.apiKey}`) return json(401, { error: 'invalid api key' });
      if (req.method === 'GET' && parts[1] === 'health') return json(200, { ok: true });
      if (req.method === 'POST' && parts[1] === 'checkouts' && parts.length === 2) {
        const body = await readJson();
        const checkout: Checkout = {
          id: `chk_${crypto.randomBytes(8).toString('hex')}`,
          variantId: String(body.variantId),
          trialDays: Math.max(0, Number(body.trialDays) || 0),
          email: typeof body.email === 'string' ? body.email : null,
          successUrl: String(body.successUrl),
          cancelUrl: String(body.cancelUrl),
          metadata: (body.metadata ?? {}) as Record<string, string>,
        };
        this.checkouts.set(checkout.id, checkout);
        return json(201, { id: checkout.id, url: `${this.base}/checkout/${checkout.id}` });
      }
      if (req.method === 'POST' && parts[1] === 'portal-sessions') {
        const body = await readJson();
        const sub = this.subscriptions.get(String(body.subscriptionId));
        if (!sub) return json(404, { error: 'no such subscription' });
        return json(201, { url: `${this.base}/portal/${sub.id}` });
      }
      if (parts[1] === 'subscriptions' && parts[2]) {
        const sub = this.subscriptions.get(parts[2]);
        if (!sub) return json(404, { error: 'no such subscription' });
        if (req.method === 'GET' && parts.length === 3) return json(200, sub);
        if (req.method === 'POST' && parts[3] === 'cancel') {
          const delivery = await this.act(sub.id, 'cancel');
          return json(200, { ...sub, delivery });
        }
      }
      return json(404, { error: 'not found' });
    }

    if (parts[0] === 'checkout' && parts[1]) {
      const checkout = this.checkouts.get(parts[1]);
      if (!checkout) return html(404, page('Fant ikke betalingen', '<p>Denne betalingslenken finnes ikke.</p>'));
      if (req.method === 'GET') {
        const trial =
          checkout.trialDays > 0
            ? `<p>Ingen betaling de neste ${checkout.trialDays} dagene (resten av prøveperioden).</p>`
            : '<p>Første betaling trekkes i dag.</p>';
        return html(
          200,
          page(
            'Sandkasse-betaling',
            `<p>Plan: ${escapeHtml(checkout.metadata.plan_key ?? checkout.variantId)}</p>${trial}<form method="post" action="/checkout/${checkout.id}/complete"><button type="submit">Betal</button></form><p><a href="${escapeHtml(checkout.cancelUrl)}">Avbryt</a></p>`,
          ),
        );
      }
      if (req.method === 'POST' && parts[2] === 'complete') {
        if (checkout.completedSubscriptionId) return json(409, { error: 'already completed' });
        const { subscription, delivery } = await this.completeCheckout(checkout.id);
        if ((req.headers.accept ?? '').includes('application/json')) return json(200, { subscription, delivery });
        res.writeHead(303, { location: checkout.successUrl });
        return void res.end();
      }
    }

    if (parts[0] === 'portal' && parts[1]) {
      const sub = this.subscriptions.get(parts[1]);
      if (!sub) return html(404, page('Fant ikke abonnementet', '<p>Dette abonnementet finnes ikke.</p>'));
      if (req.method === 'GET') {
        const buttons = SANDBOX_ACTIONS.map((a) => `<form method="post" action="/portal/${sub.id}/${a}"><button type="submit">${a}</button></form>`).join('');
        return html(
          200,
          page(
            'Kundeportal (sandkasse)',
            `<p>Status: ${sub.status}${sub.cancel_at_period_end ? ' (avsluttes ved periodens slutt)' : ''}</p><p>Neste periode: ${sub.current_period_end}</p>${buttons}`,
          ),
        );
      }
      const action = parts[2] as (typeof SANDBOX_ACTIONS)[number];
      if (req.method === 'POST' && SANDBOX_ACTIONS.includes(action)) {
        const delivery = await this.act(sub.id, action);
        if ((req.headers.accept ?? '').includes('application/json')) return json(200, { subscription: sub, delivery });
        res.writeHead(303, { location: `/portal/${sub.id}` });
        return void res.end();
      }
    }
    json(404, { error: 'not found' });
  }
}

export async function startSandboxBilling(options: SandboxBillingOptions): Promise<SandboxBillingServer> {
  return new SandboxBillingServer(options).start();
}
