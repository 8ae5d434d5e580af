import { BaseModel } from './base.model';

/** bookings (migration 040). Written by domain/booking/booking-change.ts; version +1 on every change. */
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
  cancellationTokenHash!: string | null;
  allowDoubleBooking!: boolean;
  createdBy!: string | null;
  /** the signed-in customer's account (a booking made signed in, or claimed) */
  customerAccountId!: string | null;
  /** 'nb' | 'en': the language the booking was made in; its messages are written in it (migration 131) */
  language!: string;
  /** the SEQUENCE of its calendar event: raised only by changes its messages announce (migration 131) */
  calendarSequence!: number;
  /** when the customer confirmed they are coming (migration 150) */
  confirmedAt!: Date | null;
  /** 'LINK' | 'SMS' | 'STAFF' */
  confirmedVia!: string | null;
  /** when the salon was told the booking is still unconfirmed (once) */
  unconfirmedFlaggedAt!: Date | null;
  /** follows customers.erased of its customer (migration 210: the foreign key bookings_customer_not_erased_fk) */
  customerErased?: boolean;
  /** kept for the accounts without its customer's identity since (migration 210) */
  identityRemovedAt?: Date | null;
}
