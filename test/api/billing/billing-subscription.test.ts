import { expect } from 'chai';
import { call, http } from '../../support/http';
import { createSalon, createUser, unique } from '../../support/factories';
import { stack } from '../../support/stack';
import { activateSandbox, checkoutIdOf, deactivateAllConfigs, platformAdmin, registerSalon, salonWithSubscription } from '../../support/billing';
import { subscriptionContract } from '../../../domain/billing/subscription-events.rules';
import { eventually } from '../../support/eventually';

const DAY = 24 * 60 * 60 * 1000;

async function latestRow(tenantId: string) {
  const { platform } = await stack();
  return platform.knex('subscriptions').where({ tenantId }).orderBy('createdAt', 'desc').first();
}

describe('the salon subscription', function () {
  this.timeout(60_000);

  describe('owner registration', () => {
    it('when an owner registers then a 14-day ACTIVE trial starts without a provider subscription, the read-model follows, and subscription:<tenantId> is signalled', async () => {
      const { signaller } = await stack();
      const before = Date.now();
      const salon = await registerSalon();
      const row = await latestRow(salon.tenantId);
      expect(row).to.include({ status: 'ACTIVE', providerSubId: null, provider: null, planKey: 'salong', cancelAtPeriodEnd: false });
      const ends = new Date(row.trialEndsAt).getTime();
      expect(ends).to.be.within(before + 14 * DAY - 1000, Date.now() + 14 * DAY);
      const tenant = await (await stack()).platform.knex('tenants').where({ id: salon.tenantId }).first();
      expect(tenant.subscriptionStatus).to.equal('ACTIVE');
      expect(new Date(tenant.trialEndsAt).getTime()).to.equal(ends);
      const sent = signaller.sent.find((s) => s.ref.workflowId === subscriptionContract.workflowId(salon.tenantId));
      expect(sent?.event).to.deep.equal({ type: 'TrialStarted', entityVersion: 1 });

      const view = await call('get', '/subscription', salon.token);
      expect(view.status).to.equal(200);
      expect(view.body.data).to.include({
        status: 'ACTIVE',
        isTrialing: true,
        billingExempt: false,
        provider: null,
        providerManaged: false,
        cancelAtPeriodEnd: false,
        writesBlocked: false,
        planKey: 'salong',
      });
    });

    it('when the trial plan has its own trialDays then the trial lasts that long', async () => {
      const { platform } = await stack();
      await platform.knex('plans').where({ planKey: 'salong' }).update({ trialDays: 7 });
      try {
        const salon = await registerSalon();
        const row = await latestRow(salon.tenantId);
        expect(new Date(row.trialEndsAt).getTime() - new Date(row.createdAt).getTime()).to.be.within(7 * DAY - 2000, 7 * DAY + 2000);
      } finally {
        await platform.knex('plans').where({ planKey: 'salong' }).update({ trialDays: null });
      }
    });

    it('when a salon has no subscription at all then GET /subscription answers with nulls, and portal and cancel are 404 SUBSCRIPTION_NOT_FOUND', async () => {
      const { owner } = await createSalon();
      const view = await call('get', '/subscription', owner.token);
      expect(view.body.data).to.include({ status: null, isTrialing: false, providerManaged: false });
      expect((await call('get', '/subscription/portal', owner.token)).body.error.code).to.equal('SUBSCRIPTION_NOT_FOUND');
      const cancel = await call('post', '/subscription/cancel', owner.token);
      expect(cancel.status).to.equal(404);
      expect(cancel.body.error.code).to.equal('SUBSCRIPTION_NOT_FOUND');
    });

    it('when STAFF or an unauthenticated caller uses the subscription routes then 403 / 401', async () => {
      const salon = await registerSalon();
      expect((await call('get', '/subscription')).status).to.equal(401);
      const { platform } = await stack();
      const staff = await createUser(salon.tenantId, 'STAFF');
      expect((await call('get', '/subscription', staff.token)).status).to.equal(403);
      expect((await call('post', '/subscription/checkout', staff.token, { planKey: 'start' })).status).to.equal(403);
      expect(await platform.knex('subscriptions').where({ tenantId: salon.tenantId }).count({ n: '*' }).first()).to.deep.equal({ n: 1 });
    });
  });

  describe('trial cancel and portal', () => {
    it('when the owner cancels during the trial then it stays ACTIVE with cancelAtPeriodEnd (ending at trialEndsAt); a second cancel changes nothing; the portal is 409 SUBSCRIPTION_NOT_MANAGEABLE', async () => {
      const salon = await registerSalon();
      expect((await call('post', '/subscription/cancel', salon.token)).status).to.equal(204);
      const row = await latestRow(salon.tenantId);
      expect(row).to.include({ status: 'ACTIVE', cancelAtPeriodEnd: true });
      expect(row.canceledAt).to.not.equal(null);
      expect((await call('post', '/subscription/cancel', salon.token)).status).to.equal(204);
      const portal = await call('get', '/subscription/portal', salon.token);
      expect(portal.status).to.equal(409);
      expect(portal.body.error.code).to.equal('SUBSCRIPTION_NOT_MANAGEABLE');
    });

    it('when the subscription already expired then cancel is 409 SUBSCRIPTION_NOT_MANAGEABLE', async () => {
      const salon = await salonWithSubscription({ status: 'EXPIRED', trialEndsAt: new Date(Date.now() - DAY) });
      await (await stack()).platform.knex('tenants').where({ id: salon.tenant.id }).update({ billingExempt: true });
      const res = await call('post', '/subscription/cancel', salon.owner.token);
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('SUBSCRIPTION_NOT_MANAGEABLE');
    });
  });

  describe('checkout', () => {
    afterEach(() => activateSandbox());

    it('when no billing config is active then checkout is 503 BILLING_PROVIDER_NOT_AVAILABLE', async () => {
      const salon = await registerSalon();
      await deactivateAllConfigs();
      const res = await call('post', '/subscription/checkout', salon.token, { planKey: 'start' });
      expect(res.status).to.equal(503);
      expect(res.body.error.code).to.equal('BILLING_PROVIDER_NOT_AVAILABLE');
    });

    it('when the plan is unknown, hidden, or contact-sales then 404 PLAN_NOT_FOUND / 422 PLAN_NOT_SELF_SERVE', async () => {
      await activateSandbox();
      const salon = await registerSalon();
      expect((await call('post', '/subscription/checkout', salon.token, { planKey: 'no_such_plan' })).body.error.code).to.equal('PLAN_NOT_FOUND');
      const res = await call('post', '/subscription/checkout', salon.token, { planKey: 'kjede' });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('PLAN_NOT_SELF_SERVE');
      const hiddenKey = unique('hidden').replace(/-/g, '_');
      await call('post', '/admin/superadmin/plans', (await platformAdmin()).token, {
        planKey: hiddenKey,
        displayName: 'Old',
        displayNameNb: 'Gammel',
        billingCycle: 'monthly',
        flatPriceMinor: 100,
        isPublic: false,
        sandboxVariantId: 'v_old',
      });
      expect((await call('post', '/subscription/checkout', salon.token, { planKey: hiddenKey })).body.error.code).to.equal('PLAN_NOT_FOUND');
    });

    it('when a self-serve plan has no variant for the active provider then 422 PLATFORM_BILLING_VARIANT_MAPPING_MISSING; a config mapping wins over the plan column', async () => {
      const configId = await activateSandbox();
      const admin = (await platformAdmin()).token;
      const planKey = unique('nomap').replace(/-/g, '_');
      await call('post', '/admin/superadmin/plans', admin, { planKey, displayName: 'N', displayNameNb: 'N', billingCycle: 'monthly', flatPriceMinor: 100 });
      const salon = await registerSalon();
      const res = await call('post', '/subscription/checkout', salon.token, { planKey });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('PLATFORM_BILLING_VARIANT_MAPPING_MISSING');
      const current = (await call('get', `/superadmin/billing-configs/${configId}/plan-mappings`, admin)).body.data;
      await call('put', `/superadmin/billing-configs/${configId}/plan-mappings`, admin, {
        mappings: [...current, { planKey, providerVariantId: 'var_mapped' }],
      });
      const ok = await call('post', '/subscription/checkout', salon.token, { planKey });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      const { billingSandbox } = await stack();
      expect(billingSandbox.server.checkouts.get(checkoutIdOf(ok.body.data.checkoutUrl))?.variantId).to.equal('var_mapped');
      await call('put', `/superadmin/billing-configs/${configId}/plan-mappings`, admin, { mappings: current });
    });

    it('when the request names a Host the platform does not know for the salon then checkout sends the owner back to PUBLIC_BASE_URL, never to that host', async () => {
      await activateSandbox();
      const salon = await registerSalon();
      const { billingSandbox, config } = await stack();
      for (const host of ['evil.example', 'evil.example:443', `${(await registerSalon()).slug}.${config.platformDomain}`]) {
        const res = await (
          await http()
        )
          .post('/api/subscription/checkout')
          .set('Authorization', `Bearer ${salon.token}`)
          .set('Host', host)
          .send({ planKey: 'start' });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const checkout = billingSandbox.server.checkouts.get(checkoutIdOf(res.body.data.checkoutUrl))!;
        expect(checkout.successUrl, host).to.equal(`${config.publicBaseUrl}/admin/billing?checkout=success`);
        expect(checkout.cancelUrl, host).to.equal(`${config.publicBaseUrl}/admin/billing?checkout=canceled`);
      }
    });

    it("when the owner checks out during the trial then the remaining trial days go to the provider and the redirect origin is the salon's own host; the webhook creates the paid row through the worker", async () => {
      await activateSandbox();
      const salon = await registerSalon();
      const { billingSandbox, platform } = await stack();
      await platform.knex('tenants').where({ id: salon.tenantId }).update({ customDomain: 'min-salong.example.test' });
      const res = await (
        await http()
      )
        .post('/api/subscription/checkout')
        .set('Authorization', `Bearer ${salon.token}`)
        .set('Host', 'min-salong.example.test:8443')
        .send({ planKey: 'start' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.trialDays).to.equal(14);
      const checkout = billingSandbox.server.checkouts.get(checkoutIdOf(res.body.data.checkoutUrl))!;
      expect(checkout).to.include({ variantId: 'sandbox_start', trialDays: 14, email: salon.email });
      expect(checkout.successUrl).to.match(/^http:\/\/min-salong\.example\.test:8443\//);
      expect(checkout.metadata).to.deep.equal({ tenant_id: salon.tenantId, plan_key: 'start' });

      const page = await fetch(res.body.data.checkoutUrl);
      expect(await page.text()).to.contain('Ingen betaling de neste 14 dagene');
      const { delivery, subscription } = await billingSandbox.server.completeCheckout(checkout.id);
      expect(delivery.status).to.equal(200);
      const paid = await eventually(async () => {
        const row = await latestRow(salon.tenantId);
        return row.providerSubId === subscription.id ? row : undefined;
      }, 'the paid subscription row');
      expect(paid).to.include({ status: 'ACTIVE', provider: 'sandbox', planKey: 'start' });
      const tenant = await platform.knex('tenants').where({ id: salon.tenantId }).first();
      expect(tenant).to.include({ subscriptionStatus: 'ACTIVE', trialEndsAt: null });
      const inbox = await platform.knex('subscription_webhook_inbox').where({ tenantId: salon.tenantId }).first();
      expect(inbox).to.include({ provider: 'sandbox', eventName: 'subscription.created', verified: true });
      expect(inbox.processedAt).to.not.equal(null);

      const view = (await call('get', '/subscription', salon.token)).body.data;
      expect(view).to.include({ providerManaged: true, provider: 'sandbox', isTrialing: true });
      const again = await call('post', '/subscription/checkout', salon.token, { planKey: 'start' });
      expect(again.body.error.code).to.equal('SUBSCRIPTION_ALREADY_ACTIVE');

      const portal = await call('get', '/subscription/portal', salon.token);
      expect(portal.status).to.equal(200);
      expect(portal.body.data.portalUrl).to.equal(`${billingSandbox.server.url}/portal/${subscription.id}`);
      expect(await (await fetch(portal.body.data.portalUrl)).text()).to.contain('Kundeportal');

      // a paid subscription cancels at the provider, at the end of the period
      expect((await call('post', '/subscription/cancel', salon.token)).status).to.equal(204);
      expect(billingSandbox.server.subscriptions.get(subscription.id)).to.include({ cancel_at_period_end: true });
      const canceled = await eventually(async () => {
        const row = await latestRow(salon.tenantId);
        return row.status === 'CANCELED' ? row : undefined;
      }, 'the canceled webhook applied');
      expect(canceled.cancelAtPeriodEnd).to.equal(true);
    });

    it('when the provider is down then checkout is 503 BILLING_PROVIDER_UNAVAILABLE', async () => {
      const { platform } = await stack();
      const configId = await activateSandbox();
      await platform.knex('platform_billing_configs').where({ id: configId }).update({ apiBaseUrl: 'http://127.0.0.1:1' });
      const salon = await registerSalon();
      const res = await call('post', '/subscription/checkout', salon.token, { planKey: 'start' });
      expect(res.status).to.equal(503);
      expect(res.body.error.code).to.equal('BILLING_PROVIDER_UNAVAILABLE');
    });
  });
});
