import type { Pojo } from 'objection';
import { BaseModel } from './base.model';

/**
 * Columns migration 180 renamed and keeps in step with their new names until a later migration drops
 * them, for the version before it: no read returns them.
 */
export const RETIRING_BOOKING_COLUMNS = ['confirmed_at', 'confirmed_via', 'unconfirmed_flagged_at', 'cancellation_token_hash'] as const;
const RETIRING_PROPERTIES = ['confirmedAt', 'confirmedVia', 'unconfirmedFlaggedAt', 'cancellationTokenHash'];

/** bookings (migration 040). Written by domain/booking/booking-change.service.ts; version +1 on every change. */
export class BookingModel extends BaseModel {
  static override tableName = 'bookings';
  static override jsonAttributes = ['metadata'];

  tenantId!: string;
  customerId!: string | null;
  /** null = unassigned; the first item's resource */
  resourceId!: string | null;
  startTime!: Date;
  endTime!: Date;
  /** one of domain/booking/booking-status.rules.ts BOOKING_STATUSES (db/ does not import the domain) */
  status!: string;
  source!: 'PHONE' | 'ADMIN' | 'WALK_IN' | 'ONLINE';
  /** 'IN_PERSON' | 'ONLINE' */
  paymentMode!: string;
  /** minor units */
  totalAmount!: number;
  discountAmount!: number;
  appliedVoucherId!: string | null;
  cancellationFee!: number;
  depositStatus!: string | null;
  processedForLoyalty!: boolean;
  metadata!: { displaySnapshot: { timezone: string; currency: string; locale: string } } & Record<string, unknown>;
  isGuest!: boolean;
  contactName!: string | null;
  contactPhone!: string | null;
  contactEmail!: string | null;
  notes!: string | null;
  version!: number;
  cancelReason!: string | null;
  /** 'CUSTOMER' | 'SALON' | 'SYSTEM' */
  cancelledBy!: string | null;
  cancelledAt!: Date | null;
  /** the SHA-256 of the manage link's token (domain/booking/manage-link.service.ts); null: the salon made it */
  manageTokenHash!: string | null;
  allowDoubleBooking!: boolean;
  createdBy!: string | null;
  /** the signed-in customer's account (a booking made signed in, or claimed) */
  customerAccountId!: string | null;
  /** 'nb' | 'en': the language the booking was made in; its messages are written in it (migration 131) */
  language!: string;
  /** the SEQUENCE of its calendar event: raised only by changes its messages announce (migration 131) */
  calendarSequence!: number;
  /** when the customer promised to come (migrations 150, 180) */
  promisedAt!: Date | null;
  /** 'LINK' | 'SMS' | 'STAFF' */
  promisedVia!: string | null;
  /** when the salon was told the customer has not promised to come (once) */
  unpromisedFlaggedAt!: Date | null;

  /** follows customers.erased of its customer (migration 210: the foreign key bookings_customer_not_erased_fk) */
  customerErased?: boolean;
  /** kept for the accounts without its customer's identity since (migration 210) */
  identityRemovedAt?: Date | null;

  override $parseDatabaseJson(json: Pojo): Pojo {
    const parsed = super.$parseDatabaseJson(json);
    for (const retiring of RETIRING_PROPERTIES) delete parsed[retiring];
    return parsed;
  }
}
