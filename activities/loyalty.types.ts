// What the voucher workflow may ask of the outside world (types only for the workflow).
import type { VoucherSnapshot } from '../domain/loyalty/voucher-events.rules';
import type { VoucherMessageKind } from '../domain/notifications/voucher-messages.rules';
import type { DeliveryOutcome } from './booking.types';

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
  deliveryFailed: 'LOYALTY_VOUCHER_MESSAGE_DELIVERY_FAILED',
} as const;
