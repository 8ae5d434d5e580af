// Payment rows to API shapes (docs/rules/payments.md#payment-statuses). Money in integer minor units; times UTC ISO.
import { toIso, toIsoOrNull } from '../time/iso';
import type { PaymentEventRow, PaymentRow, RefundRow } from './payment.repository';

export interface PaymentDto {
  id: string;
  bookingId: string;
  intent: string;
  captureMode: string;
  status: string;
  amount: number;
  capturedAmount: number;
  refundedAmount: number;
  currency: string;
  provider: string | null;
  providerSessionId: string | null;
  providerTransactionId: string | null;
  redirectUrl: string | null;
  expiresAt: string | null;
  failedCount: number;
  failureKind: string | null;
  failureReason: string | null;
  captureRequestedAt: string | null;
  voidRequestedAt: string | null;
  authorizedAt: string | null;
  capturedAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export function paymentDto(p: PaymentRow): PaymentDto {
  return {
    id: p.id,
    bookingId: p.bookingId,
    intent: p.intent,
    captureMode: p.captureMode,
    status: p.status,
    amount: p.amount,
    capturedAmount: p.capturedAmount,
    refundedAmount: p.refundedAmount,
    currency: p.currency,
    provider: p.provider,
    providerSessionId: p.providerSessionId,
    providerTransactionId: p.providerTransactionId,
    redirectUrl: p.redirectUrl,
    expiresAt: toIsoOrNull(p.expiresAt),
    failedCount: p.failedCount,
    failureKind: p.failureKind,
    failureReason: p.failureReason,
    captureRequestedAt: toIsoOrNull(p.captureRequestedAt),
    voidRequestedAt: toIsoOrNull(p.voidRequestedAt),
    authorizedAt: toIsoOrNull(p.authorizedAt),
    capturedAt: toIsoOrNull(p.capturedAt),
    version: p.version,
    createdAt: toIso(p.createdAt),
    updatedAt: toIso(p.updatedAt),
  };
}

export function paymentDetailDto(p: PaymentRow, events: PaymentEventRow[], refunds: RefundRow[]) {
  return {
    ...paymentDto(p),
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      amount: e.amount,
      actorRole: e.actorRole,
      data: e.data,
      createdAt: toIso(e.createdAt),
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      amount: r.amount,
      reason: r.reason,
      status: r.status,
      providerRefundId: r.providerRefundId,
      completedAt: toIsoOrNull(r.completedAt),
      createdAt: toIso(r.createdAt),
    })),
  };
}

/** What the customer's browser needs to pay (GET /public/tenants/:slug/bookings/:bookingId/payment). */
export function publicPaymentDto(p: PaymentRow) {
  return {
    paymentId: p.id,
    bookingId: p.bookingId,
    status: p.status,
    amount: p.amount,
    currency: p.currency,
    provider: p.provider,
    redirectUrl: p.status === 'INITIATED' ? p.redirectUrl : null,
    expiresAt: toIsoOrNull(p.expiresAt),
    failedCount: p.failedCount,
  };
}
