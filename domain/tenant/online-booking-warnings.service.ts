/**
 * Settings that make online booking impossible, or deposits meaningless (docs/rules/salon.md#online-booking-warnings):
 * deposits on without an active payment configuration (nobody can pay, so no deposit booking can be
 * made), and deposits on with a deposit of 0 (nothing is taken). The one check the settings PATCH
 * answers with, the onboarding review lists, and the launch review can block on.
 */
import type { Db } from '../../db/db-handle';
import type { TenantHooks } from './tenant-hooks';
import type { TenantSettings } from './tenant-settings.rules';
import { depositBlockers } from './launch.rules';

export interface OnlineBookingWarning {
  code: 'DEPOSIT_WITHOUT_PAYMENT_CONFIG' | 'DEPOSIT_ZERO';
  message: string;
}

export async function onlineBookingWarnings(
  db: Db,
  hooks: Pick<TenantHooks, 'hasActivePaymentConfig'>,
  tenantId: string,
  settings: Pick<TenantSettings, 'depositEnabled' | 'depositValue'>,
): Promise<OnlineBookingWarning[]> {
  if (!settings.depositEnabled) return [];
  // the launch's own deposit check, so a settings change and the launch never disagree
  return depositBlockers(settings, await hooks.hasActivePaymentConfig(db, tenantId)) as OnlineBookingWarning[];
}
