// The payment providers the platform knows, configured from the environment (config/index.ts):
// ePay, the default provider (EPAY_WINDOW_URL, EPAY_API_URL), Vipps MobilePay (VIPPS_API_URL), the sandbox (PAYMENT_SANDBOX_URL)
// and where providers post webhooks (PAYMENT_WEBHOOK_BASE_URL).
import type { PaymentProvider, PaymentProviders } from '../../domain/payments/payment-provider';
import { SandboxProvider } from './sandbox/sandbox-provider';
import { EpayProvider } from './epay/epay-provider';
import { VippsProvider } from './vipps/vipps-provider';

/** Vipps MobilePay's production API; its test environment is https://apitest.vipps.no. */
export const VIPPS_PRODUCTION_URL = 'https://api.vipps.no';

export interface PaymentProviderSettings {
  sandboxUrl?: string;
  /** ePay Payment Window and payment webservice (the default provider) */
  epay: { windowUrl: string; apiUrl: string };
  /** Vipps MobilePay's ePayment, Access Token and Webhooks APIs (unset: production) */
  vipps?: { apiUrl?: string };
  webhookBaseUrl: string;
  returnBaseUrl: string;
}

export function createPaymentProviders(settings: PaymentProviderSettings): PaymentProviders {
  const all = new Map<string, PaymentProvider>();
  all.set('epay', new EpayProvider(settings.epay));
  all.set('vipps', new VippsProvider(settings.vipps?.apiUrl ?? VIPPS_PRODUCTION_URL));
  if (settings.sandboxUrl) all.set('sandbox', new SandboxProvider(settings.sandboxUrl.replace(/\/$/, '')));
  return {
    get: (name) => all.get(name),
    names: () => [...all.keys()],
    webhookBaseUrl: settings.webhookBaseUrl.replace(/\/$/, ''),
    returnBaseUrl: settings.returnBaseUrl.replace(/\/$/, ''),
  };
}
