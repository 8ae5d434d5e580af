// The waitlist's two workflow contracts (docs/rules/waitlist.md#workflows, docs/rules/consistency.md#the-entity-contract):
// - an entry's own timeline, `waitlistEntryWorkflow` with id `waitlist-entry:<id>`: it ends the
//   entry at the end of its last date unless it was booked or left first;
// - an offer round's, `waitlistOfferWorkflow` with id `waitlist-offer:<id>`: offer, hold, timeout,
//   next entry, until the freed time is booked or nobody is left to offer it to.
// Pure: imported by the services, the activities and the workflows.
import { entityContract, type EntityEvent } from '../workflow-signals/entity-contract.rules';

export type WaitlistEntryStatus = 'WAITING' | 'BOOKED' | 'LEFT' | 'EXPIRED';
export type WaitlistEntryEventType =
  | 'WaitlistEntryJoined'
  | 'WaitlistEntryBooked'
  | 'WaitlistEntryLeft'
  // a join with its phone over overlapping dates: its link is sent to its own contacts again
  | 'WaitlistEntryLinkAsked';
export type WaitlistEntryEvent = EntityEvent<WaitlistEntryEventType>;

export interface WaitlistEntryWorkflowArgs {
  entryId: string;
  tenantId: string;
}

export interface WaitlistEntrySnapshot {
  entryId: string;
  status: WaitlistEntryStatus;
  version: number;
  /** epoch ms: the end of the entry's last date, salon-local */
  endsAt: number;
  /** how often its link was asked again (unset in snapshots read before it was kept) */
  linkResends?: number;
}

export const waitlistEntryContract = entityContract<WaitlistEntryEventType, WaitlistEntryWorkflowArgs, WaitlistEntrySnapshot>({
  entity: 'waitlistEntry',
  idPrefix: 'waitlist-entry',
  startArgs: (e) => ({ entryId: e.id, tenantId: e.tenantId }),
});

export type WaitlistRoundStatus = 'OPEN' | 'FILLED' | 'EXHAUSTED';
export type WaitlistMode = 'FIRST_IN_LINE' | 'BROADCAST';
export type WaitlistOfferEventType = 'WaitlistTimeFreed' | 'WaitlistOffersMade' | 'WaitlistOfferAccepted' | 'WaitlistOfferDeclined';
export type WaitlistOfferEvent = EntityEvent<WaitlistOfferEventType>;

export interface WaitlistOfferWorkflowArgs {
  roundId: string;
  tenantId: string;
}

export interface WaitlistRoundSnapshot {
  roundId: string;
  status: WaitlistRoundStatus;
  version: number;
  step: number;
  /** offers of the current step still open (not accepted, declined or expired) */
  openOffers: number;
}

export const waitlistOfferContract = entityContract<WaitlistOfferEventType, WaitlistOfferWorkflowArgs, WaitlistRoundSnapshot>({
  entity: 'waitlistOffer',
  idPrefix: 'waitlist-offer',
  startArgs: (r) => ({ roundId: r.id, tenantId: r.tenantId }),
});
