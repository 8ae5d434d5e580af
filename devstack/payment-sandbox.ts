// The demo salon's payment configs on `npm start`: the embedded sandbox provider's, and Vipps
// MobilePay's against the embedded Vipps sandbox (checked, so its webhooks are registered), the
// active one, capturing when the customer arrives. Deposits are then one PATCH of the salon's
// settings away (`depositEnabled: true`). Production never imports this: there a salon's owner adds
// their own provider's config.
import crypto from 'node:crypto';
import type { ConfigDeps } from '../domain/payments/payment-config.service';
import { activateConfig, createConfig } from '../domain/payments/payment-config.service';
import { vippsSandboxSalesUnit } from './vipps-sandbox-server';

/** A sandbox API key: `sk_test_` and at least 8 letters or digits (what the sandbox accepts). */
export function sandboxPaymentKey(): string {
  return `sk_test_${crypto.randomBytes(12).toString('hex')}`;
}

/** Adds the sandbox config, and the Vipps config when the Vipps sandbox runs, for the (just seeded) demo salon; activates Vipps's, or else the sandbox's. */
export async function giveDemoSalonSandboxPayments(deps: ConfigDeps, tenantId: string, options: { vipps: boolean }): Promise<void> {
  const sandbox = await createConfig(deps, tenantId, {
    provider: 'sandbox',
    displayName: 'Sandkasse',
    isTest: true,
    captureMode: 'AUTO',
    credentials: { apiKey: sandboxPaymentKey() },
  });
  if (!options.vipps) {
    await activateConfig(deps, tenantId, sandbox.id);
    return;
  }
  const vipps = await createConfig(deps, tenantId, {
    provider: 'vipps',
    displayName: 'Vipps MobilePay (sandkasse)',
    isTest: true,
    captureMode: 'MANUAL',
    credentials: vippsSandboxSalesUnit(),
  });
  await activateConfig(deps, tenantId, vipps.id);
}
