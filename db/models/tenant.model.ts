import { BaseModel } from './base.model';
import type { TenantSettings } from '../../domain/tenant/tenant-settings.rules';

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
  settings!: TenantSettings;
  branding!: Record<string, unknown>;
  description!: string | null;
  address!: Record<string, unknown> | null;
  customDomain!: string | null;
  isActive!: boolean;
  onboarding!: OnboardingState;
  onboardedAt!: Date | null;
  subscriptionStatus!: string | null;
  trialEndsAt!: Date | null;
  billingExempt!: boolean;
}
