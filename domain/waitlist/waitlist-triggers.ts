/**
 * Time freed up (docs/rules/waitlist.md#when-time-frees-up): inside the transaction of the change
 * that freed it, an offer round is opened and its workflow `waitlist-offer:<id>` signalled before
 * commit, like any entity change. A salon with nobody waiting over those dates opens no round.
 */
import type { Transaction } from '../../db/db-handle';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { changeEntity } from '../workflow-signals/entity-change';
import { addDays, utcToLocalDate } from '../time/salon-time.rules';
import { waitlistOfferContract } from './waitlist-events.rules';
import { anyoneWaiting, insertRound } from './waitlist.repository';

export type FreedCause = 'CANCELLED' | 'NO_SHOW' | 'MOVED' | 'TIME_OFF_REMOVED';

export interface FreedInterval {
  tenantId: string;
  /** null: any staff member (an unassigned booking) */
  resourceId: string | null;
  start: Date;
  end: Date;
  cause: FreedCause;
}

export async function offerFreedTime(signaller: EntitySignaller, trx: Transaction, freed: FreedInterval): Promise<void> {
  // UTC dates a day wider on each side: the salon-local dates lie inside, whatever the time zone
  const first = addDays(utcToLocalDate(freed.start, 'UTC'), -1);
  const last = addDays(utcToLocalDate(freed.end, 'UTC'), 1);
  if (!(await anyoneWaiting(trx, freed.tenantId, first, last))) return;
  await changeEntity(signaller, waitlistOfferContract, {
    write: () => insertRound(trx, { tenantId: freed.tenantId, cause: freed.cause, resourceId: freed.resourceId, windowStart: freed.start, windowEnd: freed.end }),
    event: 'WaitlistTimeFreed',
  });
}
