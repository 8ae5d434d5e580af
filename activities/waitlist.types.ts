// What the waitlist workflows may ask of the outside world (types only for the workflows).
import type { WaitlistEntrySnapshot, WaitlistRoundSnapshot } from '../domain/waitlist/waitlist-events.rules';
import type { DeliveryOutcome } from './booking.types';

export interface WaitlistOfferMessageRequest {
  offerId: string;
}

export interface WaitlistJoinedMessageRequest {
  entryId: string;
  /** the nth time its link is sent again (a join with its phone, docs/rules/waitlist.md#joining); unset: the first message */
  again?: number;
}

export interface WaitlistStep {
  /** the round's version after the step's offers (the workflow follows the state from there) */
  version: number;
  offerIds: string[];
  /** epoch ms: when the step's hold runs out */
  expiresAt: number;
}

export interface WaitlistActivities {
  /** Committed state of the round, once it has reached `minVersion` (retried until then). */
  readWaitlistRound(input: { roundId: string; minVersion: number }): Promise<WaitlistRoundSnapshot>;
  /** Committed state of the entry, once it has reached `minVersion`. */
  readWaitlistEntry(input: { entryId: string; minVersion: number }): Promise<WaitlistEntrySnapshot>;
  /** The offers of step `step` and their hold (idempotent per step); null when nobody is left. `at`: epoch ms of the workflow clock. */
  makeWaitlistOffers(input: { roundId: string; step: number; at: number }): Promise<WaitlistStep | null>;
  /** The step's hold ran out: its open offers expire and the hold is released. */
  expireWaitlistStep(input: { roundId: string; step: number }): Promise<'EXPIRED' | 'FILLED' | 'CLOSED'>;
  /** The round ends (nobody else to ask) and its hold is released. */
  closeWaitlistRound(input: { roundId: string }): Promise<void>;
  /** A WAITING entry whose last date ended (at `at`, epoch ms) is EXPIRED. */
  expireWaitlistEntry(input: { entryId: string; at: number }): Promise<'EXPIRED' | 'NOT_DUE' | 'NOT_WAITING'>;
  sendWaitlistOfferSms(input: WaitlistOfferMessageRequest): Promise<DeliveryOutcome>;
  sendWaitlistOfferEmail(input: WaitlistOfferMessageRequest): Promise<DeliveryOutcome>;
  /** The message confirming the entry, with the link to see or leave it (docs/rules/waitlist.md#joining). */
  sendWaitlistJoinedSms(input: WaitlistJoinedMessageRequest): Promise<DeliveryOutcome>;
  sendWaitlistJoinedEmail(input: WaitlistJoinedMessageRequest): Promise<DeliveryOutcome>;
}

export const WaitlistActivityErrors = {
  notFound: 'WAITLIST_NOT_FOUND',
  deliveryFailed: 'WAITLIST_MESSAGE_DELIVERY_FAILED',
} as const;
