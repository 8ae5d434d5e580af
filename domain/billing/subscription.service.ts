// The tenant's side of platform billing (docs/rules/billing.md): the trial at owner registration,
// the status view, checkout and the customer portal at the active provider, cancel, the webhook
// inbox, billing-exempt grants and the subscription gate. Every change bumps the tenant's
// subscription version and signals `subscription:<tenantId>` before it commits.
import type { Db } from '../../db/db-handle';
import { nowOf, type Clock } from '../time/clock';
import { bumpSubscriptionVersion, setBillingExempt as setTenantBillingExempt, tenantBilling } from '../tenant/tenant.repository';
import { tenantIdByHost } from '../tenant/tenant-context';
import { AppError, errors } from '../errors';
import type { CredentialKeyring } from '../crypto/credential-cipher';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { changeEntity } from '../workflow-signals/entity-change';
import { toIso, toIsoOrNull } from '../time/iso';
import * as repo from './subscription.repository';
import * as configs from './billing-config.repository';
import { findUserById } from '../users/user.repository';
import { findPlanByKey, listPlans, planKeyByVariantColumn, type PlanRow } from './plan.repository';
import { activeConnection, billingErrors, connectionOf, variantFor } from './billing-config.service';
import { syncReadModel } from './subscription-apply.service';
import {
  isBillingProviderId,
  VARIANT_COLUMN,
  WebhookPayloadError,
  WebhookSignatureError,
  type BillingProviderId,
  type BillingProviders,
  type ProviderConnection,
  type VerifiedWebhook,
} from './billing-provider';
import { isPureTrial, isStaleEvent, isSubscriptionLapsed, remainingTrialDays, SIGNED_EVENT_MAX_AGE_MINUTES, trialEndsAtFrom } from './subscription.rules';
import { trialDaysOf } from './plan.rules';
import { subscriptionContract, type SubscriptionEventType } from './subscription-events.rules';

export interface BillingDeps {
  knex: Db;
  signaller: EntitySignaller;
  credentialKeys: CredentialKeyring;
  billingProviders: BillingProviders;
  now?: Clock;
  /** where checkout may send the owner back (docs/rules/billing.md#checkout-portal-and-cancel) */
  origins: CheckoutOrigins;
}

/** PUBLIC_BASE_URL, PLATFORM_DOMAIN, and whether salon hosts are reached over https (production). */
export interface CheckoutOrigins {
  publicBaseUrl: string;
  platformDomain: string;
  https: boolean;
}

/**
 * Where checkout sends the owner back (docs/rules/billing.md#checkout-portal-and-cancel): the host the request came to
 * when it is the salon's own (`<slug>.<PLATFORM_DOMAIN>` or its custom domain), else PUBLIC_BASE_URL.
 * A Host header the platform does not know for this salon never becomes a redirect target.
 */
export async function checkoutReturnOrigin(db: Db, origins: CheckoutOrigins, tenantId: string, request: { host?: string; secure: boolean }): Promise<string> {
  const host = (request.host ?? '').trim().toLowerCase();
  const hostname = host.replace(/:\d+$/, '');
  const suffix = `.${origins.platformDomain.toLowerCase()}`;
  if (hostname && /^[a-z0-9.-]+$/.test(hostname)) {
    const salon = await tenantIdByHost(db, hostname.endsWith(suffix) ? { slug: hostname.slice(0, -suffix.length) } : { customDomain: hostname });
    if (salon === tenantId) return `${origins.https || request.secure ? 'https' : 'http'}://${host}`;
  }
  return origins.publicBaseUrl.replace(/\/$/, '');
}

/** A provider that fails or does not answer is a dependency down: 503, nothing changed here. */
async function atProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw errors.unavailable('BILLING_PROVIDER_UNAVAILABLE', 'The billing provider did not answer; try again shortly');
  }
}

const subscriptionNotFound = () => errors.notFound('subscription', 'This salon has no subscription');
const notManageable = (why: string) => errors.conflict('SUBSCRIPTION_NOT_MANAGEABLE', why);

