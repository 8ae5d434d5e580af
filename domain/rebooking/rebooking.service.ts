/**
 * Rebooking nudges (docs/rules/series.md#rebooking-nudges): one row and one workflow
 * (`rebooking-nudge:<id>`) per customer and salon, following the customer's latest completed visit.
 *
 * - A completed visit (the booking workflow's recordCompletedVisit, in its transaction) points the
 *   row at the visit: due after the shortest typical interval of its services, and signals the
 *   workflow, which starts over with the new visit.
 * - When due, the workflow asks `decideNudge`: a nudge goes out only if the customer agreed, has no
 *   booking still to come at the salon, and can be reached; the decision is stored on the row, so a
 *   retry decides nothing new, and the message claims (nudge, visit, channel) make it one per visit.
 */
import type { Db, DbPool, Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { findServicesByIds } from '../catalogue/catalogue.repository';
import { findCustomer } from '../customer/customer.repository';
import { recordMarketingConsent } from '../customer/marketing-consent.service';
import { hasUpcomingBooking } from '../booking/booking-customer.repository';
import { itemsOf } from '../booking/booking.repository';
import { changeEntity } from '../workflow-signals/entity-change';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { rebookingNudgeContract, type NudgeStatus, type RebookingNudgeSnapshot } from './rebooking-events.rules';
import { nudgeDueAt, nudgeIntervalWeeks } from './rebooking.rules';
import { claimNudgeRow, lockNudge, nudgeById, updateNudgeVersioned, type NudgeRow, type NudgeVisit } from './rebooking.repository';
import { unsubscribeTokenMatches } from './rebooking-tokens';

export interface CompletedVisitForNudge {
  tenantId: string;
  customerId: string;
  bookingId: string;
  visitedAt: Date;
  /** when the visit is recorded: a visit whose nudge would already be due starts none */
  now: Date;
}

/** The visit as the nudge row holds it: what to offer again, and when. */
async function visitOf(db: Db, visit: CompletedVisitForNudge): Promise<NudgeVisit> {
  const items = (await itemsOf(db, [visit.bookingId])).sort((a, b) => a.sortOrder - b.sortOrder);
  const serviceIds = [...new Set(items.map((i) => i.serviceId))];
  const weeks = nudgeIntervalWeeks(await findServicesByIds(db, visit.tenantId, serviceIds));
  const dueAt = weeks === null ? null : nudgeDueAt(visit.visitedAt, weeks);
  const status: NudgeStatus = dueAt === null ? 'NO_INTERVAL' : dueAt <= visit.now ? 'PASSED' : 'WAITING';
  return { visitBookingId: visit.bookingId, visitedAt: visit.visitedAt, dueAt, serviceIds, resourceId: items[0]?.resourceId ?? null, status };
}

/**
 * A completed visit: the customer's nudge row at the salon now follows it (an older visit recorded
 * late changes nothing), and its workflow is told before commit. Idempotent per visit.
 */
export async function recordVisitForNudge(trx: Transaction, signaller: EntitySignaller, visit: CompletedVisitForNudge): Promise<void> {
  const fresh = await visitOf(trx, visit);
  const { row, created } = await claimNudgeRow(trx, visit.tenantId, visit.customerId, fresh);
  if (created) {
    await changeEntity(signaller, rebookingNudgeContract, { write: async () => row, event: 'RebookingVisitRecorded' });
    return;
  }
  if (row.visitBookingId === visit.bookingId || new Date(row.visitedAt) >= visit.visitedAt) return;
  const written = await changeEntity(signaller, rebookingNudgeContract, {
    write: () => updateNudgeVersioned(trx, row, { ...fresh, sentAt: null }),
    event: 'RebookingVisitRecorded',
  });
  if (!written) throw errors.conflict('REBOOKING_NUDGE_CHANGED', 'The nudge changed at the same time');
}

export function nudgeSnapshot(row: NudgeRow): RebookingNudgeSnapshot {
  return {
    nudgeId: row.id,
    version: row.version,
    status: row.status,
    visitBookingId: row.visitBookingId,
    dueAt: row.dueAt ? new Date(row.dueAt).getTime() : null,
  };
}

export async function readNudge(db: Db, nudgeId: string): Promise<RebookingNudgeSnapshot | undefined> {
  const row = await nudgeById(db, nudgeId);
  return row && nudgeSnapshot(row);
}

/** What the workflow does once the nudge is due: SEND, or why not. */
export type NudgeDecision = 'SEND' | 'SUPERSEDED' | 'NOT_DUE' | Exclude<NudgeStatus, 'SENT' | 'WAITING'>;

/**
 * The due nudge of visit `visitBookingId`, at `at` (the workflow's clock): decided once and stored
 * on the row (its own workflow's change: no signal). A retry finds the decision and answers it again.
 */
export async function decideNudge(knex: DbPool, nudgeId: string, visitBookingId: string, at: Date): Promise<NudgeDecision> {
  return knex.transaction(async (trx) => {
    const nudge = await lockNudge(trx, nudgeId);
    if (!nudge || nudge.visitBookingId !== visitBookingId) return 'SUPERSEDED';
    if (nudge.status === 'SENT') return 'SEND';
    if (nudge.status !== 'WAITING') return nudge.status;
    if (!nudge.dueAt || new Date(nudge.dueAt) > at) return 'NOT_DUE';
    const customer = await findCustomer(trx, nudge.tenantId, nudge.customerId);
    let status: NudgeStatus = 'SENT';
    if (!customer?.acceptsRebookingNudges) status = 'NOT_AGREED';
    else if (await hasUpcomingBooking(trx, nudge.tenantId, nudge.customerId, at)) status = 'BOOKED_BEFORE';
    else if (!customer.phone && !customer.email) status = 'NO_CONTACT';
    await changeEntity(null, rebookingNudgeContract, {
      write: () => updateNudgeVersioned(trx, nudge, { status, ...(status === 'SENT' ? { sentAt: at } : {}) }),
      event: null,
    });
    return status === 'SENT' ? 'SEND' : status;
  });
}

/**
 * The unsubscribe link (GET shows it, POST turns it off): the salon's nudges stop for this
 * customer. A wrong token is 404, as for an unknown customer.
 */
export async function unsubscribeFromNudges(
  knex: Db,
  secret: string,
  tenant: TenantContext,
  customerId: string,
  token: unknown,
): Promise<{ salonName: string }> {
  const customer = unsubscribeTokenMatches(secret, customerId, token) ? await findCustomer(knex, tenant.id, customerId) : undefined;
  if (!customer || customer.erased) throw errors.notFound('customer');
  // an opt-out, recorded with its source (docs/rules/personal-data.md#consent)
  await knex.transaction((trx) => recordMarketingConsent(trx, { tenantId: tenant.id, customerId, granted: false, source: 'UNSUBSCRIBE_LINK' }));
  return { salonName: tenant.name };
}

/** Checks an unsubscribe link without changing anything (the page's first view). */
export async function unsubscribeLinkIsValid(knex: Db, secret: string, tenant: TenantContext, customerId: string, token: unknown): Promise<boolean> {
  return unsubscribeTokenMatches(secret, customerId, token) && (await findCustomer(knex, tenant.id, customerId))?.erased === false;
}
