// What the voucher workflow may ask of the outside world (types only for the workflow).
import type { VoucherStatus } from '../domain/loyalty/loyalty.rules';
import type { VoucherMessageKind } from '../domain/notifications/voucher-messages.rules';
import type { DeliveryOutcome } from './booking.types';

export interface VoucherSnapshot {
  voucherId: string;
  tenantId: string;
  status: VoucherStatus;
  version: number;
  /** UTC ISO string; null = never expires */
  expiresAt: string | null;
  /** how often it went back from RESERVED to ACTIVE: the workflow may see only the latest state */
  restoredCount: number;
}

export interface VoucherMessageRequest {
  voucherId: string;
  kind: VoucherMessageKind;
  /** e.g. `ISSUED`, or `RESTORED:<n>` (the n-th restore) so a voucher restored twice is told twice */
  dedupeKey: string;
}

export interface VoucherActivities {
  /** Committed state of the voucher, once it has reached `minVersion` (retried until then). */
  readVoucher(input: { voucherId: string; minVersion: number }): Promise<VoucherSnapshot>;
  /** ACTIVE -> EXPIRED when expiresAt <= `at` (epoch ms of the workflow clock). */
  expireVoucher(input: { voucherId: string; at: number }): Promise<'EXPIRED' | 'NOT_DUE' | 'NOT_ACTIVE'>;
  sendVoucherSms(input: VoucherMessageRequest): Promise<DeliveryOutcome>;
  sendVoucherEmail(input: VoucherMessageRequest): Promise<DeliveryOutcome>;
}

export const VoucherActivityErrors = {
  notFound: 'LOYALTY_VOUCHER_NOT_FOUND',
  versionNotVisible: 'LOYALTY_VOUCHER_VERSION_NOT_VISIBLE',
  deliveryFailed: 'LOYALTY_VOUCHER_MESSAGE_DELIVERY_FAILED',
} as const;