/**
 * The change primitive for the tenant's subscription: its version + 1, then the signal to its
 * workflow; call inside the change's transaction, after the change's own rows (the subscription
 * row, the inbox row) are written.
 */
async function announce(trx: Db, signaller: EntitySignaller, tenantId: string, type: SubscriptionEventType): Promise<void> {
  await changeEntity(signaller, subscriptionContract, {
    write: async () => ({ id: tenantId, tenantId, version: await bumpSubscriptionVersion(trx, tenantId) }),
    event: type,
  });
}

/** The plan a new salon's trial runs on: the featured monthly plan, else the first self-serve one. */
function trialPlan(plans: PlanRow[]): PlanRow | undefined {
  const open = plans.filter((p) => p.isPublic && p.selfServeCheckout);
  return open.find((p) => p.isFeatured && p.billingCycle === 'monthly') ?? open[0] ?? plans[0];
}

/**
 * Owner registration starts the platform trial (14 days unless the plan says otherwise),
 * inside the registration's transaction. A tenant that ever had a subscription gets no second trial.
 */
export async function startTrial(trx: Db, signaller: EntitySignaller, tenantId: string, now: Date): Promise<void> {
  if (await repo.hadAnySubscription(trx, tenantId)) return;
  const plan = trialPlan(await listPlans(trx));
  await repo.insertSubscription(trx, {
    tenantId,
    planKey: plan?.planKey ?? 'trial',
    status: 'ACTIVE',
    provider: null,
    providerSubId: null,
    trialEndsAt: trialEndsAtFrom(now.getTime(), trialDaysOf(plan)),
  });
  await syncReadModel(trx, tenantId);
  await announce(trx, signaller, tenantId, 'TrialStarted');
}

/** GET /subscription. */
export async function subscriptionView(db: Db, tenantId: string, now: Date) {
  const tenant = await tenantBilling(db, tenantId);
  if (!tenant) throw errors.notFound('tenant');
  const latest = await repo.latestSubscription(db, tenantId);
  const trialEnd = latest?.trialEndsAt ? new Date(latest.trialEndsAt) : null;
  return {
    status: latest?.status ?? null,
    planKey: latest?.planKey ?? null,
    isTrialing: !!latest && latest.status === 'ACTIVE' && !!trialEnd && trialEnd.getTime() > now.getTime(),
    trialEndsAt: toIsoOrNull(trialEnd),
    billingExempt: tenant.billingExempt,
    provider: latest?.provider ?? null,
    providerManaged: !!latest?.providerSubId,
    cancelAtPeriodEnd: latest?.cancelAtPeriodEnd ?? false,
    canceledAt: toIsoOrNull(latest?.canceledAt),
    currentPeriodEnd: toIsoOrNull(latest?.currentPeriodEnd),
    startedAt: latest ? toIso(latest.createdAt) : null,
    writesBlocked: isSubscriptionLapsed(tenant, now.getTime()),
  };
}

/** The config to talk to about an existing subscription of `provider`: the active one first. */
async function connectionForProvider(db: Db, keyring: CredentialKeyring, provider: string): Promise<ProviderConnection> {
  const rows = (await configs.listConfigs(db)).filter((r) => r.provider === provider).sort((a, b) => Number(b.isActive) - Number(a.isActive));
  if (!rows.length) throw billingErrors.notAvailable();
  return connectionOf(keyring, rows[0]);
}

/**
 * POST /subscription/checkout: a checkout at the active provider for a self-serve plan. The rest of
 * the platform trial is passed on, so nothing is charged during it; after a trial there is none.
 */
