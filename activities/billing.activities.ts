// Side effects of the subscription workflows. Each re-reads committed state and is idempotent:
// inbox rows are processed once, trial expiry is a compare-and-set on the latest row, and reconcile
// lands drift in the inbox under a deterministic event id before it goes through the same handler
// as webhooks.
import crypto from 'node:crypto';
import type { Db } from '../db/db-handle';
import { systemClock, type Clock } from '../domain/time/clock';
import { ApplicationFailure } from '@temporalio/activity';
import type { CredentialKeyring } from '../domain/crypto/credential-cipher';
import type { BillingProviders, BillingProviderId } from '../domain/billing/billing-provider';
import type { BillingEvent } from '../domain/billing/subscription.rules';
import { applyPendingEvents, expireLapsedTrial, subscriptionState } from '../domain/billing/subscription-apply.service';
import { connectionOf } from '../domain/billing/billing-config.service';
import * as configs from '../domain/billing/billing-config.repository';
import * as repo from '../domain/billing/subscription.repository';
import { subscriptionContract } from '../domain/billing/subscription-events.rules';
import { SubscriptionActivityErrors, type SubscriptionActivities } from './billing.types';
import { committedAt } from './read-committed';

export interface SubscriptionActivityDeps {
  knex: Db;
  /** unset: the system clock */
  now?: Clock;
  /** unset (booking-only test workers): reconcile has nothing to talk to */
  credentialKeys?: CredentialKeyring;
  billingProviders?: BillingProviders;
}

export function createSubscriptionActivities({ knex, credentialKeys, billingProviders, now = systemClock }: SubscriptionActivityDeps): SubscriptionActivities {
  async function state(tenantId: string) {
    const s = await subscriptionState(knex, tenantId);
    if (!s) throw ApplicationFailure.nonRetryable(`tenant ${tenantId} not found`, SubscriptionActivityErrors.notFound);
    return s;
  }

  return {
    readSubscriptionState: async ({ tenantId, minVersion }) => committedAt(subscriptionContract, tenantId, minVersion, await state(tenantId)),

    async applySubscriptionEvents({ tenantId }) {
      await applyPendingEvents(knex, tenantId, now);
      return state(tenantId);
    },

    async expireTrial({ tenantId, asOf }) {
      await expireLapsedTrial(knex, tenantId, new Date(asOf));
      return state(tenantId);
    },

    async reconcileBatch({ afterId, limit, asOf }) {
      const rows = await repo.linkedOpenSubscriptions(knex, afterId, limit);
      if (!credentialKeys || !billingProviders) return { lastId: rows.at(-1)?.id ?? null, checked: 0, drifted: 0 };
      const connections = new Map((await configs.listConfigs(knex)).sort((a, b) => Number(a.isActive) - Number(b.isActive)).map((r) => [r.provider, r]));
      let drifted = 0;
      let checked = 0;
      for (const row of rows) {
        const config = connections.get(row.provider ?? '');
        if (!config) continue;
        let remote;
        try {
          remote = await billingProviders.get(row.provider as BillingProviderId).fetchSubscription(connectionOf(credentialKeys, config), row.providerSubId!);
        } catch {
          continue; // the provider is down for this one: next cycle tries again
        }
        checked += 1;
        const event = driftEvent(row, remote);
        if (!event) continue;
        const fingerprint = crypto
          .createHash('sha256')
          .update(JSON.stringify([event, asOf.slice(0, 13)]))
          .digest('hex')
          .slice(0, 32);
        const inserted = await repo.insertInbox(knex, {
          provider: row.provider!,
          providerEventId: `reconcile:${row.id}:${fingerprint}`,
          eventName: `reconcile.${event.kind}`,
          payload: { event, raw: remote },
          signature: null,
          verified: true,
          tenantId: row.tenantId,
        });
        if (inserted) {
          drifted += 1;
          await applyPendingEvents(knex, row.tenantId, () => new Date(asOf));
        }
      }
      return { lastId: rows.at(-1)?.id ?? null, checked, drifted };
    },
  };
}

/** The provider's view differs from ours: the event that brings ours in line, or null. */
function driftEvent(row: repo.SubscriptionRow, remote: Awaited<ReturnType<ReturnType<BillingProviders['get']>['fetchSubscription']>>): BillingEvent | null {
  const base = {
    providerSubId: row.providerSubId!,
    tenantId: row.tenantId,
    planKey: null,
    variantId: null,
    customerId: null,
    trialEndsAt: null,
    currentPeriodEnd: remote?.currentPeriodEnd ?? null,
  };
  if (!remote || remote.status === 'EXPIRED') return { ...base, kind: 'expired', status: null, cancelAtPeriodEnd: null };
  if (remote.status === row.status && remote.cancelAtPeriodEnd === row.cancelAtPeriodEnd) return null;
  if (remote.status === 'PAST_DUE' && row.status === 'ACTIVE') return { ...base, kind: 'payment_failed', status: null, cancelAtPeriodEnd: null };
  if (remote.status === 'CANCELED') return { ...base, kind: 'canceled', status: null, cancelAtPeriodEnd: true };
  if (remote.status === 'ACTIVE' && row.status === 'PAST_DUE') return { ...base, kind: 'renewed', status: null, cancelAtPeriodEnd: remote.cancelAtPeriodEnd };
  return { ...base, kind: 'updated', status: remote.status, cancelAtPeriodEnd: remote.cancelAtPeriodEnd };
}
