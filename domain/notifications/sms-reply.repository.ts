/**
 * Data access of inbound SMS replies (sms_replies, docs/rules/reminders.md#answering-by-sms): the
 * claim by the gateway's message id, what the reply did, and when its answer went out. Plain rows out.
 */
import { fn, raw } from 'objection';
import type { Db, Transaction } from '../../db/db-handle';
import { SmsReplyModel } from '../../db/models/sms-reply.model';
import { plainOrUndefined, returnedRows, type Row } from '../../db/plain';

export type SmsReplyRow = Row<SmsReplyModel>;

/**
 * Claims the reply by (gateway, gateway message id): the new row's id, or undefined when another
 * delivery of the same message claimed it first (a concurrent one waits here until that one commits).
 */
export async function claimSmsReply(
  trx: Transaction,
  reply: { gateway: string; gatewayMessageId: string; fromPhone: string; text: string; intent: string },
): Promise<string | undefined> {
  const [row] = await returnedRows<{ id: string }>(
    SmsReplyModel.query(trx)
      .insert({ ...reply, outcome: 'RECEIVED', answer: '' })
      .onConflict(['gateway', 'gatewayMessageId'])
      .ignore()
      .returning(['id']),
  );
  return row?.id;
}

/** What a reply did, in the words the version before migration 180 may still write. */
const RENAMED_OUTCOMES: Record<string, string> = { CONFIRMED: 'PROMISED', ALREADY_CONFIRMED: 'ALREADY_PROMISED' };

export async function findSmsReply(db: Db, gateway: string, gatewayMessageId: string): Promise<SmsReplyRow | undefined> {
  const row = plainOrUndefined(await SmsReplyModel.query(db).findOne({ gateway, gatewayMessageId }));
  return row && { ...row, outcome: RENAMED_OUTCOMES[row.outcome] ?? row.outcome };
}

/** What the claimed reply did and the answer it gets. */
export async function recordSmsReplyOutcome(
  trx: Transaction,
  id: string,
  result: { tenantId: string | null; bookingId: string | null; outcome: string; answer: string },
): Promise<void> {
  await SmsReplyModel.query(trx).patch(result).where({ id });
}

/** Stamped with the database's clock once the gateway took the answer. */
export async function markSmsReplyAnswered(db: Db, id: string): Promise<void> {
  await SmsReplyModel.query(db).patch({ answeredAt: fn.now() }).where({ id });
}

/** Cancellations by reply per salon, for /api/metrics (docs/rules/reminders.md#measured). */
export async function cancellationsByReplyPerSalon(db: Db): Promise<{ salon: string; count: number }[]> {
  return (await SmsReplyModel.query(db)
    .join('tenants as t', 't.id', 'sms_replies.tenantId')
    .where('sms_replies.outcome', 'CANCELLED')
    .groupBy('t.slug')
    .select('t.slug as salon', raw('count(*)::int AS count'))
    .toKnexQuery()) as { salon: string; count: number }[];
}
