import type { Pojo } from 'objection';
import { BaseModel } from './base.model';

/** A settings key migration 180 renamed (now unpromisedFlagHoursBefore) and keeps in step for the version before it: no read returns it. */
const RETIRING_SETTINGS_KEY = 'unconfirmedFlagHoursBefore';

export interface OnboardingState {
  currentStep: number;
  completedSteps: string[];
}

export class TenantModel extends BaseModel {
  static override tableName = 'tenants';
  static override jsonAttributes = ['settings', 'branding', 'address', 'onboarding'];

  name!: string;
  slug!: string;
  industryType!: 'beauty' | 'nail' | 'barbershop';
  /** JSON; its shape is domain/tenant/tenant-settings.rules.ts TenantSettings (db/ does not import the domain) */
  settings!: object;
  branding!: Record<string, unknown>;
  description!: string | null;
  address!: Record<string, unknown> | null;
  customDomain!: string | null;
  isActive!: boolean;
  onboarding!: OnboardingState;
  onboardedAt!: Date | null;
  /** listed and bookable online from then on (docs/rules/salon.md#launch); null: not launched */
  launchedAt!: Date | null;
  /** how customers reach the salon: E.164 phone and e-mail (docs/rules/salon.md#tenant) */
  contactPhone!: string | null;
  contactEmail!: string | null;
  subscriptionStatus!: string | null;
  trialEndsAt!: Date | null;
  billingExempt!: boolean;
  /** bumped by every api change of the tenant's subscription (the subscription workflow's entity version) */
  subscriptionVersion!: number;

  override $parseDatabaseJson(json: Pojo): Pojo {
    const parsed = super.$parseDatabaseJson(json);
    if (parsed.settings && typeof parsed.settings === 'object') delete (parsed.settings as Record<string, unknown>)[RETIRING_SETTINGS_KEY];
    return parsed;
  }
}
