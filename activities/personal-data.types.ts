// What the erasure and retention workflows may ask of the outside world (types only; the workflows
// import these, activities/personal-data.activities.ts implements them). Ids, counts and times only:
// never a name, a phone or an e-mail (docs/rules/personal-data.md#what-is-kept).
import type { ErasureSnapshot } from '../domain/personal-data/erasure-events.rules';
import type { DeliveryOutcome } from './booking.types';

export interface ErasureRequest {
  erasureId: string;
}

export interface RetentionBatchResult {
  pseudonymised: number;
  accountingRemoved: number;
  more: boolean;
  salonGone: boolean;
}

export interface ErasureActivities {
  /** Committed state of the request, once it has reached `minVersion`. */
  readErasure(input: { erasureId: string; minVersion: number }): Promise<ErasureSnapshot>;
  /** The moment of erasure (an account: of each salon record linked to it); answers the requests the next steps run over. */
  beginErasure(input: ErasureRequest): Promise<{ records: string[] }>;
  /** One record's bookings still to come cancelled, its series ended, its active vouchers cancelled. */
  cancelErasedBookings(input: ErasureRequest): Promise<void>;
  sendErasureNoticeSms(input: ErasureRequest): Promise<DeliveryOutcome>;
  sendErasureNoticeEmail(input: ErasureRequest): Promise<DeliveryOutcome>;
  /** One record's remaining personal data removed; its bookings kept for the accounts without identity. */
  eraseRemainingData(input: ErasureRequest): Promise<void>;
  /** An account's request: the account and its sign-ins removed. */
  removeErasedAccount(input: ErasureRequest): Promise<void>;
  /** The embedded stack's outbox copies naming the person removed; answers how many. */
  forgetSentCopies(input: ErasureRequest): Promise<number>;
  /** COMPLETED with its outcome; the addresses kept for the notice removed. */
  completeErasure(input: ErasureRequest): Promise<void>;
}

export interface RetentionActivities {
  /** One batch of the salon's sweep at `at` (epoch ms, the workflow clock). */
  sweepRetentionBatch(input: { tenantId: string; at: number }): Promise<RetentionBatchResult>;
  /** The sweep's report, once per sweep time. */
  recordRetentionSweep(input: { tenantId: string; at: number; accountingRemoved: number }): Promise<{ pseudonymised: number }>;
  /** Makes sure each active salon after `afterId` (up to `limit`) has its retention timer; null when none was left. */
  ensureRetentionTimers(input: { afterId: string | null; limit: number }): Promise<{ lastId: string | null }>;
}

export const ErasureActivityErrors = {
  notFound: 'ERASURE_NOT_FOUND',
  deliveryFailed: 'ERASURE_NOTICE_DELIVERY_FAILED',
  notConfigured: 'ERASURE_NOT_CONFIGURED',
} as const;
