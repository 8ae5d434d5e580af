/**
 * What the customer's payment return page shows (`/payments/<id>/return`, where the provider's
 * hosted checkout sends the customer back): the payment, its booking, and whether the platform would
 * take a retry now (the same rule as POST /public/tenants/:slug/bookings/:id/payment/retry). The
 * payment id alone finds it, as the return address carries nothing else; nothing here changes state.
 */
import type { Db } from '../../db/db-handle';
import { errors } from '../errors';
import { tenantById } from '../tenant/tenant-context';
import { findBookingRow, itemsOf } from '../booking/booking.repository';
import type { BookingStatus } from '../booking/booking-status.rules';
import { PAYMENT_RETRY_CAP, retryRejection, type PaymentStatus } from './payment.rules';
import * as repo from './payment.repository';

export interface PaymentReturnView {
  paymentId: string;
  tenantId: string;
  slug: string;
  bookingId: string;
  /** this payment's status */
  status: PaymentStatus;
  /** the booking's latest deposit payment (a retry makes a new one) */
  latestPaymentId: string;
  latestStatus: PaymentStatus;
  amount: number;
  currency: string;
  bookingStatus: BookingStatus;
  depositStatus: string | null;
  /** what the deposit is for: the booking's services in their order, its time and the salon's zone frozen on it */
  services: string[];
  startTime: string;
  endTime: string;
  timezone: string;
  failedCount: number;
  retryable: boolean;
  retryCapReached: boolean;
  /** the provider's hosted checkout while the latest payment waits for the customer */
  checkoutUrl: string | null;
  /** why the latest payment failed: the provider did not answer (TRANSIENT) or the card was refused (PERMANENT) */
  failureKind: 'TRANSIENT' | 'PERMANENT' | null;
  /** until when the booking's time is held for a retry (a failed deposit's retry window), or for the open checkout */
  heldUntil: string | null;
  /** the latest payment's provider: the page names Vipps' reservation and refusal in its own words */
  provider: string | null;
}

export async function paymentReturnView(db: Db, paymentId: string): Promise<PaymentReturnView> {
  const payment = await repo.paymentById(db, paymentId);
  if (!payment) throw errors.notFound('payment');
  const tenant = await tenantById(db, payment.tenantId);
  const [booking, items] = await Promise.all([
    findBookingRow(db, payment.tenantId, payment.bookingId, ['status', 'depositStatus', 'startTime', 'endTime', 'metadata']),
    itemsOf(db, [payment.bookingId]),
  ]);
  const latest = (await repo.paymentsOfBooking(db, payment.tenantId, payment.bookingId)).filter((p) => p.intent === payment.intent).pop() ?? payment;
  const rejection = retryRejection({
    bookingStatus: booking.status,
    depositStatus: booking.depositStatus,
    lastPaymentStatus: latest.status,
    failedCount: latest.failedCount,
  });
  return {
    paymentId: payment.id,
    tenantId: payment.tenantId,
    slug: tenant.slug,
    bookingId: payment.bookingId,
    status: payment.status,
    latestPaymentId: latest.id,
    latestStatus: latest.status,
    amount: payment.amount,
    currency: payment.currency,
    bookingStatus: booking.status,
    depositStatus: booking.depositStatus,
    services: [...items].sort((a, b) => a.sortOrder - b.sortOrder).map((i) => i.serviceName),
    startTime: new Date(booking.startTime).toISOString(),
    endTime: new Date(booking.endTime).toISOString(),
    timezone: booking.metadata?.displaySnapshot?.timezone ?? tenant.settings.timezone,
    failedCount: latest.failedCount,
    retryable: rejection === null,
    retryCapReached: latest.status === 'FAILED' && latest.failedCount >= PAYMENT_RETRY_CAP,
    checkoutUrl: latest.status === 'INITIATED' ? latest.redirectUrl : null,
    failureKind: latest.status === 'FAILED' ? latest.failureKind : null,
    provider: latest.provider,
    heldUntil:
      booking.status === 'PENDING' && (latest.status === 'FAILED' || latest.status === 'INITIATED') && latest.expiresAt
        ? new Date(latest.expiresAt).toISOString()
        : null,
  };
}
