// Platform billing configs and their plan mappings (docs/rules/billing.md#billing-configs): platform-wide rows, no tenant scope.
import type { Db } from '../../db/db-handle';

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

export type BillingConfigFields = Omit<BillingConfigRow, 'id' | 'createdAt' | 'updatedAt' | 'isActive' | 'lastHealthCheckAt' | 'lastHealthCheckStatus'>;

export async function listConfigs(db: Db): Promise<BillingConfigRow[]> {
  return db('platformBillingConfigs').orderBy([{ column: 'provider' }, { column: 'isTest' }]);
}

export async function findConfig(db: Db, id: string, lock = false): Promise<BillingConfigRow | undefined> {
  const q = db('platformBillingConfigs').where({ id }).first();
  return lock ? q.forUpdate() : q;
}

export async function findConfigByMode(db: Db, provider: string, isTest: boolean): Promise<BillingConfigRow | undefined> {
  return db('platformBillingConfigs').where({ provider, isTest }).first();
}

export async function activeConfig(db: Db): Promise<BillingConfigRow | undefined> {
  return db('platformBillingConfigs').where({ isActive: true }).first();
}

export async function insertConfig(db: Db, fields: BillingConfigFields): Promise<BillingConfigRow> {
  const [row] = await db('platformBillingConfigs').insert(fields).returning('*');
  return row;
}

export async function updateConfig(db: Db, id: string, patch: Partial<BillingConfigRow>): Promise<BillingConfigRow> {
  const [row] = await db('platformBillingConfigs')
    .where({ id })
    .update({ ...patch, updatedAt: db.fn.now() })
    .returning('*');
  return row;
}

/** Deactivates every row but `exceptId` (activation is one transaction: this, then the activation). */
export async function deactivateOthers(db: Db, exceptId: string): Promise<void> {
  await db('platformBillingConfigs').whereNot({ id: exceptId }).where({ isActive: true }).update({ isActive: false, updatedAt: db.fn.now() });
}

export async function deleteConfig(db: Db, id: string): Promise<void> {
  await db('platformBillingConfigs').where({ id }).delete();
}

export async function mappingsOf(db: Db, configId: string): Promise<PlanMappingRow[]> {
  return db('platformBillingPlanMappings').where({ configId }).orderBy('planKey').select('planKey', 'providerVariantId');
}

export async function mappingFor(db: Db, configId: string, planKey: string): Promise<string | undefined> {
  return (await db('platformBillingPlanMappings').where({ configId, planKey }).first('providerVariantId'))?.providerVariantId;
}

/** Plan key of a variant id under a config (webhooks name the variant, not our plan). */
export async function planKeyOfVariant(db: Db, configId: string, variantId: string): Promise<string | undefined> {
  return (await db('platformBillingPlanMappings').where({ configId, providerVariantId: variantId }).first('planKey'))?.planKey;
}

export async function replaceMappings(db: Db, configId: string, mappings: PlanMappingRow[]): Promise<void> {
  await db('platformBillingPlanMappings').where({ configId }).delete();
  if (mappings.length) await db('platformBillingPlanMappings').insert(mappings.map((m) => ({ configId, ...m })));
}
