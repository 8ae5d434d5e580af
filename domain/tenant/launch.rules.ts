/**
 * What keeps a salon from taking bookings online (docs/rules/salon.md#launch): the onboarding's review
 * step lists it, and launching is refused while anything is listed. Pure: the facts of the upper areas
 * (services, staff, payments) come in, through TenantHooks.
 *
 * depositBlockers is the part about deposits, on its own, for every change that could make online
 * booking impossible (the settings' deposit switch, a payment configuration going away).
 */
import type { TenantSettings } from './tenant-settings.rules';
import { isOpenDay } from './tenant-settings.rules';

export type LaunchBlockerCode = 'NO_BOOKABLE_SERVICE' | 'NO_READY_STAFF' | 'NO_BUSINESS_HOURS' | 'DEPOSIT_WITHOUT_PAYMENT_CONFIG' | 'DEPOSIT_ZERO';

export interface LaunchBlocker {
  code: LaunchBlockerCode;
  message: string;
}

/** What the upper areas know about a salon's readiness. */
export interface LaunchFacts {
  /** an active service */
  hasBookableService: boolean;
  /** an active, online-bookable staff member with an active weekly slot and a skill for an active service */
  hasReadyStaff: boolean;
  hasActivePaymentConfig: boolean;
}

/** Deposits that online booking cannot take: on with no active payment configuration, or on at 0. */
export function depositBlockers(settings: Pick<TenantSettings, 'depositEnabled' | 'depositValue'>, hasActivePaymentConfig: boolean): LaunchBlocker[] {
  if (!settings.depositEnabled) return [];
  const out: LaunchBlocker[] = [];
  if (!hasActivePaymentConfig)
    out.push({ code: 'DEPOSIT_WITHOUT_PAYMENT_CONFIG', message: 'Deposits are on, but no payment configuration is active: customers could not pay them' });
  if (!(settings.depositValue > 0)) out.push({ code: 'DEPOSIT_ZERO', message: 'Deposits are on with a deposit of 0: set its value, or turn deposits off' });
  return out;
}

/** Everything that blocks the salon's launch, in the order the review step shows it; empty when it may launch. */
export function launchBlockers(settings: TenantSettings, facts: LaunchFacts): LaunchBlocker[] {
  const out: LaunchBlocker[] = [];
  if (!facts.hasBookableService) out.push({ code: 'NO_BOOKABLE_SERVICE', message: 'No active service: add the services customers book' });
  if (!facts.hasReadyStaff)
    out.push({
      code: 'NO_READY_STAFF',
      message: 'No staff member bookable online with a weekly schedule and an active service among their skills: customers could book nobody',
    });
  if (![0, 1, 2, 3, 4, 5, 6].some((day) => isOpenDay(settings.businessHours, day)))
    out.push({ code: 'NO_BUSINESS_HOURS', message: 'The salon has no open day in its business hours' });
  out.push(...depositBlockers(settings, facts.hasActivePaymentConfig));
  return out;
}
