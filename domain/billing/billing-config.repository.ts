// Platform billing configs and their plan mappings (docs/rules/billing.md#billing-configs): platform-wide rows, no tenant scope.
import { fn } from 'objection';
import type { Db, Transaction } from '../../db/db-handle';
import { PlatformBillingConfigModel } from '../../db/models/platform-billing-config.model';
import { PlatformBillingPlanMappingModel } from '../../db/models/platform-billing-plan-mapping.model';
import { plain } from '../../db/plain';

export interface BillingConfigRow {
  id: string;
  provider: string;
  isTest: boolean;
  storeId: string | null;
  apiBaseUrl: string;
  storeDomain: string | null;
  displayName: string;
  sealedCredentials: string;
  keyVersion: number;
  isActive: boolean;
  lastHealthCheckAt: Date | null;
  lastHealthCheckStatus: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface PlanMappingRow {
  planKey: string;
  providerVariantId: string;
}

export type BillingConfigFields = Omit<BillingConfigRow, 'createdAt' | 'updatedAt' | 'isActive' | 'lastHealthCheckAt' | 'lastHealthCheckStatus'>;

export async function listConfigs(db: Db): Promise<BillingConfigRow[]> {
  return (await PlatformBillingConfigModel.query(db).orderBy([{ column: 'provider' }, { column: 'isTest' }])).map(plain);
}

export async function findConfig(db: Db, id: string, lock = false): Promise<BillingConfigRow | undefined> {
  const q = PlatformBillingConfigModel.query(db).findById(id);
  if (lock) q.forUpdate();
  const row = await q;
  return row && plain(row);
}

export async function findConfigByMode(db: Db, provider: string, isTest: boolean): Promise<BillingConfigRow | undefined> {
  const row = await PlatformBillingConfigModel.query(db).findOne({ provider, isTest });
  return row && plain(row);
}

export async function activeConfig(db: Db): Promise<BillingConfigRow | undefined> {
  const row = await PlatformBillingConfigModel.query(db).findOne({ isActive: true });
  return row && plain(row);
}

/**
 * Serialises every change to the billing configs (which one is active, a row's fields, its health,
 * the sandbox row's upsert) for the rest of the transaction; taken before any row lock, so the
 * locks come in one order (docs/rules/billing.md#billing-configs). Raw SQL: LOCK TABLE is beyond a
 * model or the builder.
 */
export async function lockConfigTable(trx: Transaction): Promise<void> {
  await trx.raw('LOCK TABLE platform_billing_configs IN SHARE ROW EXCLUSIVE MODE');
}

export async function insertConfig(db: Db, fields: BillingConfigFields): Promise<BillingConfigRow> {
  return plain(await PlatformBillingConfigModel.query(db).insert(fields).returning('*'));
}

export async function updateConfig(db: Db, id: string, patch: Partial<BillingConfigRow>): Promise<BillingConfigRow> {
  const [row] = await PlatformBillingConfigModel.query(db)
    .patch({ ...patch, updatedAt: fn.now() })
    .where({ id })
    .returning('*');
  return plain(row);
}

/** Deactivates every row but `exceptId` (activation is one transaction: this, then the activation). */
export async function deactivateOthers(db: Db, exceptId: string): Promise<void> {
  await PlatformBillingConfigModel.query(db).patch({ isActive: false, updatedAt: fn.now() }).whereNot({ id: exceptId }).where({ isActive: true });
}

export async function deleteConfig(db: Db, id: string): Promise<void> {
  await PlatformBillingConfigModel.query(db).deleteById(id);
}

export async function mappingsOf(db: Db, configId: string): Promise<PlanMappingRow[]> {
  return (await PlatformBillingPlanMappingModel.query(db).where({ configId }).orderBy('planKey').select('planKey', 'providerVariantId')).map((m) => ({
    planKey: m.planKey,
    providerVariantId: m.providerVariantId,
  }));
}

export async function mappingFor(db: Db, configId: string, planKey: string): Promise<string | undefined> {
  return (await PlatformBillingPlanMappingModel.query(db).select('providerVariantId').findOne({ configId, planKey }))?.providerVariantId;
}

/** Plan key of a variant id under a config (webhooks name the variant, not our plan). */
export async function planKeyOfVariant(db: Db, configId: string, variantId: string): Promise<string | undefined> {
  return (await PlatformBillingPlanMappingModel.query(db).select('planKey').findOne({ configId, providerVariantId: variantId }))?.planKey;
}

export async function replaceMappings(db: Db, configId: string, mappings: PlanMappingRow[]): Promise<void> {
  await PlatformBillingPlanMappingModel.query(db).where({ configId }).delete();
  if (mappings.length) await PlatformBillingPlanMappingModel.query(db).insert(mappings.map((m) => ({ configId, ...m })));
}
