// A salon's whole billing life on the time-skipping test server, the real database, the real app and
// the sandbox provider: trial, checkout, renewal, payment failure, cancel, expiry, a new subscription
// without a second trial; the trial timer; and the 6-hourly reconcile loop. Each test runs its own
// worker on its own task queue, and the app it talks to signals that queue.
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Express } from 'express';
import { stack } from '../support/stack';
import { unique, uniquePhone } from '../support/factories';
import { activateSandbox, checkoutIdOf } from '../support/billing';
import { at, ALL_WEEK, addService, addStaff } from '../support/booking-fixtures';
import { addDays, utcToLocalDate } from '../../domain/time/salon-time.rules';
import { createApp } from '../../api/app';
import { createActivities } from '../../activities';
import { createBillingProviders } from '../../integrations/billing/providers';
import { subscriptionReconcileWorkflow } from '../../workflows/billing/subscription.workflow';
import { RECONCILE_WORKFLOW_ID, subscriptionContract } from '../../domain/billing/subscription-events.rules';
import { createSubscriptionActivities } from '../../activities/billing.activities';
import { eventually } from '../support/eventually';
import { platformWorker, testServerSignaller, withTimeSkipping } from './support/time-skipping';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('subscription workflow (time skipping, real database, sandbox provider)', function () {
  this.timeout(180_000);
  const t = withTimeSkipping();
  /** time skipped inside the current scenario (skip() keeps the app's clock in step) */
  let skipped = 0;

  async function skip(ms: number): Promise<void> {
    await t.env.sleep(ms);
    skipped += ms;
  }

  before(async () => {
    await activateSandbox();
  });

  interface World {
    app: Express;
    taskQueue: string;
    api: (method: 'get' | 'post' | 'patch', path: string, token?: string, body?: unknown) => Promise<request.Response>;
    /** the app's clock (every domain service reads it) */
    now: () => Date;
  }

  /** A worker and an app (listening, so the sandbox can post its webhooks to it) on a task queue of their own. */
  async function withWorld(scenario: (w: World) => Promise<void>): Promise<void> {
    const { platform, billingSandbox } = await stack();
    const taskQueue = unique('subscription-wf');
    skipped = 0;
    const signaller = testServerSignaller(t.env, taskQueue);
    // the app reads the test server's clock (which skips days), so trials start and end on workflow time
    const offset = (await t.env.currentTimeMs()) - Date.now();
    const now = () => new Date(Date.now() + offset + skipped);
    const app = createApp({ ...platform.deps, signaller, now }, { validateResponses: true });
    const server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const previousWebhookUrl = billingSandbox.server.webhookUrl;
    billingSandbox.server.webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/subscription/sandbox`;
    const worker = await platformWorker(t, {
      taskQueue,
      activities: createActivities({
        knex: platform.knex,
        mailer: platform.mailer,
        sms: (await stack()).sms,
        credentialKeys: platform.deps.config.credentialKeys,
        billingProviders: createBillingProviders(),
      }),
    });
    const api: World['api'] = (method, path, token, body) => {
      let req = request(app)[method](`/api${path}`);
      if (token) req = req.set('Authorization', `Bearer ${token}`);
      return body === undefined ? req : req.send(body as object);
    };
    try {
      await worker.runUntil(scenario({ app, taskQueue, api, now }));
    } finally {
      billingSandbox.server.webhookUrl = previousWebhookUrl;
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  }

  async function register(w: World) {
    const slug = unique('livslop');
    const res = await w.api('post', '/auth/register', undefined, {
      salonName: `Salong ${slug}`,
      slug,
      email: `${slug}@example.test`,
      password: 'secret-password',
      settings: { businessHours: ALL_WEEK },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const tenantId = res.body.data.user.tenantId as string;
    const service = await addService(tenantId);
    await addStaff(tenantId, [service.id]);
    // a salon takes bookings online once it has launched (docs/rules/salon.md#launch)
    const launched = await w.api('post', '/tenants/me/onboarding/complete', res.body.data.accessToken);
    expect(launched.status, JSON.stringify(launched.body)).to.equal(200);
    // days pass between the owner's calls, and a session lasts 12 hours (docs/rules/auth.md#sessions): the owner signs in when they act
    const email = `${slug}@example.test`;
    const signIn = async () => {
      const login = await w.api('post', '/auth/login', undefined, { email, password: 'secret-password' });
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      return login.body.data.accessToken as string;
    };
    return { tenantId, slug, signIn, serviceId: service.id };
  }

  async function latest(tenantId: string) {
    const { platform } = await stack();
    return platform.knex('subscriptions').where({ tenantId }).orderBy('createdAt', 'desc').first();
  }

  async function tenantStatus(tenantId: string) {
    const { platform } = await stack();
    return (await platform.knex('tenants').where({ id: tenantId }).first('subscriptionStatus')).subscriptionStatus as string;
  }

  async function waitFor(tenantId: string, check: (row: Record<string, unknown>) => boolean, what: string) {
    return eventually(async () => {
      const row = await latest(tenantId);
      return row && check(row) ? row : undefined;
    }, what);
  }

  function subscriptionHandle(tenantId: string) {
    return t.env.client.workflow.getHandle(subscriptionContract.workflowId(tenantId));
  }

  /** The timers of the salon's subscription workflow, as its history records them. */
  async function trialTimers(tenantId: string): Promise<{ started: number; fired: number }> {
    const { events } = await subscriptionHandle(tenantId).fetchHistory();
    return { started: events!.filter((e) => e.timerStartedEventAttributes).length, fired: events!.filter((e) => e.timerFiredEventAttributes).length };
  }

  function canWrite(w: World, token: string) {
    return w.api('post', '/services', token, { name: unique('svc'), duration: 30, price: 10000 }).then((r) => r.status);
  }

  function publicBooking(w: World, salon: { slug: string; serviceId: string }) {
    return w
      .api('post', `/public/tenants/${salon.slug}/bookings`, undefined, {
        startTime: at(addDays(utcToLocalDate(w.now(), 'Europe/Oslo'), 3), '11:00'),
        items: [{ serviceId: salon.serviceId }],
        customer: { name: 'Kari', phone: uniquePhone() },
      })
      .then((r) => r.status);
  }

  it('when a salon lives its whole billing life then trial, checkout, renewal, payment failure, cancel, expiry and a new subscription without a second trial all land, and the gate follows', () =>
    withWorld(async (w) => {
      const { billingSandbox } = await stack();
      const sandbox = billingSandbox.server;
      const salon = await register(w);
      const trial = await latest(salon.tenantId);
      expect(trial).to.include({ status: 'ACTIVE', providerSubId: null });

      // five days into the trial the owner checks out: nine days of trial go to the provider
      await skip(5 * DAY);
      const checkout = await w.api('post', '/subscription/checkout', await salon.signIn(), { planKey: 'start' });
      expect(checkout.status, JSON.stringify(checkout.body)).to.equal(200);
      expect(checkout.body.data.trialDays).to.equal(9);
      const { subscription, delivery } = await sandbox.completeCheckout(checkoutIdOf(checkout.body.data.checkoutUrl));
      expect(delivery.status).to.equal(200);
      await waitFor(salon.tenantId, (r) => r.providerSubId === subscription.id, 'the paid subscription');

      // the trial's end passes: the paid subscription arrived first, nothing expires. Barrier: the
      // salon's workflow has ended (no trial clock runs any more; result() would skip to a timer)
      await subscriptionHandle(salon.tenantId).result();
      await skip(10 * DAY);
      expect((await latest(salon.tenantId)).status).to.equal('ACTIVE');
      expect(await tenantStatus(salon.tenantId)).to.equal('ACTIVE');
      expect(await canWrite(w, await salon.signIn())).to.equal(201);

      // renewal, then a failed payment: PAST_DUE stays open
      const firstPeriodEnd = Date.parse(subscription.current_period_end);
      await sandbox.act(subscription.id, 'renew');
      await waitFor(salon.tenantId, (r) => r.status === 'ACTIVE' && new Date(r.currentPeriodEnd as string).getTime() > firstPeriodEnd, 'the renewal');
      await skip(30 * DAY);
      await sandbox.act(subscription.id, 'fail-payment');
      await waitFor(salon.tenantId, (r) => r.status === 'PAST_DUE', 'PAST_DUE');
      expect(await canWrite(w, await salon.signIn())).to.equal(201);
      expect(await publicBooking(w, salon)).to.equal(201);

      // the owner cancels: at the provider, at period end; CANCELED stays open
      expect((await w.api('post', '/subscription/cancel', await salon.signIn())).status).to.equal(204);
      await waitFor(salon.tenantId, (r) => r.status === 'CANCELED' && r.cancelAtPeriodEnd === true, 'CANCELED');
      expect(await canWrite(w, await salon.signIn())).to.equal(201);

      // the period ends: EXPIRED closes the salon
      await skip(30 * DAY);
      await sandbox.act(subscription.id, 'expire');
      await waitFor(salon.tenantId, (r) => r.status === 'EXPIRED', 'EXPIRED');
      expect(await tenantStatus(salon.tenantId)).to.equal('EXPIRED');
      expect(await canWrite(w, await salon.signIn())).to.equal(402);
      expect(await publicBooking(w, salon)).to.equal(409);

      // a new subscription: no second trial, a new row that wins, the salon opens again
      const again = await w.api('post', '/subscription/checkout', await salon.signIn(), { planKey: 'salong' });
      expect(again.status).to.equal(200);
      expect(again.body.data.trialDays).to.equal(0);
      const second = await sandbox.completeCheckout(checkoutIdOf(again.body.data.checkoutUrl));
      expect(second.subscription.trial_end).to.equal(null);
      await waitFor(salon.tenantId, (r) => r.providerSubId === second.subscription.id && r.status === 'ACTIVE', 'the new subscription');
      const { platform } = await stack();
      const all = await platform.knex('subscriptions').where({ tenantId: salon.tenantId }).orderBy('createdAt');
      expect(all.map((r: { status: string; planKey: string }) => [r.status, r.planKey])).to.deep.equal([
        ['ACTIVE', 'salong'],
        ['EXPIRED', 'start'],
        ['ACTIVE', 'salong'],
      ]);
      expect(await tenantStatus(salon.tenantId)).to.equal('ACTIVE');
      expect(await canWrite(w, await salon.signIn())).to.equal(201);
    }));

  it('when nobody pays then the trial expires at trialEndsAt by its durable timer, and not a minute before', () =>
    withWorld(async (w) => {
      const salon = await register(w);
      // Barrier before skipping: the workflow has read the new trial and started its timer (days are
      // skipped only over a workflow that waits on it; once, on the Java test server under load, the
      // history had no timer yet after the skip: docs/temporal-engines.md#findings-of-the-move-to-one-engine).
      let seen = { started: 0, fired: 0 };
      await eventually(
        async () => (seen = await trialTimers(salon.tenantId)).started === 1,
        () => `the trial timer started (history has ${JSON.stringify(seen)})`,
        60_000,
      );
      await skip(14 * DAY - 5 * MINUTE);
      // Barrier: the test server fires every timer due by now before skip() returns, and writes it
      // to the history; the trial's timer is there, started and not fired, so nothing expired yet.
      expect(await trialTimers(salon.tenantId)).to.deep.equal({ started: 1, fired: 0 });
      expect(await tenantStatus(salon.tenantId)).to.equal('ACTIVE');
      await skip(10 * MINUTE);
      const expired = await waitFor(salon.tenantId, (r) => r.status === 'EXPIRED', 'the trial expiry');
      expect(expired.providerSubId).to.equal(null);
      expect(await tenantStatus(salon.tenantId)).to.equal('EXPIRED');
      expect(await canWrite(w, await salon.signIn())).to.equal(402);
      expect((await w.api('get', '/subscription', await salon.signIn())).body.data).to.include({ status: 'EXPIRED', isTrialing: false, writesBlocked: true });
      // no second trial: checkout after expiry passes no trial days
      expect((await w.api('post', '/subscription/checkout', await salon.signIn(), { planKey: 'start' })).body.data.trialDays).to.equal(0);
    }));

  it('when the owner cancels during the trial then it stays open until trialEndsAt and expires then', () =>
    withWorld(async (w) => {
      const salon = await register(w);
      expect((await w.api('post', '/subscription/cancel', await salon.signIn())).status).to.equal(204);
      await skip(DAY);
      expect(await canWrite(w, await salon.signIn())).to.equal(201);
      await skip(13 * DAY + MINUTE);
      await waitFor(salon.tenantId, (r) => r.status === 'EXPIRED', 'the cancelled trial expiring');
      expect(await canWrite(w, await salon.signIn())).to.equal(402);
    }));

  describe('reconcile', () => {
    it('when 6 hours pass then linked subscriptions are compared with the provider and drift goes through the webhook handler; the loop goes on with continueAsNew', () =>
      withWorld(async (w) => {
        const { billingSandbox, platform } = await stack();
        const sandbox = billingSandbox.server;
        const salon = await register(w);
        const checkout = await w.api('post', '/subscription/checkout', await salon.signIn(), { planKey: 'start' });
        // the provider's webhook is lost: nothing arrives here
        sandbox.webhookUrl = undefined;
        const { subscription } = await sandbox.completeCheckout(checkoutIdOf(checkout.body.data.checkoutUrl));
        sandbox.subscriptions.get(subscription.id)!.status = 'past_due';
        // what we know: the row as it was when the subscription started
        await platform
          .knex('subscriptions')
          .insert({ tenantId: salon.tenantId, planKey: 'start', status: 'ACTIVE', provider: 'sandbox', providerSubId: subscription.id });
        await platform.knex('tenants').where({ id: salon.tenantId }).update({ subscriptionStatus: 'ACTIVE', trialEndsAt: null });

        const handle = await t.env.client.workflow.start(subscriptionReconcileWorkflow, {
          workflowId: `${RECONCILE_WORKFLOW_ID}-${unique()}`,
          taskQueue: w.taskQueue,
          args: [{}],
        });
        await skip(5 * HOUR);
        expect((await latest(salon.tenantId)).status).to.equal('ACTIVE');
        await skip(HOUR + MINUTE);
        await waitFor(salon.tenantId, (r) => r.status === 'PAST_DUE', 'the drift applied');
        expect(await tenantStatus(salon.tenantId)).to.equal('PAST_DUE');
        const inbox = await platform.knex('subscription_webhook_inbox').where({ tenantId: salon.tenantId }).whereLike('providerEventId', 'reconcile:%');
        expect(inbox.map((r: { eventName: string }) => r.eventName)).to.deep.equal(['reconcile.payment_failed']);
        // next cycle: the provider expired it
        sandbox.subscriptions.get(subscription.id)!.status = 'expired';
        await skip(6 * HOUR + MINUTE);
        await waitFor(salon.tenantId, (r) => r.status === 'EXPIRED', 'the second cycle');
        const described = await handle.describe();
        expect(described.runId).to.not.equal(handle.firstExecutionRunId);
        await handle.terminate('test over');
      }));

    it('when more than 100 linked subscriptions exist then they are read in batches of 100 after the last id', async () => {
      const { platform } = await stack();
      const salonIds: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const [t] = await platform
          .knex('tenants')
          .insert({ name: 'Batch', slug: unique('batch'), settings: {}, branding: {} })
          .returning('id');
        salonIds.push(t.id);
      }
      await platform.knex('subscriptions').insert(
        Array.from({ length: 150 }, (_, i) => ({
          tenantId: salonIds[i % 3],
          planKey: 'start',
          status: 'ACTIVE',
          provider: 'nobody',
          providerSubId: unique('batch'),
        })),
      );
      const activities = createSubscriptionActivities({ knex: platform.knex });
      const linked = () => platform.knex('subscriptions').whereNotNull('providerSubId').whereNot('status', 'EXPIRED');
      const total = Number(((await linked().count({ n: '*' }).first()) as { n: number }).n);
      const sizes: number[] = [];
      let afterId: string | null = null;
      for (;;) {
        const batch = await activities.reconcileBatch({ afterId, limit: 100, asOf: new Date().toISOString() });
        if (batch.lastId === null) break;
        const q = linked().where('id', '<=', batch.lastId);
        if (afterId) q.where('id', '>', afterId);
        sizes.push(Number(((await q.count({ n: '*' }).first()) as { n: number }).n));
        afterId = batch.lastId;
      }
      expect(total).to.be.at.least(150);
      expect(sizes.slice(0, -1).every((n) => n === 100)).to.equal(true);
      expect(sizes.at(-1)).to.be.within(1, 100);
      expect(sizes.reduce((a, b) => a + b, 0)).to.equal(total);
      await platform.knex('subscriptions').whereIn('tenantId', salonIds).delete();
    });
  });
});
