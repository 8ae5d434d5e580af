// The demo salon's payment config on `npm start`: an active config of the embedded sandbox payment
// provider, so deposits are one PATCH of the salon's settings away (`depositEnabled: true`).
// Production never imports this: there a salon's owner adds their own provider's config.
import crypto from 'node:crypto';
import type { ConfigDeps } from '../domain/payments/payment-config.service';
import { activateConfig, createConfig } from '../domain/payments/payment-config.service';

/** A sandbox API key: `sk_test_` and at least 8 letters or digits (what the sandbox accepts). */
export function sandboxPaymentKey(): string {
  return `sk_test_${crypto.randomBytes(12).toString('hex')}`;
}

/** Adds and activates a sandbox config for the (just seeded) demo salon. */
export async function giveDemoSalonSandboxPayments(deps: ConfigDeps, tenantId: string): Promise<void> {
  const config = await createConfig(deps, tenantId, {
    provider: 'sandbox',
    displayName: 'Sandkasse',
    isTest: true,
    captureMode: 'AUTO',
    credentials: { apiKey: sandboxPaymentKey() },
  });
  await activateConfig(deps, tenantId, config.id);
}
