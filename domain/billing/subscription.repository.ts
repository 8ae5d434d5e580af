// Every query of subscriptions, the subscription webhook inbox and the platform audit log
// (docs/rules/billing.md#subscriptions). Scoped by tenantId where a tenant is known. The tenant's
// billing read model lives on the tenants row: tenant.repository.ts.
import { fn } from 'objection';
import type { Db } from '../../db/db-handle';
import { SubscriptionModel } from '../../db/models/subscription.model';
import { SubscriptionWebhookInboxModel } from '../../db/models/subscription-webhook-inbox.model';
import { PlatformAuditLogModel } from '../../db/models/platform-audit-log.model';
import { plain, returnedRows } from '../../db/plain';
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

/** db/ types the status as a string; the domain's row narrows it. */
const subscriptionRow = (model: SubscriptionModel): SubscriptionRow => plain(model) as unknown as SubscriptionRow;
const inboxRow = (model: SubscriptionWebhookInboxModel): InboxRow => plain(model) as InboxRow;

export async function latestSubscription(db: Db, tenantId: string): Promise<SubscriptionRow | undefined> {
  const row = await SubscriptionModel.query(db)
    .where({ tenantId })
    .orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first();
  return row && subscriptionRow(row);
}

export async function hadAnySubscription(db: Db, tenantId: string): Promise<boolean> {
  return !!(await SubscriptionModel.query(db).select('id').findOne({ tenantId }));
}

export async function subscriptionByProviderId(db: Db, provider: string, providerSubId: string): Promise<SubscriptionRow | undefined> {
  const row = await SubscriptionModel.query(db).findOne({ provider, providerSubId });
  return row && subscriptionRow(row);
}

export async function insertSubscription(
  db: Db,
  row: Partial<SubscriptionRow> & Pick<SubscriptionRow, 'tenantId' | 'planKey' | 'status'>,
): Promise<SubscriptionRow> {
  return subscriptionRow(await SubscriptionModel.query(db).insert(row).returning('*'));
}

export async function updateSubscription(db: Db, id: string, patch: Partial<SubscriptionRow>): Promise<SubscriptionRow> {
  const [row] = await SubscriptionModel.query(db)
    .patch({ ...patch, updatedAt: fn.now() })
    .where({ id })
    .returning('*');
  return subscriptionRow(row);
}

/** Linked, non-terminal subscriptions after `afterId` (reconcile pages by id). */
export async function linkedOpenSubscriptions(db: Db, afterId: string | null, limit: number): Promise<SubscriptionRow[]> {
  const q = SubscriptionModel.query(db).whereNotNull('providerSubId').whereNot('status', 'EXPIRED').orderBy('id').limit(limit);
  if (afterId) q.where('id', '>', afterId);
  return (await q).map(subscriptionRow);
}

/** Inserts an inbox row unless (provider, event id) is already there; undefined for a redelivery. */
export async function insertInbox(
  db: Db,
  row: Omit<InboxRow, 'id' | 'processedAt' | 'failureReason' | 'createdAt'> & { signature: string | null; verified: boolean },
): Promise<InboxRow | undefined> {
  const [inserted] = await returnedRows<InboxRow>(
    SubscriptionWebhookInboxModel.query(db).insert(row).onConflict(['provider', 'providerEventId']).ignore().returning('*'),
  );
  return inserted;
}

export async function pendingInbox(db: Db, tenantId: string): Promise<InboxRow[]> {
  return (
    await SubscriptionWebhookInboxModel.query(db)
      .where({ tenantId })
      .whereNull('processedAt')
      .orderBy([{ column: 'createdAt' }, { column: 'id' }])
  ).map(inboxRow);
}

export async function countPendingInbox(db: Db, tenantId: string): Promise<number> {
  return SubscriptionWebhookInboxModel.query(db).where({ tenantId }).whereNull('processedAt').resultSize();
}

/** Marks the row processed (by the database's clock) unless it already is; false when another worker got there first. */
export async function markInboxProcessed(db: Db, id: string, outcome: { subscriptionId: string | null; failureReason: string | null }): Promise<boolean> {
  return (
    (await SubscriptionWebhookInboxModel.query(db)
      .patch({ ...outcome, processedAt: fn.now() })
      .where({ id })
      .whereNull('processedAt')) > 0
  );
}

export async function lockInboxRow(db: Db, id: string): Promise<InboxRow | undefined> {
  const row = await SubscriptionWebhookInboxModel.query(db).findById(id).forUpdate();
  return row && inboxRow(row);
}

export async function insertAudit(db: Db, row: { adminUserId: string; action: string; tenantId: string; details: Record<string, unknown> }): Promise<void> {
  await PlatformAuditLogModel.query(db).insert(row);
}