export async function checkout(
  deps: BillingDeps,
  tenantId: string,
  userId: string,
  planKey: string,
  request: { host?: string; secure: boolean },
): Promise<{ checkoutUrl: string; trialDays: number }> {
  const email = (await findUserById(deps.knex, userId))?.email ?? null;
  const plan = await findPlanByKey(deps.knex, planKey);
  const latest = await repo.latestSubscription(deps.knex, tenantId);
  if (!plan || (!plan.isPublic && latest?.planKey !== planKey)) throw errors.notFound('plan', `No plan ${planKey}`);
  if (!plan.selfServeCheckout) throw errors.unprocessable('PLAN_NOT_SELF_SERVE', 'This plan is sold through our sales team; contact us to subscribe');
  if (latest && latest.providerSubId && (latest.status === 'ACTIVE' || latest.status === 'PAST_DUE') && !latest.cancelAtPeriodEnd) {
    throw errors.conflict('SUBSCRIPTION_ALREADY_ACTIVE', 'This salon already has a paid subscription; change it in the customer portal');
  }
  const { row, connection } = await activeConnection(deps.knex, deps.credentialKeys);
  const variantId = await variantFor(
    deps.knex,
    row,
    plan as unknown as { planKey: string } & Record<string, unknown>,
    VARIANT_COLUMN[row.provider as BillingProviderId],
  );
  const trialDays = latest && isPureTrial(latest) && latest.status === 'ACTIVE' ? remainingTrialDays(latest.trialEndsAt, nowOf(deps).getTime()) : 0;
  const base = await checkoutReturnOrigin(deps.knex, deps.origins, tenantId, request);
  const { checkoutUrl } = await atProvider(() =>
    deps.billingProviders.get(row.provider as BillingProviderId).createCheckout(connection, {
      variantId,
      tenantId,
      planKey,
      trialDays,
      email,
      successUrl: `${base}/admin/billing?checkout=success`,
      cancelUrl: `${base}/admin/billing?checkout=canceled`,
    }),
  );
  return { checkoutUrl, trialDays };
}

/** GET /subscription/portal: the provider's customer portal for the paid subscription. */
export async function portal(deps: BillingDeps, tenantId: string): Promise<{ portalUrl: string }> {
  const latest = await repo.latestSubscription(deps.knex, tenantId);
  if (!latest) throw subscriptionNotFound();
  if (!latest.providerSubId || !latest.provider) throw notManageable('A trial has no billing account yet; choose a plan first');
  const connection = await connectionForProvider(deps.knex, deps.credentialKeys, latest.provider);
  const portalUrl = await atProvider(() =>
    deps.billingProviders
      .get(latest.provider as BillingProviderId)
      .portalUrl(connection, { providerSubId: latest.providerSubId!, providerCustomerId: latest.providerCustomerId }),
  );
  return { portalUrl };
}

/**
 * POST /subscription/cancel: a trial cancels locally (stays ACTIVE with cancelAtPeriodEnd and ends at
 * trialEndsAt); a paid subscription is cancelled at the provider at the end of the period.
 */
export async function cancel(deps: BillingDeps, tenantId: string): Promise<void> {
  const latest = await repo.latestSubscription(deps.knex, tenantId);
  if (!latest) throw subscriptionNotFound();
  if (latest.status === 'EXPIRED') throw notManageable('This subscription has ended');
  if (latest.cancelAtPeriodEnd) return;
  if (!isPureTrial(latest)) {
    const connection = await connectionForProvider(deps.knex, deps.credentialKeys, latest.provider!);
    await atProvider(() => deps.billingProviders.get(latest.provider as BillingProviderId).cancelAtPeriodEnd(connection, latest.providerSubId!));
  }
  await deps.knex.transaction(async (trx) => {
    await tenantBilling(trx, tenantId, true);
    await repo.updateSubscription(trx, latest.id, { cancelAtPeriodEnd: true, canceledAt: nowOf(deps) });
    await announce(trx, deps.signaller, tenantId, isPureTrial(latest) ? 'TrialCancelRequested' : 'CancelRequested');
  });
}

export type WebhookOutcome = { received: true; duplicate: boolean };

/**
 * POST /webhooks/subscription/:provider: verify (401), parse (400), land in the inbox (unique on the
 * provider's event id: a redelivery is acknowledged and ignored), and tell the tenant's workflow.
 */
