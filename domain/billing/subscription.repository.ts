// Every query of subscriptions, the tenant billing read-model and the subscription webhook inbox
// (docs/rules/billing.md#subscriptions). Scoped by tenantId where a tenant is known.
import type { Db } from '../../db/db-handle';
import type { SubscriptionStatus } from './subscription.rules';

export interface SubscriptionRow {
  id: string;
  tenantId: string;
  planKey: string;
  status: SubscriptionStatus;
  provider: string | null;
  providerSubId: string | null;
  providerCustomerId: string | null;
  trialEndsAt: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  expiredAt: Date | null;
  seatLimit: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface InboxRow {
  id: string;
  provider: string;
  providerEventId: string;
  eventName: string;
  payload: unknown;
  tenantId: string | null;
  processedAt: Date | null;
  failureReason: string | null;
  createdAt: Date;
}

export interface TenantBillingRow {
  id: string;
  subscriptionStatus: string | null;
  trialEndsAt: Date | null;
  billingExempt: boolean;
  subscriptionVersion: number;
}

/** The tenant's billing fields; `lock` takes the row lock every subscription change of the tenant takes. */
export async function tenantBilling(db: Db, tenantId: string, lock = false): Promise<TenantBillingRow | undefined> {
  const q = db('tenants').where({ id: tenantId }).first('id', 'subscriptionStatus', 'trialEndsAt', 'billingExempt', 'subscriptionVersion');
  return lock ? q.forUpdate() : q;
}

/** Bumps the tenant's subscription version (the workflow's entity version) and returns it. */
export async function bumpVersion(db: Db, tenantId: string): Promise<number> {
  const [row] = await db('tenants').where({ id: tenantId }).increment('subscriptionVersion', 1).returning('subscriptionVersion');
  return row.subscriptionVersion;
}

export async function setReadModel(db: Db, tenantId: string, fields: { subscriptionStatus: string | null; trialEndsAt: Date | null }): Promise<void> {
  await db('tenants').where({ id: tenantId }).update(fields);
}

export async function setBillingExempt(db: Db, tenantId: string, billingExempt: boolean): Promise<boolean> {
  return (await db('tenants').where({ id: tenantId }).update({ billingExempt, updatedAt: db.fn.now() })) > 0;
}

export async function latestSubscription(db: Db, tenantId: string): Promise<SubscriptionRow | undefined> {
  return db('subscriptions').where({ tenantId }).orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }]).first();
}

export async function hadAnySubscription(db: Db, tenantId: string): Promise<boolean> {
  return !!(await db('subscriptions').where({ tenantId }).first('id'));
}

export async function subscriptionByProviderId(db: Db, provider: string, providerSubId: string): Promise<SubscriptionRow | undefined> {
  return db('subscriptions').where({ provider, providerSubId }).first();
}

export async function insertSubscription(db: Db, row: Partial<SubscriptionRow> & Pick<SubscriptionRow, 'tenantId' | 'planKey' | 'status'>): Promise<SubscriptionRow> {
  const [inserted] = await db('subscriptions').insert(row).returning('*');
  return inserted;
}

export async function updateSubscription(db: Db, id: string, patch: Partial<SubscriptionRow>): Promise<SubscriptionRow> {
  const [row] = await db('subscriptions')
    .where({ id })
    .update({ ...patch, updatedAt: db.fn.now() })
    .returning('*');
  return row;
}

/** Linked, non-terminal subscriptions after `afterId` (reconcile pages by id). */
export async function linkedOpenSubscriptions(db: Db, afterId: string | null, limit: number): Promise<SubscriptionRow[]> {
  const q = db('subscriptions').whereNotNull('providerSubId').whereNot('status', 'EXPIRED').orderBy('id').limit(limit);
  if (afterId) q.where('id', '>', afterId);
  return q;
}

/** Inserts an inbox row unless (provider, event id) is already there; undefined for a redelivery. */
export async function insertInbox(db: Db, row: Omit<InboxRow, 'id' | 'processedAt' | 'failureReason' | 'createdAt'> & { signature: string | null; verified: boolean }): Promise<InboxRow | undefined> {
  const [inserted] = await db('subscriptionWebhookInbox')
    .insert({ ...row, payload: JSON.stringify(row.payload) })
    .onConflict(['provider', 'provider_event_id'])
    .ignore()
    .returning('*');
  return inserted;
}

export async function pendingInbox(db: Db, tenantId: string): Promise<InboxRow[]> {
  return db('subscriptionWebhookInbox').where({ tenantId }).whereNull('processedAt').orderBy([{ column: 'createdAt' }, { column: 'id' }]);
}

export async function countPendingInbox(db: Db, tenantId: string): Promise<number> {
  const [{ count }] = await db('subscriptionWebhookInbox').where({ tenantId }).whereNull('processedAt').count({ count: '*' });
  return Number(count);
}

/** Marks the row processed unless it already is; false when another worker got there first. */
export async function markInboxProcessed(db: Db, id: string, outcome: { subscriptionId: string | null; failureReason: string | null }): Promise<boolean> {
  return (await db('subscriptionWebhookInbox').where({ id }).whereNull('processedAt').update({ ...outcome, processedAt: db.fn.now() })) > 0;
}

export async function lockInboxRow(db: Db, id: string): Promise<InboxRow | undefined> {
  return db('subscriptionWebhookInbox').where({ id }).forUpdate().first();
}

export async function insertAudit(db: Db, row: { adminUserId: string; action: string; tenantId: string; details: Record<string, unknown> }): Promise<void> {
  await db('platformAuditLogs').insert({ ...row, details: JSON.stringify(row.details) });
}
