import { expect } from 'chai';
import crypto from 'node:crypto';
import request from 'supertest';
import { http } from '../../support/http';
import type { Express } from 'express';
import { appOnClock, appWith, stack } from '../../support/stack';
import { unique } from '../../support/factories';
import { activateSandbox, platformAdmin, registerSalon } from '../../support/billing';
import { call } from '../../support/http';
import { signStandardWebhook, hmacHex } from '../../../integrations/billing/webhook-signatures';
import { eventually } from '../../support/eventually';

const URL = '/api/webhooks/subscription';

function event(type: string, tenantId: string, subId: string, data: Record<string, unknown> = {}) {
  return JSON.stringify({
    type,
    timestamp: new Date().toISOString(),
    data: {
      id: subId,
      status: 'active',
      customer_id: 'cus_1',
      product_id: 'sandbox_start',
      current_period_end: new Date(Date.now() + 30 * 864e5).toISOString(),
      cancel_at_period_end: false,
      metadata: { tenant_id: tenantId, plan_key: 'start' },
      ...data,
    },
  });
}

async function sendSandbox(body: string, options: { id?: string; at?: Date; provider?: string; secret?: string } = {}) {
  const { billingSandbox } = await stack();
  const headers = signStandardWebhook(options.secret ?? billingSandbox.webhookSecret, options.id ?? `evt_${unique()}`, options.at ?? new Date(), body);
  return (await http())
    .post(`${URL}/${options.provider ?? 'sandbox'}`)
    .set(headers)
    .set('content-type', 'application/json')
    .send(body);
}

async function rows(tenantId: string) {
  const { platform } = await stack();
  return platform.knex('subscriptions').where({ tenantId }).orderBy('createdAt', 'asc');
}

async function settled(tenantId: string) {
  const { platform } = await stack();
  return eventually(
    async () => ((await platform.knex('subscription_webhook_inbox').where({ tenantId }).whereNull('processedAt').first()) ? undefined : true),
    'the inbox drained',
  );
}

