// The payment providers the platform knows, configured from the environment (config/index.ts):
// the sandbox (PAYMENT_SANDBOX_URL) and where providers post webhooks (PAYMENT_WEBHOOK_BASE_URL).
import type { PaymentProvider, PaymentProviders } from '../../domain/payments/payment-provider';
import { SandboxProvider } from './sandbox/sandbox-provider';

export interface PaymentProviderSettings {
  sandboxUrl?: string;
  webhookBaseUrl: string;
  returnBaseUrl: string;
}

export function createPaymentProviders(settings: PaymentProviderSettings): PaymentProviders {
  const all = new Map<string, PaymentProvider>();
  if (settings.sandboxUrl) all.set('sandbox', new SandboxProvider(settings.sandboxUrl.replace(/\/$/, '')));
  return {
    get: (name) => all.get(name),
    names: () => [...all.keys()],
    webhookBaseUrl: settings.webhookBaseUrl.replace(/\/$/, ''),
    returnBaseUrl: settings.returnBaseUrl.replace(/\/$/, ''),
  };
}
