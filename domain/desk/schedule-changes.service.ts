/**
 * GET /schedule/changes (docs/rules/front-desk.md#live-updates): the salon's bookings committed since
 * a cursor, waiting up to `wait` seconds when there are none. The cursor is the database's
 * (domain/booking/booking-changes.repository.ts), so every api process answers alike; a notification
 * (the ChangeNotifications port) ends the wait as soon as a change commits anywhere. STAFF get the
 * bookings they may see (docs/rules/auth.md#staff-scoping) and a count of the others.
 */
import type { Db } from '../../db/db-handle';
import { toIso } from '../time/iso';
import type { Actor } from '../booking/booking.types';
import type { BookingStatus } from '../booking/booking-status.rules';
import { bookingsChangedSince, type ChangedBookingRow } from '../booking/booking-changes.repository';
import { noticesWrittenBetween } from '../notifications/salon-notice.repository';
import type { ChangeNotifications, ChangeWait } from './change-notifications';

/** Changes listed per answer; past it `more` says the list was cut. */
export const CHANGES_LIMIT = 100;
/** The longest a read waits for a change (docs/rules/limits.md#the-front-desk). */
export const CHANGES_MAX_WAIT_S = 25;
/** Without notifications (none configured, or the listening connection is down), a waiting read looks again this often. */
const LOOK_AGAIN_MS = 1000;
/**
 * A notified change can still be above the horizon for a moment (a transaction older than it has
 * not finished yet): the read looks again this soon, for up to SETTLE_FOR_MS, until it is there.
 */
const SETTLE_MS = 100;
const SETTLE_FOR_MS = 3000;

export interface ScheduleChangesDto {
  cursor: string;
  bookings: { id: string; version: number; status: BookingStatus; startTime: string; endTime: string }[];
  hidden: number;
  notices: number;
  more: boolean;
}

export interface ChangesDeps {
  knex: Db;
  changes?: ChangeNotifications;
}

function visibleTo(actor: Actor, row: ChangedBookingRow): boolean {
  if (actor.role !== 'STAFF') return true;
  if (row.resourceId === null) return true;
  return actor.resourceId !== null && (row.resourceId === actor.resourceId || row.itemResourceIds.includes(actor.resourceId));
}

/** BigInt order of two cursors (xid8 as decimal text). */
const ahead = (a: string, b: string) => BigInt(a) > BigInt(b);

async function read(deps: ChangesDeps, tenantId: string, actor: Actor, after: string): Promise<ScheduleChangesDto> {
  const { horizon, rows } = await bookingsChangedSince(deps.knex, tenantId, after, CHANGES_LIMIT + 1);
  // a cursor ahead of the database's (another database, or made up) starts again from now
  if (ahead(after, horizon)) return { cursor: horizon, bookings: [], hidden: 0, notices: 0, more: false };
  const listed = rows.slice(0, CHANGES_LIMIT);
  const shown = listed.filter((r) => visibleTo(actor, r));
  const notices = actor.role === 'STAFF' ? 0 : await noticesWrittenBetween(deps.knex, tenantId, after, horizon);
  return {
    cursor: horizon,
    bookings: shown.map((r) => ({ id: r.id, version: r.version, status: r.status, startTime: toIso(r.startTime), endTime: toIso(r.endTime) })),
    hidden: listed.length - shown.length,
    notices,
    more: rows.length > CHANGES_LIMIT,
  };
}

const isEmpty = (c: ScheduleChangesDto) => c.bookings.length === 0 && c.hidden === 0 && c.notices === 0;

export async function scheduleChanges(
  deps: ChangesDeps,
  tenantId: string,
  actor: Actor,
  query: { after?: string; wait?: number },
  signal?: AbortSignal,
): Promise<ScheduleChangesDto> {
  if (query.after === undefined) {
    const { horizon } = await bookingsChangedSince(deps.knex, tenantId, null, 0);
    return { cursor: horizon, bookings: [], hidden: 0, notices: 0, more: false };
  }
  const after = query.after;
  const waitMs = Math.min(query.wait ?? 0, CHANGES_MAX_WAIT_S) * 1000;
  // subscribed before the first read, so a change committed between the read and the wait still wakes it
  const subscription = waitMs > 0 ? deps.changes?.subscribe(tenantId) : undefined;
  const started = performance.now();
  try {
    let settleUntil = 0;
    for (;;) {
      const changes = await read(deps, tenantId, actor, after);
      const now = performance.now();
      const left = waitMs - (now - started);
      if (!isEmpty(changes) || left <= 0 || signal?.aborted) return changes;
      const pause = Math.min(left, now < settleUntil ? SETTLE_MS : subscription && deps.changes!.healthy() ? left : LOOK_AGAIN_MS);
      const outcome: ChangeWait = subscription ? await subscription.next(pause) : await sleep(pause);
      if (outcome === 'closed') return changes;
      if (outcome === 'changed') settleUntil = performance.now() + SETTLE_FOR_MS;
    }
  } finally {
    subscription?.close();
  }
}

function sleep(ms: number): Promise<ChangeWait> {
  return new Promise((resolve) => setTimeout(() => resolve('timeout'), ms));
}