describe('subscription webhooks', function () {
  this.timeout(90_000);
  before(() => activateSandbox());

  describe('verification and the inbox', () => {
    it('when the signature is wrong, missing or too old then 401 and nothing is written', async () => {
      const salon = await registerSalon();
      const body = event('subscription.created', salon.tenantId, unique('sub'));
      const wrong = await sendSandbox(body, { secret: `whsec_${crypto.randomBytes(24).toString('base64')}` });
      expect(wrong.status).to.equal(401);
      expect(wrong.body.error.code).to.equal('UNAUTHORIZED');
      expect((await (await http()).post(`${URL}/sandbox`).set('content-type', 'application/json').send(body)).status).to.equal(401);
      expect((await sendSandbox(body, { at: new Date(Date.now() - 10 * 60 * 1000) })).status).to.equal(401);
      const { platform } = await stack();
      expect(await platform.knex('subscription_webhook_inbox').where({ tenantId: salon.tenantId })).to.have.length(0);
    });

    it('when a verified body is not a subscription event, or not JSON, then 400 VALIDATION_ERROR', async () => {
      const notEvent = await sendSandbox(JSON.stringify({ type: 'order.paid', data: { id: 'x' } }));
      expect(notEvent.status).to.equal(400);
      expect(notEvent.body.error.code).to.equal('VALIDATION_ERROR');
      expect((await sendSandbox('not json at all')).status).to.equal(400);
    });

    it('when the provider is unknown then 404 BILLING_PROVIDER_NOT_FOUND; the provider id is case-insensitive; a provider without a config is 503', async () => {
      const unknown = await sendSandbox('{}', { provider: 'stripe' });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error.code).to.equal('BILLING_PROVIDER_NOT_FOUND');
      const salon = await registerSalon();
      const upper = await sendSandbox(event('subscription.created', salon.tenantId, unique('sub')), { provider: 'SandBox' });
      expect(upper.status).to.equal(200);
      const { platform } = await stack();
      await platform.knex('platform_billing_configs').where({ provider: 'lemonsqueezy' }).delete();
      const none = await (await http()).post(`${URL}/lemonsqueezy`).set('x-signature', 'ab').send({});
      expect(none.status).to.equal(503);
      expect(none.body.error.code).to.equal('BILLING_PROVIDER_NOT_AVAILABLE');
    });

    it('when the same event id is delivered twice then the second is acknowledged as a duplicate and ignored', async () => {
      const salon = await registerSalon();
      const id = `evt_${unique()}`;
      const body = event('subscription.created', salon.tenantId, unique('sub'));
      const first = await sendSandbox(body, { id });
      expect(first.body.data).to.deep.equal({ received: true, duplicate: false });
      const second = await sendSandbox(body, { id });
      expect(second.status).to.equal(200);
      expect(second.body.data).to.deep.equal({ received: true, duplicate: true });
      const { platform } = await stack();
      expect(await platform.knex('subscription_webhook_inbox').where({ provider: 'sandbox', providerEventId: id })).to.have.length(1);
      await settled(salon.tenantId);
      expect((await rows(salon.tenantId)).filter((r) => r.providerSubId)).to.have.length(1);
    });

    it('when the raw body is exactly 1 MB it is read; one byte more is 413 PAYLOAD_TOO_LARGE', async () => {
      const limit = 1024 * 1024;
      const atLimit = await sendSandbox('x'.repeat(limit));
      expect(atLimit.status).to.equal(400);
      const past = await sendSandbox('x'.repeat(limit + 1));
      expect(past.status).to.equal(413);
    });

    it('when one IP posts 60 webhooks in a minute they are answered; the 61st is 429 RATE_LIMIT_EXCEEDED', async () => {
      const app = await appWith({ RATE_LIMIT_SUBSCRIPTION_WEBHOOK: '60' });
      for (let i = 0; i < 60; i += 1) {
        const res = await request(app).post(`${URL}/sandbox`).set('content-type', 'application/json').send('{}');
        expect(res.status, `request ${i + 1}`).to.equal(401);
      }
      const over = await request(app).post(`${URL}/sandbox`).set('content-type', 'application/json').send('{}');
      expect(over.status).to.equal(429);
      expect(over.body.error.code).to.equal('RATE_LIMIT_EXCEEDED');
      expect(over.headers['x-ratelimit-limit']).to.equal('60');
    });
  });

  describe('applied by the workflow', () => {
    it('when events arrive then created -> payment_failed (PAST_DUE) -> renewed (ACTIVE) -> canceled (CANCELED) -> expired (EXPIRED) move the row and the read-model; an EXPIRED row never changes; a new subscription after expiry is a new row that wins', async () => {
      const salon = await registerSalon();
      const { platform } = await stack();
      const tenant = async () => platform.knex('tenants').where({ id: salon.tenantId }).first();
      const sub = unique('sub');
      const step = async (type: string, status: string, data: Record<string, unknown> = {}) => {
        expect((await sendSandbox(event(type, salon.tenantId, sub, data))).status).to.equal(200);
        await settled(salon.tenantId);
        const latest = (await rows(salon.tenantId)).at(-1);
        expect(latest.status, type).to.equal(status);
        expect((await tenant()).subscriptionStatus, type).to.equal(status);
        return latest;
      };
      const created = await step('subscription.created', 'ACTIVE');
      expect(created).to.include({ providerSubId: sub, provider: 'sandbox', planKey: 'start', providerCustomerId: 'cus_1' });
      expect((await tenant()).trialEndsAt).to.equal(null);
      await step('subscription.payment_failed', 'PAST_DUE', { status: 'past_due' });
      await step('subscription.renewed', 'ACTIVE');
      const canceled = await step('subscription.canceled', 'CANCELED', { status: 'canceled', cancel_at_period_end: true });
      expect(canceled.cancelAtPeriodEnd).to.equal(true);
      expect(canceled.canceledAt).to.not.equal(null);
      const expired = await step('subscription.expired', 'EXPIRED', { status: 'expired' });
      expect(expired.expiredAt).to.not.equal(null);
      // an EXPIRED row never changes
      await step('subscription.renewed', 'EXPIRED');
      await step('subscription.updated', 'EXPIRED', { status: 'active' });
      const ignored = await platform
        .knex('subscription_webhook_inbox')
        .where({ tenantId: salon.tenantId })
        .whereNotNull('failureReason')
        .select('failureReason');
      expect(ignored.map((r: { failureReason: string }) => r.failureReason)).to.include('SUBSCRIPTION_EXPIRED_IS_TERMINAL');
      // a new subscription after expiry: a new ACTIVE row, the expired one untouched, the newest wins
      const second = unique('sub');
      expect((await sendSandbox(event('subscription.created', salon.tenantId, second))).status).to.equal(200);
      await settled(salon.tenantId);
      const all = await rows(salon.tenantId);
      expect(all.map((r) => [r.providerSubId, r.status])).to.deep.equal([
        [null, 'ACTIVE'],
        [sub, 'EXPIRED'],
        [second, 'ACTIVE'],
      ]);
      expect((await tenant()).subscriptionStatus).to.equal('ACTIVE');
    });

    it('when a Standard Webhooks provider (Polar) signs with its own secret then its events verify against its config and apply', async () => {
      const admin = (await platformAdmin()).token;
      const { platform } = await stack();
      await platform.knex('platform_billing_configs').where({ provider: 'polar' }).delete();
      const secret = `whsec_${crypto.randomBytes(24).toString('base64')}`;
      await call('post', '/superadmin/billing-configs', admin, {
        provider: 'polar',
        isTest: true,
        apiBaseUrl: 'https://sandbox-api.polar.sh',
        displayName: 'Polar',
        credentials: { apiKey: 'k', webhookSecret: secret },
      });
      const salon = await registerSalon();
      const sub = unique('polar');
      const res = await sendSandbox(event('subscription.active', salon.tenantId, sub, { status: 'trialing' }), { provider: 'polar', secret });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      await settled(salon.tenantId);
      expect((await rows(salon.tenantId)).at(-1)).to.include({ provider: 'polar', providerSubId: sub, status: 'ACTIVE' });
      const revoked = await sendSandbox(event('subscription.revoked', salon.tenantId, sub, { status: 'canceled' }), { provider: 'polar', secret });
      expect(revoked.status).to.equal(200);
      await settled(salon.tenantId);
      expect((await rows(salon.tenantId)).at(-1).status).to.equal('EXPIRED');
      expect((await sendSandbox(event('subscription.active', salon.tenantId, sub), { provider: 'polar' })).status).to.equal(401);
    });

    /** A Lemon Squeezy config with a fresh webhook secret, a salon, and a way to post signed bodies (to `app`, or the stack's). */
    async function lemonSqueezy() {
      const admin = (await platformAdmin()).token;
      const { platform } = await stack();
      await platform.knex('platform_billing_configs').where({ provider: 'lemonsqueezy' }).delete();
      const secret = crypto.randomBytes(16).toString('hex');
      const created = await call('post', '/superadmin/billing-configs', admin, {
        provider: 'lemonsqueezy',
        isTest: true,
        apiBaseUrl: 'https://api.lemonsqueezy.com',
        storeId: '1234',
        displayName: 'Lemon Squeezy',
        credentials: { apiKey: 'k', webhookSecret: secret },
      });
      await call('put', `/superadmin/billing-configs/${created.body.data.id}/plan-mappings`, admin, {
        mappings: [{ planKey: 'team', providerVariantId: '98765' }],
      });
      const salon = await registerSalon();
      const subId = String(crypto.randomInt(100_000, 999_999));
      const payload = (name: string, attrs: Record<string, unknown> = {}, updatedAt = new Date()) =>
        JSON.stringify({
          meta: { event_name: name, custom_data: { tenant_id: salon.tenantId } },
          data: {
            type: 'subscriptions',
            id: subId,
            attributes: {
              status: 'active',
              variant_id: 98765,
              customer_id: 42,
              renews_at: '2030-01-01T00:00:00.000000Z',
              cancelled: false,
              updated_at: updatedAt.toISOString(),
              ...attrs,
            },
          },
        });
      const post = async (body: string, headers: Record<string, string> = {}, app?: Express) =>
        (app ? request(app) : await http())
          .post(`${URL}/LemonSqueezy`)
          .set('content-type', 'application/json')
          .set({ 'x-signature': hmacHex(secret, body), ...headers })
          .send(body);
      const cleanUp = () => platform.knex('platform_billing_configs').where({ provider: 'lemonsqueezy' }).delete();
      return { secret, salon, subId, payload, post, cleanUp, platform };
    }

    it("when the x-signature provider (Lemon Squeezy) posts an HMAC-signed event then it verifies, the signed body's hash keys the inbox, and a bad signature is 401", async () => {
      const { secret, salon, subId, payload, post, cleanUp, platform } = await lemonSqueezy();
      const body = payload('subscription_created');
      const ok = await post(body);
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      await settled(salon.tenantId);
      expect((await rows(salon.tenantId)).at(-1)).to.include({ provider: 'lemonsqueezy', providerSubId: subId, planKey: 'team', status: 'ACTIVE' });
      const failed = payload('subscription_payment_failed', { status: 'past_due' });
      expect((await post(failed)).status).to.equal(200);
      const hash = crypto.createHash('sha256').update(failed).digest('hex');
      expect(await platform.knex('subscription_webhook_inbox').where({ provider: 'lemonsqueezy', providerEventId: `sha256:${hash}` })).to.have.length(1);
      await settled(salon.tenantId);
      expect((await rows(salon.tenantId)).at(-1).status).to.equal('PAST_DUE');
      expect((await post(body, { 'x-signature': hmacHex('wrong', body) })).status).to.equal(401);
      expect(secret).to.be.a('string');
      await cleanUp();
    });

    it('when a captured Lemon Squeezy body is replayed under a new x-event-id then it is the same event: acknowledged as a duplicate, applied once', async () => {
      const { salon, payload, post, cleanUp, platform } = await lemonSqueezy();
      const activated = payload('subscription_created');
      expect((await post(activated, { 'x-event-id': 'ls-evt-a' })).status).to.equal(200);
      await settled(salon.tenantId);
      const failed = payload('subscription_payment_failed', { status: 'past_due' });
      expect((await post(failed)).status).to.equal(200);
      await eventually(async () => (await rows(salon.tenantId)).at(-1).status === 'PAST_DUE', 'the failed payment applied');
      // the attacker replays the old, validly signed activation with a fresh unsigned event id
      const replay = await post(activated, { 'x-event-id': 'ls-evt-replay' });
      expect(replay.status).to.equal(200);
      expect(replay.body.data).to.include({ duplicate: true });
      expect(await platform.knex('subscription_webhook_inbox').where({ tenantId: salon.tenantId })).to.have.length(2);
      expect((await rows(salon.tenantId)).at(-1).status).to.equal('PAST_DUE');
      await cleanUp();
    });

    it('when a Lemon Squeezy event was signed 60 minutes ago then it is taken; a second older (or with no time) it is refused and nothing is written', async () => {
      const { salon, payload, post, cleanUp, platform } = await lemonSqueezy();
      const { app, at: clock } = await appOnClock();
      const now = clock.now();
      const atLimit = payload('subscription_created', {}, new Date(now.getTime() - 60 * 60_000));
      expect((await post(atLimit, {}, app)).status).to.equal(200);
      const stale = payload('subscription_updated', { status: 'active', cancelled: true }, new Date(now.getTime() - 60 * 60_000 - 1000));
      const refused = await post(stale, {}, app);
      expect([refused.status, refused.body.error.code]).to.deep.equal([401, 'UNAUTHORIZED']);
      const timeless = JSON.stringify({
        ...JSON.parse(payload('subscription_updated')),
        data: { type: 'subscriptions', id: 'timeless', attributes: { status: 'active' } },
      });
      expect((await post(timeless, {}, app)).status).to.equal(400);
      const hash = (b: string) => `sha256:${crypto.createHash('sha256').update(b).digest('hex')}`;
      expect(await platform.knex('subscription_webhook_inbox').whereIn('providerEventId', [hash(stale), hash(timeless)])).to.have.length(0);
      await settled(salon.tenantId);
      await cleanUp();
    });
  });
});
