// Platform billing configs for the super-admin (docs/rules/billing.md#billing-configs): sealed credentials
// (domain/crypto/credential-cipher.ts), at most one active row platform-wide, plan mappings
// replaced in bulk, and the active provider connection everything else bills through.
import type { Db, Transaction } from '../../db/db-handle';
import { AppError, errors } from '../errors';
import crypto from 'node:crypto';
import { isUnbound, openCredentials, sealCredentials, type CredentialBinding, type CredentialKeyring } from '../crypto/credential-cipher';
import { toIso, toIsoOrNull } from '../time/iso';
import * as repo from './billing-config.repository';
import { listPlans } from './plan.repository';
import type { BillingProviderId, BillingProviders, ProviderConnection, ProviderCredentials } from './billing-provider';

const notFound = () => errors.notFound('platformBillingConfig', 'Billing config not found');

export const billingErrors = {
  duplicate: (provider: string, isTest: boolean) =>
    errors.conflict('PLATFORM_BILLING_CONFIG_DUPLICATE', `A ${isTest ? 'test' : 'live'} config for ${provider} already exists`),
  alreadyActive: () => errors.conflict('PLATFORM_BILLING_CONFIG_ALREADY_ACTIVE', 'This billing config is already active'),
  alreadyInactive: () => errors.conflict('PLATFORM_BILLING_CONFIG_ALREADY_INACTIVE', 'This billing config is not active'),
  emptyCredentials: (fields: string[]) =>
    new AppError(
      400,
      'PLATFORM_BILLING_CONFIG_EMPTY_CREDENTIALS',
      'apiKey and webhookSecret must not be empty',
      fields.map((field) => ({ field, message: 'must not be empty' })),
    ),
  variantMissing: (planKey: string, provider: string) =>
    errors.unprocessable('PLATFORM_BILLING_VARIANT_MAPPING_MISSING', `Plan ${planKey} has no ${provider} variant mapped; the platform admin must map it first`),
  notAvailable: () => errors.unavailable('BILLING_PROVIDER_NOT_AVAILABLE', 'No billing provider is active right now; try again later'),
};

export interface ConfigInput {
  provider: BillingProviderId;
  isTest: boolean;
  storeId?: string | null;
  apiBaseUrl: string;
  storeDomain?: string | null;
  displayName: string;
  credentials: ProviderCredentials;
}

function toDto(row: repo.BillingConfigRow, mappings?: repo.PlanMappingRow[]) {
  return {
    id: row.id,
    provider: row.provider,
    isTest: row.isTest,
    storeId: row.storeId,
    apiBaseUrl: row.apiBaseUrl,
    storeDomain: row.storeDomain,
    displayName: row.displayName,
    keyVersion: row.keyVersion,
    hasCredentials: true,
    isActive: row.isActive,
    lastHealthCheckAt: toIsoOrNull(row.lastHealthCheckAt),
    lastHealthCheckStatus: row.lastHealthCheckStatus,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
    ...(mappings ? { planMappings: mappings } : {}),
  };
}

/** What a billing config's credentials are bound to: its id (docs/rules/auth.md#provider-credentials-at-rest). */
export function billingConfigBinding(id: string): CredentialBinding {
  return `platform_billing_configs/${id}`;
}

function sealed(keyring: CredentialKeyring, credentials: ProviderCredentials, configId: string) {
  const empty = (['apiKey', 'webhookSecret'] as const).filter((k) => !credentials[k] || !credentials[k].trim()).map((k) => `credentials.${k}`);
  if (empty.length) throw billingErrors.emptyCredentials(empty);
  const { sealed: sealedCredentials, keyVersion } = sealCredentials(
    keyring,
    { apiKey: credentials.apiKey, webhookSecret: credentials.webhookSecret },
    billingConfigBinding(configId),
  );
  return { sealedCredentials, keyVersion };
}

/** Migrate: every billing config sealed before blobs were bound to their rows is sealed again, bound. */
export async function resealUnboundBillingCredentials(db: Db, keyring: CredentialKeyring): Promise<number> {
  let resealed = 0;
  for (const row of await repo.listConfigs(db)) {
    if (!isUnbound(row.sealedCredentials)) continue;
    await db.transaction(async (trx) => {
      await repo.lockConfigTable(trx);
      const locked = await repo.findConfig(trx, row.id, true);
      if (!locked || !isUnbound(locked.sealedCredentials)) return;
      await repo.updateConfig(trx, row.id, sealed(keyring, connectionOf(keyring, locked).credentials, row.id));
      resealed += 1;
    });
  }
  return resealed;
}

export function connectionOf(keyring: CredentialKeyring, row: repo.BillingConfigRow): ProviderConnection {
  return {
    provider: row.provider as BillingProviderId,
    isTest: row.isTest,
    apiBaseUrl: row.apiBaseUrl,
    storeId: row.storeId,
    storeDomain: row.storeDomain,
    credentials: openCredentials<ProviderCredentials>(keyring, { sealed: row.sealedCredentials, keyVersion: row.keyVersion }, billingConfigBinding(row.id)),
  };
}

export async function listConfigs(db: Db) {
  return (await repo.listConfigs(db)).map((r) => toDto(r));
}

export async function getConfig(db: Db, id: string) {
  const row = await repo.findConfig(db, id);
  if (!row) throw notFound();
  return toDto(row, await repo.mappingsOf(db, id));
}

