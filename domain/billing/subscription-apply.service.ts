// The one handler every provider event goes through, whether it came as a webhook or as drift found
// by reconcile (docs/rules/billing.md#provider-events): it applies the tenant's pending inbox rows in arrival order, each in
// its own transaction under the tenant's row lock, and keeps the tenant read-model in sync. Called
// by the subscription workflow's activities; idempotent (an inbox row is processed once).
import type { Db } from '../../db/db-handle';
import type { Clock } from '../time/clock';
import { setSubscriptionReadModel, tenantBilling } from '../tenant/tenant.repository';
import * as repo from './subscription.repository';
import { outcomeOf, readModelOf, type BillingEvent } from './subscription.rules';
import type { SubscriptionSnapshot } from './subscription-events.rules';

export async function syncReadModel(trx: Db, tenantId: string): Promise<void> {
  await setSubscriptionReadModel(trx, tenantId, readModelOf(await repo.latestSubscription(trx, tenantId)));
}

export async function subscriptionState(db: Db, tenantId: string): Promise<SubscriptionSnapshot | undefined> {
  const tenant = await tenantBilling(db, tenantId);
  if (!tenant) return undefined;
  return {
    tenantId,
    version: tenant.subscriptionVersion,
    subscriptionStatus: tenant.subscriptionStatus,
    trialEndsAt: tenant.trialEndsAt ? new Date(tenant.trialEndsAt).toISOString() : null,
    pendingEvents: await repo.countPendingInbox(db, tenantId),
  };
}

/** Applies one normalised event of `provider` for the tenant; returns the row touched and why not, if ignored. */
export async function applyBillingEvent(
  trx: Db,
  tenantId: string,
  provider: string,
  event: BillingEvent,
  now: Date,
): Promise<{ subscriptionId: string | null; failureReason: string | null }> {
  const row = await repo.subscriptionByProviderId(trx, provider, event.providerSubId);
  if (row && row.tenantId !== tenantId) return { subscriptionId: row.id, failureReason: 'TENANT_MISMATCH' };
  const outcome = outcomeOf(event, row);
  const common = {
    ...(event.planKey ? { planKey: event.planKey } : {}),
    ...(event.currentPeriodEnd ? { currentPeriodEnd: new Date(event.currentPeriodEnd) } : {}),
    ...(event.customerId ? { providerCustomerId: event.customerId } : {}),
  };
  if (outcome.action === 'ignore') return { subscriptionId: row?.id ?? null, failureReason: outcome.reason };
  if (outcome.action === 'insert') {
    const latest = await repo.latestSubscription(trx, tenantId);
    const inserted = await repo.insertSubscription(trx, {
      tenantId,
      planKey: event.planKey ?? latest?.planKey ?? 'unknown',
      status: outcome.status,
      provider,
      providerSubId: event.providerSubId,
      trialEndsAt: event.trialEndsAt ? new Date(event.trialEndsAt) : null,
      cancelAtPeriodEnd: event.cancelAtPeriodEnd ?? outcome.status === 'CANCELED',
      canceledAt: outcome.status === 'CANCELED' ? now : null,
      ...common,
    });
    await syncReadModel(trx, tenantId);
    return { subscriptionId: inserted.id, failureReason: null };
  }
  const updated = await repo.updateSubscription(trx, row!.id, {
    ...common,
    status: outcome.status,
    ...(outcome.cancelAtPeriodEnd !== undefined ? { cancelAtPeriodEnd: outcome.cancelAtPeriodEnd } : {}),
    ...(outcome.canceled ? { canceledAt: now } : {}),
    ...(outcome.expired ? { expiredAt: now } : {}),
  });
  await syncReadModel(trx, tenantId);
  return { subscriptionId: updated.id, failureReason: null };
}

/** Applies every pending inbox row of the tenant, oldest first. */
/** `now` is the clock the events are applied by (the activity's; reconcile passes its batch's time). */
export async function applyPendingEvents(knex: Db, tenantId: string, now: Clock): Promise<number> {
  let applied = 0;
  for (const pending of await repo.pendingInbox(knex, tenantId)) {
    await knex.transaction(async (trx) => {
      await tenantBilling(trx, tenantId, true);
      const row = await repo.lockInboxRow(trx, pending.id);
      if (!row || row.processedAt) return;
      const { event } = row.payload as { event: BillingEvent };
      const outcome = await applyBillingEvent(trx, tenantId, row.provider, event, now());
      await repo.markInboxProcessed(trx, row.id, outcome);
      applied += 1;
    });
  }
  return applied;
}

/**
 * The workflow's trial timer fired at `asOf` (workflow time): the latest row is expired when it is
 * still the platform trial, ACTIVE, and its end has passed. A paid subscription that arrived first
 * (a newer row) is left alone. Returns whether it expired.
 */
export async function expireLapsedTrial(knex: Db, tenantId: string, asOf: Date): Promise<boolean> {
  return knex.transaction(async (trx) => {
    await tenantBilling(trx, tenantId, true);
    const latest = await repo.latestSubscription(trx, tenantId);
    if (!latest || latest.providerSubId !== null || latest.status !== 'ACTIVE' || !latest.trialEndsAt) return false;
    if (new Date(latest.trialEndsAt).getTime() > asOf.getTime()) return false;
    await repo.updateSubscription(trx, latest.id, { status: 'EXPIRED', expiredAt: asOf });
    await syncReadModel(trx, tenantId);
    return true;
  });
}
