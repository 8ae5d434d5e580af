// Plans and plan features (docs/rules/billing.md#plans-and-features): the rules a plan must satisfy, and feature values by their
// value type. Pure: no I/O.
import { errors, type ErrorDetail } from '../errors';

export const BILLING_CYCLES = ['monthly', 'yearly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

export const FEATURE_CATEGORIES = ['bookings', 'customers', 'marketing', 'branding', 'payments', 'reports', 'integrations', 'support'] as const;
export type FeatureCategory = (typeof FEATURE_CATEGORIES)[number];

export const FEATURE_VALUE_TYPES = ['boolean', 'number', 'string'] as const;
export type FeatureValueType = (typeof FEATURE_VALUE_TYPES)[number];

/** Platform default when a plan's `trialDays` is null (docs/rules/billing.md#trial). */
export const DEFAULT_TRIAL_DAYS = 14;

export interface PlanPricing {
  flatPriceMinor: number | null;
  pricePerSeatMinor: number | null;
  selfServeCheckout: boolean;
}

/**
 * A plan has a flat price or a per-seat price, never both; a self-serve plan needs one of them, and a
 * contact-sales tier (`selfServeCheckout=false`) may have none. 400 VALIDATION_ERROR naming the fields.
 */
export function assertValidPricing(plan: PlanPricing): void {
  const details: ErrorDetail[] = [];
  if (plan.flatPriceMinor !== null && plan.pricePerSeatMinor !== null) {
    details.push({ field: 'pricePerSeatMinor', message: 'a plan has either flatPriceMinor or pricePerSeatMinor, not both' });
  }
  if (plan.selfServeCheckout && plan.flatPriceMinor === null && plan.pricePerSeatMinor === null) {
    details.push({
      field: 'flatPriceMinor',
      message: 'a self-serve plan needs flatPriceMinor or pricePerSeatMinor (or set selfServeCheckout=false for contact sales)',
    });
  }
  if (details.length) throw errors.validation('Invalid plan pricing', details);
}

/** The stored junction value of a feature toggle: undefined = no row (a disabled boolean feature). */
export function storedFeatureValue(valueType: FeatureValueType, value: unknown, field: string): string | null | undefined {
  switch (valueType) {
    case 'boolean':
      if (value === true || value === undefined || value === null) return null;
      if (value === false) return undefined;
      break;
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return value;
      break;
    case 'string':
      if (typeof value === 'string' && value.trim() !== '') return value;
      break;
  }
  throw errors.validation('Invalid feature value', [{ field, message: `must be a ${valueType}` }]);
}

/** The API value of a stored junction row. */
export function featureValueOut(valueType: FeatureValueType, stored: string | null): boolean | number | string {
  if (valueType === 'boolean') return true;
  if (valueType === 'number') return Number(stored);
  return stored ?? '';
}

/** Trial length of a plan: its own `trialDays`, else the platform's 14. */
export function trialDaysOf(plan: { trialDays: number | null } | undefined): number {
  return plan?.trialDays ?? DEFAULT_TRIAL_DAYS;
}
