/**
 * Payment configs (docs/rules/payments.md#payment-configs): one row per provider set-up of a tenant, credentials sealed
 * with AES-256-GCM under a versioned master key (domain/crypto/credential-cipher.ts). At most one is
 * active per tenant. Credentials never leave this file in clear except to a provider adapter; the
 * DTO names the credential fields only.
 */
import type { Db } from '../../db/db-handle';
import { nowOf, type Clock } from '../time/clock';
import { errors } from '../errors';
import crypto from 'node:crypto';
import { isUnbound, openCredentials, sealCredentials, type CredentialBinding, type CredentialKeyring } from '../crypto/credential-cipher';
import { toIso, toIsoOrNull } from '../time/iso';
import type { CaptureMode } from './payment.rules';
import { webhookUrlOf, type PaymentProvider, type PaymentProviders, type ProviderCredentials } from './payment-provider';
import * as repo from './payment.repository';
import type { PaymentConfigRow } from './payment.repository';

export interface ConfigDeps {
  knex: Db;
  keyring: CredentialKeyring;
  providers: PaymentProviders;
  now?: Clock;
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

/** What a payment config's credentials are bound to: its salon and its id (docs/rules/auth.md#provider-credentials-at-rest). */
export function paymentConfigBinding(row: { tenantId: string; id: string }): CredentialBinding {
  return `payment_configs/${row.tenantId}/${row.id}`;
}

export function openConfigCredentials(keyring: CredentialKeyring, row: PaymentConfigRow): ProviderCredentials {
  return openCredentials<ProviderCredentials>(keyring, { sealed: row.credentialsSealed, keyVersion: row.keyVersion }, paymentConfigBinding(row));
}

/** Migrate: every payment config sealed before blobs were bound to their rows is sealed again, bound (one row per transaction). */
export async function resealUnboundPaymentCredentials(db: Db, keyring: CredentialKeyring): Promise<number> {
  let resealed = 0;
  for (const { id, tenantId } of await repo.configsSealedBefore(db, 'v2:')) {
    await db.transaction(async (trx) => {
      const row = await repo.lockConfig(trx, tenantId, id);
      if (!row || !isUnbound(row.credentialsSealed)) return;
      const sealed = sealCredentials(keyring, openConfigCredentials(keyring, row), paymentConfigBinding(row));
      await repo.updateConfig(trx, tenantId, id, { credentialsSealed: sealed.sealed, keyVersion: sealed.keyVersion });
      resealed += 1;
    });
  }
  return resealed;
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
  const id = crypto.randomUUID();
  const sealed = sealCredentials(deps.keyring, input.credentials, paymentConfigBinding({ tenantId, id }));
  const row = await repo.insertConfig(deps.knex, {
    id,
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

/**
 * One active config per tenant: the others are switched off in the same transaction (tenant's rows
 * locked). A provider whose webhooks are registered through its API (Vipps) is checked first when
 * its webhooks are not registered yet: a config that cannot be told its payments is not made active
 * (422 PAYMENT_CONFIG_NOT_CONNECTED).
 */
export async function activateConfig(deps: ConfigDeps, tenantId: string, id: string): Promise<PaymentConfigDto> {
  const candidate = await repo.findConfig(deps.knex, tenantId, id);
  const provider = providerOf(deps.providers, candidate.provider);
  if (provider.registerWebhooks && !openConfigCredentials(deps.keyring, candidate).webhookSecret) {
    const checked = await healthCheckConfig(deps, tenantId, id);
    if (checked.lastHealthCheckStatus !== 'OK')
      throw errors.unprocessable(
        'PAYMENT_CONFIG_NOT_CONNECTED',
        `The ${provider.name} config could not be checked or its webhooks registered; check its credentials`,
      );
  }
  const row = await deps.knex.transaction(async (trx) => {
    await repo.lockConfigsOfTenant(trx, tenantId);
    await repo.findConfig(trx, tenantId, id);
    await repo.deactivateConfigs(trx, tenantId);
    return repo.updateConfig(trx, tenantId, id, { isActive: true });
  });
  return toDto(deps, row);
}

/**
 * Calls the provider with the stored credentials and records when and how it went. A provider whose
 * webhooks are registered through its API (Vipps) has them registered for the salon's address too,
 * and the registration's secret is sealed with the credentials (docs/rules/payments.md#vipps-mobilepay).
 */
export async function healthCheckConfig(deps: ConfigDeps, tenantId: string, id: string): Promise<PaymentConfigDto> {
  const row = await repo.findConfig(deps.knex, tenantId, id);
  const provider = providerOf(deps.providers, row.provider);
  let status = 'OK';
  let credentials: ProviderCredentials | undefined;
  let registered: ProviderCredentials | undefined;
  try {
    // credentials that do not open here (sealed for another row) fail the check like wrong ones
    credentials = openConfigCredentials(deps.keyring, row);
    await provider.healthCheck(credentials);
    if (provider.registerWebhooks) registered = await provider.registerWebhooks(credentials, webhookUrlOf(deps.providers, provider.name, tenantId));
  } catch {
    status = 'FAILED';
  }
  const changes: Partial<PaymentConfigRow> = { lastHealthCheckAt: nowOf(deps), lastHealthCheckStatus: status };
  if (status === 'OK' && registered && registered !== credentials) {
    const sealed = sealCredentials(deps.keyring, registered, paymentConfigBinding(row));
    Object.assign(changes, { credentialsSealed: sealed.sealed, keyVersion: sealed.keyVersion });
  }
  return toDto(deps, await repo.updateConfig(deps.knex, tenantId, id, changes));
}

/**
 * New credentials, sealed under the current master key version, then an immediate health check. The
 * webhook registration the old credentials held is kept with the new ones (the health check keeps
 * it when the provider still has it, and registers anew when it does not).
 */
export async function rotateConfig(deps: ConfigDeps, tenantId: string, id: string, input: { credentials: Record<string, string> }): Promise<PaymentConfigDto> {
  const row = await repo.findConfig(deps.knex, tenantId, id);
  const provider = providerOf(deps.providers, row.provider);
  checkCredentials(provider, input.credentials);
  const registration = provider.registerWebhooks ? registrationOf(openConfigCredentials(deps.keyring, row)) : {};
  const sealed = sealCredentials(deps.keyring, { ...input.credentials, ...registration }, paymentConfigBinding(row));
  await repo.updateConfig(deps.knex, tenantId, id, { credentialsSealed: sealed.sealed, keyVersion: sealed.keyVersion });
  return healthCheckConfig(deps, tenantId, id);
}

/** The webhook registration fields a config's credentials hold (providers that register webhooks). */
function registrationOf(credentials: ProviderCredentials): ProviderCredentials {
  const { webhookId, webhookSecret, webhookUrl } = credentials;
  return webhookId && webhookSecret && webhookUrl ? { webhookId, webhookSecret, webhookUrl } : {};
}

/** Onboarding (docs/rules/salon.md#onboarding): does the tenant have an active payment config? */
export async function hasActiveConfig(db: Db, tenantId: string): Promise<boolean> {
  return (await repo.activeConfig(db, tenantId)) !== undefined;
}
