/**
 * The port through which the tenant area reaches the areas above it in the order of domain areas
 * (CONTRIBUTING.md#the-order-of-domain-areas): the staff schedules (resource), the standing
 * appointments (series), the waitlist and payments. Tenant imports none of them; the composition root fills this port with their functions
 * (composition/domain-hooks.ts). The calls that change something run inside the tenant change's
 * transaction, so a failure rolls the tenant change back with it.
 */
import type { Db, Transaction } from '../../db/db-handle';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import type { LocalDate } from '../time/salon-time.rules';
import type { BusinessHoursDay } from './tenant-settings.rules';

/** What grew a staff member's (or everyone's) working time (docs/rules/waitlist.md#when-time-frees-up). */
export type WorkingTimeCause = 'HOURS_CHANGED' | 'SCHEDULE_CHANGED' | 'TIME_OFF_CHANGED';

/** Working time that may have grown: a staff member's (or everyone's, null) on these dates or weekdays. */
export interface GrownWorkingTime {
  tenantId: string;
  resourceId: string | null;
  cause: WorkingTimeCause;
  /** salon-local dates (inclusive); unset: from today to the end of the booking window */
  from?: LocalDate;
  to?: LocalDate;
  /** only these days of the week (0 = Sunday); unset: every day */
  weekdays?: readonly number[];
}

/** Working time may have grown, so the waitlist may offer it; in the caller's transaction. */
export type WorkingTimeGrew = (signaller: EntitySignaller, trx: Transaction, grown: GrownWorkingTime, now: Date) => Promise<void>;

export interface TenantHooks {
  /**
   * PATCH /tenants/:id with `applyToStaff` (docs/rules/salon.md#business-hours): every staff member's
   * weekly schedule becomes the salon's business hours (all seven days given), in the tenant update's transaction.
   */
  applyBusinessHoursToStaff(trx: Db, tenantId: string, businessHours: BusinessHoursDay[]): Promise<void>;
  /** Longer business hours on some weekdays. */
  workingTimeGrew: WorkingTimeGrew;
  /**
   * The salon's booking window grew (docs/rules/series.md#its-workflow): the standing appointments
   * book the occurrences now inside it at once; in the tenant update's transaction.
   */
  bookingWindowGrew(signaller: EntitySignaller, trx: Transaction, tenantId: string): Promise<void>;
  /** The onboarding warning (docs/rules/salon.md#onboarding): does the salon have an active payment-provider configuration? */
  hasActivePaymentConfig(db: Db, tenantId: string): Promise<boolean>;
  /** The launch's facts of the catalogue and the staff (docs/rules/salon.md#launch). */
  launchReadiness(db: Db, tenantId: string): Promise<{ hasBookableService: boolean; hasReadyStaff: boolean }>;
}
