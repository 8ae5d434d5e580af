/**
 * The waitlist's wrappers of the change primitive (docs/rules/consistency.md#the-change-primitive):
 * an entry or an offer round gets version + 1, then its workflow is signalled before commit
 * (`waitlist-entry:<id>`, `waitlist-offer:<id>`). A change its own workflow made (an expiry its
 * timer ran, the offers of a step) passes event null: the workflow learns it from the activity.
 */
import type { Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import { changeEntity } from '../workflow-signals/entity-change';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import {
  waitlistEntryContract,
  waitlistOfferContract,
  type WaitlistEntryEventType,
  type WaitlistEntryStatus,
  type WaitlistOfferEventType,
} from './waitlist-events.rules';
import { moveEntry, updateRoundVersioned, type EntryRow, type RoundRow } from './waitlist.repository';

/** The locked entry moves from its status to `to` (a compare-and-set on status and version). */
export async function changeEntry(
  signaller: EntitySignaller | null,
  trx: Transaction,
  entry: EntryRow,
  to: WaitlistEntryStatus,
  event: WaitlistEntryEventType | null,
  changes: { bookingId?: string } = {},
): Promise<EntryRow> {
  const written = await changeEntity(signaller, waitlistEntryContract, { write: () => moveEntry(trx, entry, to, changes), event });
  if (!written) throw errors.conflict('WAITLIST_ENTRY_CHANGED', 'The waitlist entry changed at the same time; try again');
  return written;
}

/** The locked round with version + 1 and `changes`; the new version. */
export async function changeRound(
  signaller: EntitySignaller | null,
  trx: Transaction,
  round: RoundRow,
  changes: Parameters<typeof updateRoundVersioned>[2],
  event: WaitlistOfferEventType | null,
): Promise<number> {
  const written = await changeEntity(signaller, waitlistOfferContract, {
    write: async () => ({ id: round.id, tenantId: round.tenantId, version: await updateRoundVersioned(trx, round, changes) }),
    event,
  });
  return written.version;
}
