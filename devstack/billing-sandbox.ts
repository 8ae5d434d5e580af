// The sandbox billing provider for `npm start` and the tests (devstack/billing-sandbox-server.ts)
// and the billing config row that points at it. Production never imports this: there the billing
// configs are rows the super-admin creates (`/superadmin/billing-configs`).
import crypto from 'node:crypto';
import type { Db } from '../db/db-handle';
import { activeConfig, findConfigByMode, insertConfig, lockConfigTable, updateConfig } from '../domain/billing/billing-config.repository';
import type { CredentialKeyring } from '../domain/crypto/credential-cipher';
import { sealCredentials } from '../domain/crypto/credential-cipher';
import { billingConfigBinding } from '../domain/billing/billing-config.service';
import { startSandboxBilling, type SandboxBillingServer } from './billing-sandbox-server';

export function sandboxSecrets(): { apiKey: string; webhookSecret: string } {
  return { apiKey: `sk_sandbox_${crypto.randomBytes(12).toString('hex')}`, webhookSecret: `whsec_${crypto.randomBytes(24).toString('base64')}` };
}

export async function startBillingSandbox(webhookUrl?: string): Promise<{ server: SandboxBillingServer; apiKey: string; webhookSecret: string }> {
  const secrets = sandboxSecrets();
  const server = await startSandboxBilling({ ...secrets, webhookUrl });
  return { server, ...secrets };
}

/**
 * Points the sandbox config row (test mode) at this run's sandbox server and its fresh secrets,
 * creating it when missing, and activates it when no config is active (the embedded default).
 */
export async function useSandboxBillingConfig(
  db: Db,
  keyring: CredentialKeyring,
  sandbox: { server: SandboxBillingServer; apiKey: string; webhookSecret: string },
): Promise<void> {
  await db.transaction(async (trx) => {
    await lockConfigTable(trx);
    const existing = await findConfigByMode(trx, 'sandbox', true);
    const id = existing?.id ?? crypto.randomUUID();
    const { sealed, keyVersion } = sealCredentials(keyring, { apiKey: sandbox.apiKey, webhookSecret: sandbox.webhookSecret }, billingConfigBinding(id));
    const fields = { apiBaseUrl: sandbox.server.url, sealedCredentials: sealed, keyVersion };
    const row = existing
      ? await updateConfig(trx, existing.id, fields)
      : await insertConfig(trx, { id, provider: 'sandbox', isTest: true, displayName: 'Sandkasse', storeId: null, storeDomain: null, ...fields });
    if (!(await activeConfig(trx))) await updateConfig(trx, row.id, { isActive: true });
  });
}
