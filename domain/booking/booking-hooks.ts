/**
 * The port through which a booking change reaches the areas that react to bookings: payments (the
 * deposit), loyalty (the voucher), standing appointments (the booking a series was made from) and
 * the waitlist (time freed). Each call runs inside the change's
 * transaction, before it commits, so a failure rolls the booking change back with it. Those areas sit
 * above booking in the order of domain areas (CONTRIBUTING.md#the-order-of-domain-areas): booking
 * imports none of them, the composition root fills this port with their functions
 * (composition/domain-hooks.ts).
 */
import type { Db, Transaction } from '../../db/db-handle';
import type { TenantContext } from '../tenant/tenant-context';
import type { PhoneRegion } from '../phone/phone.rules';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import type { ActorRole } from './booking-status.rules';
import type { CancellationDecision, DepositState } from './cancellation.rules';

/** Who made the change, as the reacting areas record it. */
export interface HookActor {
  userId: string | null;
  role: ActorRole;
}

/** Why a booking's time became free (docs/rules/waitlist.md#when-time-frees-up). */
export type BookingFreedCause = 'CANCELLED' | 'NO_SHOW' | 'MOVED';

/** The time a booking held and gave up. */
export interface FreedTime {
  tenantId: string;
  /** null: any staff member (an unassigned booking) */
  resourceId: string | null;
  start: Date;
  end: Date;
  cause: BookingFreedCause;
}

/** The booking a deposit is decided for. */
export interface DepositBooking {
  id: string;
  tenantId: string;
  paymentMode: string;
  totalAmount: number;
  discountAmount: number;
  /** a booking further ahead than a reservation can be held has its deposit requested later */
  startTime: Date;
}

/** A booking just cancelled, and by whom (bookings.cancelled_by). */
export interface CancelledBooking {
  tenantId: string;
  bookingId: string;
  by: 'SALON' | 'CUSTOMER' | 'SYSTEM';
}

/** The deposit a cancellation's refund policy weighs (docs/rules/payments.md#refunds). */
export interface DepositForCancellation {
  deposit: DepositState;
  alreadyRefunded: number;
  /** the deposit payment, when there is one */
  paymentId: string | null;
}

export interface BookingHooks {
  /**
   * A signed-in customer's new booking (docs/rules/customers.md#linking-an-account): the salon's
   * customer record it is for (the one linked to the account, else the one with the booking's
   * phone, made when new), and whether that record is the account's own: linked, or linked now
   * because the account proved the phone (an e-mail proves nothing). Only the account's own
   * record's vouchers are the customer's to use.
   */
  accountCustomer(
    trx: Transaction,
    input: { tenantId: string; region: PhoneRegion; accountId: string; contact: { name: string; phone: string; email?: string | null } },
  ): Promise<{ customerId: string; ownedByAccount: boolean }>;
  /**
   * A new booking with a voucher code (docs/rules/loyalty.md#applying-a-voucher): the voucher is
   * reserved for it when it belongs to `customerId` (null: no customer may use it); answers the
   * booking's appliedVoucherId and discountAmount.
   */
  reserveVoucher(
    trx: Db,
    signaller: EntitySignaller,
    input: { tenantId: string; code: string; customerId: string | null; bookingId: string; bookingTotal: number; actor: HookActor; now: Date },
  ): Promise<{ appliedVoucherId: string; discountAmount: number }>;
  /** A new booking (docs/rules/payments.md#deposits): the deposit it owes, if any; answers whether the customer must pay and its depositStatus. */
  startDeposit(
    signaller: EntitySignaller,
    trx: Transaction,
    tenant: TenantContext,
    booking: DepositBooking,
    now: Date,
  ): Promise<{ paymentRequired: boolean; depositStatus: string | null }>;
  /** Before a cancellation is decided (and for its preview): the deposit its policy weighs. */
  depositForCancellation(trx: Transaction, tenantId: string, bookingId: string): Promise<DepositForCancellation>;
  /**
   * A cancellation (docs/rules/loyalty.md#vouchers): the voucher reserved for the booking comes back,
   * or goes with a kept deposit (`forfeited`); answers the booking columns the cancellation writes with it.
   */
  releaseVoucher(
    trx: Db,
    signaller: EntitySignaller,
    booking: { id: string; tenantId: string; appliedVoucherId: string | null },
    forfeited: boolean,
    actor: HookActor,
    now: Date,
  ): Promise<{ appliedVoucherId?: null; discountAmount?: number }>;
  /** A cancellation, after its row is written: the refund, void or capture its policy decided (docs/rules/payments.md#refunds). */
  cancelled(
    signaller: EntitySignaller,
    trx: Transaction,
    tenantId: string,
    bookingId: string,
    paymentId: string | null,
    decision: CancellationDecision,
    actor: HookActor,
    now: Date,
  ): Promise<void>;
  /**
   * A cancellation, after its row is written and payments heard of it
   * (docs/rules/series.md#changing-cancelling-ending): a standing appointment made from the booking
   * ends when the salon or the platform cancelled it.
   */
  bookingCancelled(signaller: EntitySignaller, trx: Transaction, cancelled: CancelledBooking, now: Date): Promise<void>;
  /** A new status (docs/rules/payments.md#capture): arrival, completion or no-show captures an authorized manual-capture deposit. */
  statusChanged(signaller: EntitySignaller, trx: Transaction, tenantId: string, bookingId: string, status: string, now: Date): Promise<void>;
  /** The booking gave up time it held (docs/rules/waitlist.md#when-time-frees-up): the waitlist may offer it. */
  timeFreed(signaller: EntitySignaller, trx: Transaction, freed: FreedTime): Promise<void>;
  /** A booking's details (docs/rules/payments.md#booking-deposit-status): the minor units paid online for it and not refunded. */
  paidAmount(db: Db, tenantId: string, bookingId: string): Promise<number>;
}
