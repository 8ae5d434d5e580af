/**
 * Every query of rebooking nudges (docs/rules/series.md#rebooking-nudges): the one row per customer
 * and salon, and the claims of its messages; plain rows out.
 */
import { fn } from 'objection';
import type { Db, Transaction } from '../../db/db-handle';
import { plain, returnedRows } from '../../db/plain';
import { RebookingNudgeModel } from '../../db/models/rebooking-nudge.model';
import { RebookingNudgeNotificationModel } from '../../db/models/rebooking-nudge-notification.model';
import type { NudgeStatus } from './rebooking-events.rules';
import { NUDGE_ATTRIBUTION_DAYS } from './rebooking.rules';

export type NudgeRow = Omit<ReturnType<typeof plain<RebookingNudgeModel>>, 'status'> & { status: NudgeStatus };
const nudgeRow = (m: RebookingNudgeModel) => plain(m) as NudgeRow;

export type NudgeVisit = Pick<NudgeRow, 'visitBookingId' | 'visitedAt' | 'dueAt' | 'serviceIds' | 'resourceId' | 'status'>;

/** The customer's row at the salon, created (version 1) for this visit when it did not exist; `created` says which. */
export async function claimNudgeRow(trx: Transaction, tenantId: string, customerId: string, visit: NudgeVisit): Promise<{ row: NudgeRow; created: boolean }> {
  const [inserted] = await returnedRows<NudgeRow>(
    RebookingNudgeModel.query(trx)
      .insert({ tenantId, customerId, ...visit, version: 1 })
      .onConflict(['tenantId', 'customerId'])
      .ignore()
      .returning('*'),
  );
  if (inserted) return { row: inserted, created: true };
  const row = (await RebookingNudgeModel.query(trx).findOne({ tenantId, customerId }).forUpdate())!;
  return { row: nudgeRow(row), created: false };
}

export async function nudgeById(db: Db, id: string): Promise<NudgeRow | undefined> {
  const row = await RebookingNudgeModel.query(db).findById(id);
  return row && nudgeRow(row);
}

export async function lockNudge(trx: Transaction, id: string): Promise<NudgeRow | undefined> {
  const row = await RebookingNudgeModel.query(trx).findById(id).forUpdate();
  return row && nudgeRow(row);
}

/** Compare-and-set at `version`: `changes` with version + 1; undefined when the row moved. */
export async function updateNudgeVersioned(
  trx: Transaction,
  nudge: NudgeRow,
  changes: Partial<NudgeVisit & Pick<NudgeRow, 'sentAt'>>,
): Promise<NudgeRow | undefined> {
  const [row] = await returnedRows<NudgeRow>(
    RebookingNudgeModel.query(trx)
      .patch({ ...changes, version: nudge.version + 1, updatedAt: fn.now() as unknown as Date })
      .where({ id: nudge.id, version: nudge.version })
      .returning('*'),
  );
  return row;
}

/** Claims the (nudge, visit, channel) message, or finds the claim of an earlier attempt. */
export async function claimNudgeNotification(
  db: Db,
  key: { tenantId: string; nudgeId: string; visitBookingId: string; channel: string },
): Promise<{ id: string; sentAt: Date | null }> {
  const [inserted] = await returnedRows<{ id: string; sentAt: Date | null }>(
    RebookingNudgeNotificationModel.query(db).insert(key).onConflict(['nudgeId', 'visitBookingId', 'channel']).ignore().returning(['id', 'sentAt']),
  );
  if (inserted) return inserted;
  const row = (await RebookingNudgeNotificationModel.query(db).findOne({ nudgeId: key.nudgeId, visitBookingId: key.visitBookingId, channel: key.channel }))!;
  return { id: row.id, sentAt: row.sentAt };
}

/** Stamped once the gateway took the message, with where it went and what it said (docs/rules/personal-data.md#what-is-kept). */
export async function markNudgeNotificationSent(db: Db, id: string, sent: { to: string; text: string } | null = null): Promise<void> {
  await RebookingNudgeNotificationModel.query(db)
    .patch({ sentAt: fn.now() as unknown as Date, sentTo: sent?.to ?? null, text: sent?.text ?? null })
    .where({ id });
}

export interface NudgeFigures {
  /** nudges that went out (one per visit) */
  sent: number;
  /** nudges followed by a booking of the customer at the salon within NUDGE_ATTRIBUTION_DAYS */
  booked: number;
}

/** The nudges' figures for the metrics, counted from the rows (docs/rules/series.md#measured). */
export async function nudgeFigures(db: Db): Promise<NudgeFigures> {
  // raw SQL: the attribution is a correlated EXISTS over bookings that a model query cannot say more plainly
  const [row] = await returnedRows<{ sent: string; booked: string }>(
    RebookingNudgeNotificationModel.query(db)
      .from('rebooking_nudge_notifications as n')
      .join('rebooking_nudges as r', 'r.id', 'n.nudgeId')
      .whereNotNull('n.sentAt')
      .select(
        RebookingNudgeNotificationModel.raw('count(DISTINCT (n.nudge_id, n.visit_booking_id)) AS sent'),
        RebookingNudgeNotificationModel.raw(
          `count(DISTINCT (n.nudge_id, n.visit_booking_id)) FILTER (WHERE EXISTS (SELECT 1 FROM bookings b WHERE b.tenant_id = r.tenant_id AND b.customer_id = r.customer_id AND b.created_at >= n.sent_at AND b.created_at < n.sent_at + interval '${NUDGE_ATTRIBUTION_DAYS} days')) AS booked`,
        ),
      ),
  );
  return { sent: Number(row?.sent ?? 0), booked: Number(row?.booked ?? 0) };
}
