import { expect } from 'chai';
import { call } from '../../support/http';
import { createSalon, unique } from '../../support/factories';
import { stack } from '../../support/stack';
import { platformAdmin, salonWithSubscription } from '../../support/billing';

const PLANS = '/admin/superadmin/plans';
const FEATURES = '/admin/superadmin/plan-features';

function planBody(fields: Record<string, unknown> = {}) {
  return {
    planKey: unique('plan').replace(/-/g, '_'),
    displayName: 'Basic',
    displayNameNb: 'Basis',
    billingCycle: 'monthly',
    flatPriceMinor: 19900,
    ...fields,
  };
}

async function createPlan(fields: Record<string, unknown> = {}) {
  const res = await call('post', PLANS, (await platformAdmin()).token, planBody(fields));
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data;
}

async function createFeature(fields: Record<string, unknown> = {}) {
  const res = await call('post', FEATURES, (await platformAdmin()).token, {
    featureKey: unique('f').replace(/-/g, '_'),
    displayName: 'Feature',
    displayNameNb: 'Funksjon',
    category: 'bookings',
    ...fields,
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data;
}

describe('plans and plan features', () => {
  describe('the seeded catalogue', () => {
    it('when the platform starts then GET /public/plans lists the NOK catalogue with Norwegian texts, features and roadmap flags, hidden and internal fields left out', async () => {
      const res = await call('get', '/public/plans');
      expect(res.status).to.equal(200);
      const byKey = new Map(res.body.data.map((p: { planKey: string }) => [p.planKey, p]));
      for (const key of ['start', 'salong', 'salong_yearly', 'team', 'kjede']) expect(byKey.has(key), key).to.equal(true);
      const salong = byKey.get('salong') as Record<string, unknown> & {
        features: { featureKey: string; value: unknown; isRoadmap: boolean; category: string }[];
      };
      expect(salong).to.include({ displayNameNb: 'Salong', currency: 'NOK', flatPriceMinor: 59900, isFeatured: true, selfServeCheckout: true });
      expect(salong).to.not.have.property('sandboxVariantId');
      expect(salong.features.find((f) => f.featureKey === 'staff_limit')).to.include({ value: 5, category: 'bookings' });
      expect(salong.features.find((f) => f.featureKey === 'reports')).to.include({ value: 'Utvidet' });
      expect(salong.features.find((f) => f.featureKey === 'accounting_export')).to.include({ value: true, isRoadmap: true });
      expect(byKey.get('kjede')).to.include({ selfServeCheckout: false, flatPriceMinor: null, pricePerSeatMinor: null });
      expect(byKey.get('team')).to.include({ pricePerSeatMinor: 19900, flatPriceMinor: null, trialDays: 30 });
    });
  });

  describe('super-admin plans', () => {
    it('when a non-admin calls the super-admin routes then 401 without a token and 403 for an owner', async () => {
      const { owner } = await createSalon();
      expect((await call('get', PLANS)).status).to.equal(401);
      expect((await call('get', PLANS, owner.token)).status).to.equal(403);
      expect((await call('post', PLANS, owner.token, planBody())).status).to.equal(403);
      expect((await call('get', FEATURES, owner.token)).status).to.equal(403);
    });

    it('when a plan is created with feature values by valueType then they are stored and shown back; a false boolean is no row', async () => {
      const flag = await createFeature({ valueType: 'boolean' });
      const off = await createFeature({ valueType: 'boolean' });
      const count = await createFeature({ valueType: 'number', category: 'customers' });
      const text = await createFeature({ valueType: 'string', category: 'support', isRoadmap: true });
      const plan = await createPlan({
        features: [
          { featureKey: flag.featureKey, value: true },
          { featureKey: off.featureKey, value: false },
          { featureKey: count.featureKey, value: 250 },
          { featureKey: text.featureKey, value: 'E-post' },
        ],
        trialDays: 21,
        sandboxVariantId: 'var_1',
      });
      expect(plan).to.include({ trialDays: 21, sandboxVariantId: 'var_1', currency: 'NOK', selfServeCheckout: true, isPublic: true, sortOrder: 0 });
      const values = Object.fromEntries(plan.features.map((f: { featureKey: string; value: unknown }) => [f.featureKey, f.value]));
      expect(values).to.deep.equal({ [flag.featureKey]: true, [count.featureKey]: 250, [text.featureKey]: 'E-post' });
      const rows = await (await stack()).platform.knex('plan_feature_on_plan').where({ planId: plan.id });
      expect(rows).to.have.length(3);
    });

    it('when a feature value does not match its valueType, or the feature is unknown, then 400 VALIDATION_ERROR names it', async () => {
      const count = await createFeature({ valueType: 'number' });
      const admin = (await platformAdmin()).token;
      const wrongType = await call('post', PLANS, admin, planBody({ features: [{ featureKey: count.featureKey, value: 'many' }] }));
      expect(wrongType.status).to.equal(400);
      expect(wrongType.body.error.details[0]).to.deep.equal({ field: 'features.0.value', message: 'must be a number' });
      const unknown = await call('post', PLANS, admin, planBody({ features: [{ featureKey: 'no_such_feature' }] }));
      expect(unknown.status).to.equal(400);
      expect(unknown.body.error.details[0].field).to.equal('features.0.featureKey');
    });

    it('when planKey is not lowercase snake_case, or a Norwegian or English name is missing, then 400', async () => {
      const admin = (await platformAdmin()).token;
      for (const planKey of ['Pro', 'pro-plan', '_pro', 'pro__x', '1pro']) {
        expect((await call('post', PLANS, admin, planBody({ planKey }))).status, planKey).to.equal(400);
      }
      const noNb = planBody();
      delete (noNb as Record<string, unknown>).displayNameNb;
      expect((await call('post', PLANS, admin, noNb)).body.error.code).to.equal('VALIDATION_ERROR');
      const noEn = planBody();
      delete (noEn as Record<string, unknown>).displayName;
      expect((await call('post', PLANS, admin, noEn)).status).to.equal(400);
    });

    it('when planKey is taken then 409 PLAN_KEY_EXISTS', async () => {
      const plan = await createPlan();
      const res = await call('post', PLANS, (await platformAdmin()).token, planBody({ planKey: plan.planKey }));
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('PLAN_KEY_EXISTS');
    });

    it('when both a flat and a per-seat price are given, or a self-serve plan has no price, then 400; a contact-sales tier needs none', async () => {
      const admin = (await platformAdmin()).token;
      const both = await call('post', PLANS, admin, planBody({ pricePerSeatMinor: 9900 }));
      expect(both.status).to.equal(400);
      expect(both.body.error.details[0].field).to.equal('pricePerSeatMinor');
      const none = await call('post', PLANS, admin, planBody({ flatPriceMinor: null }));
      expect(none.status).to.equal(400);
      expect(none.body.error.details[0].field).to.equal('flatPriceMinor');
      const sales = await createPlan({ flatPriceMinor: null, selfServeCheckout: false });
      expect(sales).to.include({ selfServeCheckout: false, flatPriceMinor: null });
      const perSeat = await createPlan({ flatPriceMinor: null, pricePerSeatMinor: 14900 });
      const patched = await call('patch', `${PLANS}/${perSeat.id}`, admin, { flatPriceMinor: 100 });
      expect(patched.status).to.equal(400);
    });

    it('when a second plan of a billing cycle is featured then 409 PLAN_FEATURED_EXISTS; the other cycle is fine after unfeaturing', async () => {
      const admin = (await platformAdmin()).token;
      // the seed features `salong` (monthly) and `salong_yearly`
      const res = await call('post', PLANS, admin, planBody({ isFeatured: true }));
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('PLAN_FEATURED_EXISTS');
      const plan = await createPlan({ billingCycle: 'yearly' });
      expect((await call('patch', `${PLANS}/${plan.id}`, admin, { isFeatured: true })).body.error.code).to.equal('PLAN_FEATURED_EXISTS');
    });

    it('when a plan is hidden then it leaves /public/plans, stays in the admin list, and /me/plans still shows it to its subscribers only', async () => {
      const admin = (await platformAdmin()).token;
      const plan = await createPlan();
      expect((await call('patch', `${PLANS}/${plan.id}`, admin, { isPublic: false })).body.data.isPublic).to.equal(false);
      const publicKeys = (await call('get', '/public/plans')).body.data.map((p: { planKey: string }) => p.planKey);
      expect(publicKeys).to.not.include(plan.planKey);
      const adminKeys = (await call('get', PLANS, admin)).body.data.map((p: { planKey: string }) => p.planKey);
      expect(adminKeys).to.include(plan.planKey);
      const subscriber = await salonWithSubscription({ planKey: plan.planKey, provider: 'sandbox', providerSubId: unique('sub') });
      const other = await createSalon();
      const mine = (await call('get', '/me/plans', subscriber.owner.token)).body.data.map((p: { planKey: string }) => p.planKey);
      expect(mine).to.include(plan.planKey).and.include('salong');
      const theirs = (await call('get', '/me/plans', other.owner.token)).body.data.map((p: { planKey: string }) => p.planKey);
      expect(theirs).to.not.include(plan.planKey);
    });

    it('when a plan with subscribers is deleted then 409 PLAN_HAS_SUBSCRIBERS with the tenant count and the isPublic hint; without subscribers it is deleted', async () => {
      const admin = (await platformAdmin()).token;
      const plan = await createPlan();
      await salonWithSubscription({ planKey: plan.planKey, status: 'EXPIRED' });
      await salonWithSubscription({ planKey: plan.planKey });
      const res = await call('delete', `${PLANS}/${plan.id}`, admin);
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('PLAN_HAS_SUBSCRIBERS');
      expect(res.body.error.details).to.deep.include({ field: 'tenantCount', message: '2' });
      expect(res.body.error.details.map((d: { field: string }) => d.field)).to.include('isPublic');
      const free = await createPlan();
      expect((await call('delete', `${PLANS}/${free.id}`, admin)).status).to.equal(204);
      expect((await call('delete', `${PLANS}/${free.id}`, admin)).body.error.code).to.equal('PLAN_NOT_FOUND');
    });

    it('when a feature key is taken then 409 PLAN_FEATURE_KEY_EXISTS; the catalogue lists features with category and roadmap flag', async () => {
      const feature = await createFeature({ category: 'marketing', isRoadmap: true, valueType: 'string', iconKey: 'star' });
      const again = await call('post', FEATURES, (await platformAdmin()).token, {
        featureKey: feature.featureKey,
        displayName: 'x',
        displayNameNb: 'y',
        category: 'bookings',
      });
      expect(again.body.error.code).to.equal('PLAN_FEATURE_KEY_EXISTS');
      const list = await call('get', FEATURES, (await platformAdmin()).token);
      expect(list.body.data.find((f: { featureKey: string }) => f.featureKey === feature.featureKey)).to.include({
        category: 'marketing',
        isRoadmap: true,
        valueType: 'string',
        iconKey: 'star',
      });
    });
  });
});
