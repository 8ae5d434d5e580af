/**
 * Payment configs (docs/rules/payments.md#payment-configs): one row per provider set-up of a tenant, credentials sealed
 * with AES-256-GCM under a versioned master key (domain/crypto/credential-cipher.ts). At most one is
 * active per tenant. Credentials never leave this file in clear except to a provider adapter; the
 * DTO names the credential fields only.
 */
import type { Knex } from 'knex';
import { errors } from '../errors';
import { openCredentials, sealCredentials, type CredentialKeyring } from '../crypto/credential-cipher';
import { toIso, toIsoOrNull } from '../time/iso';
import type { CaptureMode } from './payment.rules';
import type { PaymentProvider, PaymentProviders, ProviderCredentials } from './payment-provider';
import * as repo from './payment.repository';
import type { PaymentConfigRow } from './payment.repository';

export interface ConfigDeps {
  knex: Knex;
  keyring: CredentialKeyring;
  providers: PaymentProviders;
  now?: () => Date;
}

export interface PaymentConfigDto {
  id: string;
  provider: string;
  displayName: string;
  isTest: boolean;
  isActive: boolean;
  captureMode: CaptureMode;
  keyVersion: number;
  credentialFields: string[];
  lastHealthCheckAt: string | null;
  lastHealthCheckStatus: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ConfigCreateInput {
  provider: string;
  displayName: string;
  isTest?: boolean;
  captureMode?: CaptureMode;
  credentials: Record<string, string>;
}

export interface ConfigPatchInput {
  displayName?: string;
  isTest?: boolean;
  captureMode?: CaptureMode;
}

export function openConfigCredentials(keyring: CredentialKeyring, row: PaymentConfigRow): ProviderCredentials {
  return openCredentials<ProviderCredentials>(keyring, { sealed: row.credentialsSealed, keyVersion: row.keyVersion });
}

export function providerOf(providers: PaymentProviders, name: string): PaymentProvider {
  const provider = providers.get(name);
  if (!provider) throw errors.notFound('paymentProvider', `no payment provider named ${name}; known: ${providers.names().join(', ')}`);
  return provider;
}

function toDto(deps: ConfigDeps, row: PaymentConfigRow): PaymentConfigDto {
  let credentialFields: string[] = [];
  try {
    credentialFields = Object.keys(openConfigCredentials(deps.keyring, row)).sort();
  } catch {
    credentialFields = [];
  }
  return {
    id: row.id,
    provider: row.provider,
    displayName: row.displayName,
    isTest: row.isTest,
    isActive: row.isActive,
    captureMode: row.captureMode,
    keyVersion: row.keyVersion,
    credentialFields,
    lastHealthCheckAt: toIsoOrNull(row.lastHealthCheckAt),
    lastHealthCheckStatus: row.lastHealthCheckStatus,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

function checkCredentials(provider: PaymentProvider, credentials: Record<string, string>): void {
  const missing = provider.credentialFields.filter((f) => typeof credentials[f] !== 'string' || credentials[f].trim() === '');
  if (missing.length) {
    throw errors.unprocessable(
      'PAYMENT_CONFIG_EMPTY_CREDENTIALS',
      `The ${provider.name} provider needs: ${provider.credentialFields.join(', ')}`,
      missing.map((field) => ({ field: `credentials.${field}`, message: 'is required' })),
    );
  }
}

export async function listConfigs(deps: ConfigDeps, tenantId: string): Promise<PaymentConfigDto[]> {
  return (await repo.configsOfTenant(deps.knex, tenantId)).map((r) => toDto(deps, r));
}

export async function getConfig(deps: ConfigDeps, tenantId: string, id: string): Promise<PaymentConfigDto> {
  return toDto(deps, await repo.findConfig(deps.knex, tenantId, id));
}

export async function createConfig(deps: ConfigDeps, tenantId: string, input: ConfigCreateInput): Promise<PaymentConfigDto> {
  const provider = providerOf(deps.providers, input.provider);
  checkCredentials(provider, input.credentials);
  const sealed = sealCredentials(deps.keyring, input.credentials);
  const row = await repo.insertConfig(deps.knex, {
    tenantId,
    provider: provider.name,
    displayName: input.displayName,
    isTest: input.isTest ?? true,
    captureMode: input.captureMode ?? 'AUTO',
    isActive: false,
    credentialsSealed: sealed.sealed,
    keyVersion: sealed.keyVersion,
  });
  return toDto(deps, row);
}

export async function updateConfigFields(deps: ConfigDeps, tenantId: string, id: string, input: ConfigPatchInput): Promise<PaymentConfigDto> {
  const changes: Partial<PaymentConfigRow> = {};
  if (input.displayName !== undefined) changes.displayName = input.displayName;
  if (input.isTest !== undefined) changes.isTest = input.isTest;
  if (input.captureMode !== undefined) changes.captureMode = input.captureMode;
  if (Object.keys(changes).length === 0) return getConfig(deps, tenantId, id);
  return toDto(deps, await repo.updateConfig(deps.knex, tenantId, id, changes));
}

export async function removeConfig(deps: ConfigDeps, tenantId: string, id: string): Promise<void> {
  await repo.deleteConfig(deps.knex, tenantId, id);
}

/** One active config per tenant: the others are switched off in the same transaction (tenant's rows locked). */
export async function activateConfig(deps: ConfigDeps, tenantId: string, id: string): Promise<PaymentConfigDto> {
  const row = await deps.knex.transaction(async (trx) => {
    await trx('payment_configs').where({ tenantId }).forUpdate().select('id');
    await repo.findConfig(trx, tenantId, id);
    await repo.deactivateConfigs(trx, tenantId);
    return repo.updateConfig(trx, tenantId, id, { isActive: true });
  });
  return toDto(deps, row);
}

/** Calls the provider with the stored credentials and records when and how it went. */
export async function healthCheckConfig(deps: ConfigDeps, tenantId: string, id: string): Promise<PaymentConfigDto> {
  const row = await repo.findConfig(deps.knex, tenantId, id);
  const provider = providerOf(deps.providers, row.provider);
  let status = 'OK';
  try {
    await provider.healthCheck(openConfigCredentials(deps.keyring, row));
  } catch {
    status = 'FAILED';
  }
  return toDto(deps, await repo.updateConfig(deps.knex, tenantId, id, { lastHealthCheckAt: deps.now?.() ?? new Date(), lastHealthCheckStatus: status }));
}

/** New credentials, sealed under the current master key version, then an immediate health check. */
export async function rotateConfig(deps: ConfigDeps, tenantId: string, id: string, input: { credentials: Record<string, string> }): Promise<PaymentConfigDto> {
  const row = await repo.findConfig(deps.knex, tenantId, id);
  checkCredentials(providerOf(deps.providers, row.provider), input.credentials);
  const sealed = sealCredentials(deps.keyring, input.credentials);
  await repo.updateConfig(deps.knex, tenantId, id, { credentialsSealed: sealed.sealed, keyVersion: sealed.keyVersion });
  return healthCheckConfig(deps, tenantId, id);
}

/** Onboarding (docs/rules/salon.md#onboarding): does the tenant have an active payment config? */
export async function hasActiveConfig(db: Knex | Knex.Transaction, tenantId: string): Promise<boolean> {
  return (await repo.activeConfig(db, tenantId)) !== undefined;
}
