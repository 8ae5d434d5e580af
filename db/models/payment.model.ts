import { BaseModel } from './base.model';

/**
 * payments (migration 050): one deposit or remaining payment of a booking. Written by
 * domain/payments/payment-change.ts; version + 1 on every change. The string columns hold the
 * domain's enums (domain/payments/payment.rules.ts; db/ does not import the domain).
 */
export class PaymentModel extends BaseModel {
  static override tableName = 'payments';

  tenantId!: string;
  bookingId!: string;
  configId!: string | null;
  provider!: string | null;
  /** 'DEPOSIT' | 'REMAINING' */
  intent!: string;
  /** 'AUTO' | 'MANUAL' */
  captureMode!: string;
  status!: string;
  /** minor units, like the other amounts */
  amount!: number;
  capturedAmount!: number;
  refundedAmount!: number;
  currency!: string;
  idempotencyKey!: string;
  providerSessionId!: string | null;
  providerTransactionId!: string | null;
  redirectUrl!: string | null;
  expiresAt!: Date | null;
  failedCount!: number;
  /** 'TRANSIENT' | 'PERMANENT' */
  failureKind!: string | null;
  failureReason!: string | null;
  captureRequestedAt!: Date | null;
  voidRequestedAt!: Date | null;
  authorizedAt!: Date | null;
  capturedAt!: Date | null;
  version!: number;
}