export async function createConfig(db: Db, keyring: CredentialKeyring, input: ConfigInput) {
  const id = crypto.randomUUID();
  const secrets = sealed(keyring, input.credentials, id);
  return db.transaction(async (trx) => {
    await repo.lockConfigTable(trx);
    if (await repo.findConfigByMode(trx, input.provider, input.isTest)) throw billingErrors.duplicate(input.provider, input.isTest);
    const row = await repo.insertConfig(trx, {
      id,
      provider: input.provider,
      isTest: input.isTest,
      storeId: input.storeId ?? null,
      apiBaseUrl: input.apiBaseUrl.replace(/\/$/, ''),
      storeDomain: input.storeDomain ?? null,
      displayName: input.displayName,
      ...secrets,
    });
    return toDto(row, []);
  });
}

export async function updateConfig(db: Db, id: string, patch: Partial<Pick<ConfigInput, 'storeId' | 'apiBaseUrl' | 'storeDomain' | 'displayName'>>) {
  return changeConfig(db, id, async (trx) => {
    const row = await repo.updateConfig(trx, id, { ...patch, ...(patch.apiBaseUrl ? { apiBaseUrl: patch.apiBaseUrl.replace(/\/$/, '') } : {}) });
    return toDto(row, await repo.mappingsOf(trx, id));
  });
}

/** New credentials, sealed under the current master key version. */
export async function rotateCredentials(db: Db, keyring: CredentialKeyring, id: string, credentials: ProviderCredentials) {
  const secrets = sealed(keyring, credentials, id);
  return changeConfig(db, id, async (trx) => toDto(await repo.updateConfig(trx, id, secrets)));
}

/**
 * A change to a billing config, in one transaction that takes the locks in one order
 * (docs/rules/billing.md#billing-configs): the table's lock first, then the row's. Activation
 * changes several rows at once; a change of one row that took its row lock first would wait for the
 * table while activation waits for that row, and Postgres would end one of them as a deadlock.
 */
async function changeConfig<T>(db: Db, id: string, change: (trx: Transaction, row: repo.BillingConfigRow) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await repo.lockConfigTable(trx);
    const row = await repo.findConfig(trx, id, true);
    if (!row) throw notFound();
    return change(trx, row);
  });
}

/** Activates the row and deactivates every other one, in one transaction (one active platform-wide). */
export async function activateConfig(db: Db, id: string) {
  return changeConfig(db, id, async (trx, row) => {
    if (row.isActive) throw billingErrors.alreadyActive();
    await repo.deactivateOthers(trx, id);
    return toDto(await repo.updateConfig(trx, id, { isActive: true }));
  });
}

export async function deactivateConfig(db: Db, id: string) {
  return changeConfig(db, id, async (trx, row) => {
    if (!row.isActive) throw billingErrors.alreadyInactive();
    return toDto(await repo.updateConfig(trx, id, { isActive: false }));
  });
}

export async function deleteConfig(db: Db, id: string): Promise<void> {
  await changeConfig(db, id, (trx) => repo.deleteConfig(trx, id));
}

/** Asks the provider whether the credentials work; records OK or FAILED (at `now`) either way. */
export async function healthCheck(db: Db, keyring: CredentialKeyring, providers: BillingProviders, id: string, now: Date) {
  const row = await repo.findConfig(db, id);
  if (!row) throw notFound();
  let status: 'OK' | 'FAILED' = 'OK';
  let reason: string | null = null;
  try {
    await providers.get(row.provider as BillingProviderId).healthCheck(connectionOf(keyring, row));
  } catch (err) {
    status = 'FAILED';
    reason = (err as Error).message;
  }
  // the provider is asked outside any transaction; only its answer is written, in the one lock order
  const updated = await changeConfig(db, id, (trx) => repo.updateConfig(trx, id, { lastHealthCheckAt: now, lastHealthCheckStatus: status }));
  return { ...toDto(updated), ...(reason ? { failureReason: reason } : {}) };
}

/** Bulk atomic replace; an empty variant id means unmapped. Every plan key must exist. */
export async function replacePlanMappings(db: Db, id: string, mappings: { planKey: string; providerVariantId: string | null }[]) {
  return changeConfig(db, id, async (trx) => {
    const keys = new Set((await listPlans(trx)).map((p) => p.planKey));
    const seen = new Set<string>();
    mappings.forEach((m, i) => {
      if (!keys.has(m.planKey)) throw errors.validation('Unknown plan', [{ field: `mappings.${i}.planKey`, message: `no plan ${m.planKey}` }]);
      if (seen.has(m.planKey)) throw errors.validation('A plan is mapped twice', [{ field: `mappings.${i}.planKey`, message: 'each planKey at most once' }]);
      seen.add(m.planKey);
    });
    const kept = mappings
      .filter((m) => m.providerVariantId && m.providerVariantId.trim())
      .map((m) => ({ planKey: m.planKey, providerVariantId: m.providerVariantId!.trim() }));
    await repo.replaceMappings(trx, id, kept);
    return repo.mappingsOf(trx, id);
  });
}

/** The active config with its credentials; 503 BILLING_PROVIDER_NOT_AVAILABLE when none is active. */
export async function activeConnection(db: Db, keyring: CredentialKeyring): Promise<{ row: repo.BillingConfigRow; connection: ProviderConnection }> {
  const row = await repo.activeConfig(db);
  if (!row) throw billingErrors.notAvailable();
  return { row, connection: connectionOf(keyring, row) };
}

/** The provider's variant for a plan: the config's mapping, else the plan's own column. */
export async function variantFor(db: Db, row: repo.BillingConfigRow, plan: { planKey: string } & Record<string, unknown>, column: string): Promise<string> {
  const mapped = await repo.mappingFor(db, row.id, plan.planKey);
  const own = plan[column];
  const variant = mapped ?? (typeof own === 'string' && own ? own : undefined);
  if (!variant) throw billingErrors.variantMissing(plan.planKey, row.provider);
  return variant;
}