export async function receiveWebhook(
  deps: BillingDeps,
  providerParam: string,
  rawBody: Buffer,
  headers: Record<string, string | undefined>,
): Promise<WebhookOutcome> {
  const provider = providerParam.toLowerCase();
  if (!isBillingProviderId(provider)) throw errors.notFound('billingProvider', `No billing provider ${providerParam}`);
  const rows = (await configs.listConfigs(deps.knex)).filter((r) => r.provider === provider).sort((a, b) => Number(b.isActive) - Number(a.isActive));
  if (!rows.length) throw billingErrors.notAvailable();
  const adapter = deps.billingProviders.get(provider);
  let verified: VerifiedWebhook | undefined;
  let config: configs.BillingConfigRow | undefined;
  let malformed: Error | undefined;
  for (const row of rows) {
    let secret: string;
    try {
      secret = connectionOf(deps.credentialKeys, row).credentials.webhookSecret;
    } catch {
      continue; // sealed under a key CREDENTIAL_KEYS no longer holds: this row cannot verify anything
    }
    try {
      verified = adapter.verifyWebhook(rawBody, headers, secret);
      config = row;
      break;
    } catch (err) {
      if (err instanceof WebhookPayloadError) malformed = err;
      else if (!(err instanceof WebhookSignatureError)) throw err;
    }
  }
  if (!verified || !config) {
    if (malformed) throw errors.validation('Malformed webhook payload', [{ field: 'body', message: malformed.message }]);
    throw errors.unauthorized('Webhook signature verification failed');
  }
  // a signed body is proof of what the provider sent, not of when: an old one is a replay (docs/rules/billing.md#provider-events)
  if (verified.occurredAt && isStaleEvent(verified.occurredAt, nowOf(deps))) {
    throw errors.unauthorized(`Webhook event is outside the ${SIGNED_EVENT_MAX_AGE_MINUTES}-minute window of its signed time`);
  }
  const event = { ...verified.event };
  if (!event.planKey && event.variantId) {
    event.planKey =
      (await configs.planKeyOfVariant(deps.knex, config.id, event.variantId)) ??
      (await planKeyByVariantColumn(deps.knex, VARIANT_COLUMN[provider], event.variantId)) ??
      null;
  }
  const known = await repo.subscriptionByProviderId(deps.knex, provider, event.providerSubId);
  let tenantId = known?.tenantId ?? null;
  if (!tenantId && event.tenantId && /^[0-9a-f-]{36}$/i.test(event.tenantId) && (await tenantBilling(deps.knex, event.tenantId))) tenantId = event.tenantId;
  return deps.knex.transaction(async (trx) => {
    const inserted = await repo.insertInbox(trx, {
      provider,
      providerEventId: verified.eventId,
      eventName: verified.eventName,
      payload: { event, raw: verified.payload },
      signature: verified.signature,
      verified: true,
      tenantId,
    });
    if (!inserted) return { received: true, duplicate: true };
    if (tenantId) {
      await tenantBilling(trx, tenantId, true);
      await announce(trx, deps.signaller, tenantId, 'ProviderEventReceived');
    } else {
      await repo.markInboxProcessed(trx, inserted.id, { subscriptionId: null, failureReason: 'TENANT_UNKNOWN' });
    }
    return { received: true, duplicate: false };
  });
}

/** PATCH /superadmin/tenants/:id/billing-exempt, audit-logged. */
export async function setBillingExempt(db: Db, adminUserId: string, tenantId: string, billingExempt: boolean, now: Date) {
  await db.transaction(async (trx) => {
    const before = await tenantBilling(trx, tenantId, true);
    if (!before) throw errors.notFound('tenant');
    await setTenantBillingExempt(trx, tenantId, billingExempt);
    await repo.insertAudit(trx, {
      adminUserId,
      action: billingExempt ? 'BILLING_EXEMPT_GRANTED' : 'BILLING_EXEMPT_REVOKED',
      tenantId,
      details: { before: before.billingExempt, after: billingExempt },
    });
  });
  return subscriptionView(db, tenantId, now);
}

/** The subscription gate for staff writes: 402 SUBSCRIPTION_REQUIRED when the tenant's subscription lapsed. */
export async function assertWritesAllowed(db: Db, tenantId: string, now: Date): Promise<void> {
  const tenant = await tenantBilling(db, tenantId);
  if (tenant && isSubscriptionLapsed(tenant, now.getTime())) {
    throw errors.subscriptionRequired('This salon has no active subscription; choose a plan to continue');
  }
}
