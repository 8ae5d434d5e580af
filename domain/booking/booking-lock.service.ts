/**
 * Serialising capacity decisions that the EXCLUDE constraint cannot cover (unassigned items).
 *
 * Every booking write that adds or moves blocking time takes a per-tenant transaction-scoped
 * advisory lock before it reads the data it checks:
 * - SHARED when every item is assigned and no active unassigned item overlaps the new times. Such
 *   writes run in parallel; booking_segments_no_overlap guards them against each other (staff and
 *   rooms alike: a room is always chosen, never left open).
 * - EXCLUSIVE when an unassigned item is written, or an assigned item overlaps an unassigned one
 *   (it could take the capacity that item counts on), or for self-pick. The check runs under the
 *   lock, after everything that competed for it has committed (READ COMMITTED: each statement sees
 *   the latest commits).
 * A write that started SHARED and finds an overlapping unassigned item under the lock throws
 * NeedsExclusiveLock; withBookingLock rolls back and reruns it EXCLUSIVE.
 *
 * SHARED writes that insert the parts of one visit (a stylist and a station) wait on each other at
 * the overlap constraint, and with enough of them in flight Postgres breaks such a wait as a
 * deadlock (40P01). The victim is rerun: it then sees what the other committed and answers as any
 * loser does (BOOKING_CONFLICT), instead of a "try again" the customer never caused. A write whose
 * chosen room was taken by one that committed first is rerun too (retryingTakenRooms).
 */
import type { Db, Transaction } from '../../db/db-handle';
import { advisoryTransactionLock, advisoryTransactionLockReading } from '../../db/advisory-locks';
import { isDeadlock, isExclusionViolation } from '../../db/db-errors';
import { bookableServicesStatement } from '../catalogue/catalogue.repository';
import type { StoredService } from '../availability/availability.service';

export type LockMode = 'shared' | 'exclusive';

const LOCK_CLASS = 40040;

export class NeedsExclusiveLock extends Error {
  constructor() {
    super('booking write needs the exclusive tenant booking lock');
  }
}

export async function lockTenantBookings(trx: Transaction, tenantId: string, mode: LockMode): Promise<void> {
  await advisoryTransactionLock(trx, { lockClass: LOCK_CLASS, key: tenantId }, mode);
}

/**
 * The lock and the services a new booking plans with, in one round trip (its hot path). The services
 * are read in the lock statement's snapshot, taken before the lock is granted; the lock guards
 * booking time, not services, and the placement check reads after it.
 */
export async function lockTenantBookingsReadingServices(
  trx: Transaction,
  tenantId: string,
  mode: LockMode,
  serviceIds: readonly string[],
): Promise<StoredService[]> {
  return advisoryTransactionLockReading<StoredService>(trx, { lockClass: LOCK_CLASS, key: tenantId }, mode, bookableServicesStatement(tenantId, serviceIds));
}

/** How many times a write runs in all when Postgres keeps choosing it as a deadlock's victim. */
export const DEADLOCK_ATTEMPTS = 3;

/**
 * Runs fn in a transaction holding the tenant booking lock; escalates SHARED -> EXCLUSIVE once on
 * request, and reruns it when it was a deadlock's victim (up to DEADLOCK_ATTEMPTS runs). `lock`
 * takes the lock (lockTenantBookings unless given) and may read in the same round trip: fn gets what
 * it returned. fn must be safe to run again: everything it writes is in the transaction, and its
 * signals are hints a rolled-back change leaves unread (docs/rules/consistency.md#the-entity-inbox).
 */
export async function withBookingLock<T, R = void>(
  knex: Db,
  tenantId: string,
  initial: LockMode,
  fn: (trx: Transaction, mode: LockMode, locked: R) => Promise<T>,
  lock: (trx: Transaction, mode: LockMode) => Promise<R> = (trx, mode) => lockTenantBookings(trx, tenantId, mode) as Promise<R>,
): Promise<T> {
  let mode = initial;
  let deadlockVictim = 0;
  for (;;) {
    try {
      return await knex.transaction(async (trx) => fn(trx, mode, await lock(trx, mode)));
    } catch (err) {
      if (err instanceof NeedsExclusiveLock && mode === 'shared') {
        mode = 'exclusive';
        continue;
      }
      if (isDeadlock(err) && ++deadlockVictim < DEADLOCK_ATTEMPTS) continue;
      throw err;
    }
  }
}

/**
 * Runs a booking write, and runs it again (at most `attempts` times in all) when its chosen room or
 * piece of equipment was taken by a write that committed first (booking_segments_no_overlap): the
 * rerun reads that booking and chooses another free one, or answers 409 BOOKING_CONFLICT.
 */
export async function retryingTakenRooms<T>(write: () => Promise<T>, roomsChosen: () => boolean, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= attempts || !isExclusionViolation(err, 'booking_segments_no_overlap') || !roomsChosen()) throw err;
    }
  }
}
