// Data access of the personal-data area's own tables (docs/rules/personal-data.md): the record of
// exports, the erasure requests and their notices, and the retention sweeps; plain rows out.
import { fn, raw } from 'objection';
import type { Db, Transaction } from '../../db/db-handle';
import { plain, plainOrUndefined, returnedRows, type Row } from '../../db/plain';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { PersonalDataExportModel } from '../../db/models/personal-data-export.model';
import { PersonalDataErasureModel } from '../../db/models/personal-data-erasure.model';
import { PersonalDataErasureNotificationModel } from '../../db/models/personal-data-erasure-notification.model';
import { CustomerRetentionSweepModel } from '../../db/models/customer-retention-sweep.model';

export type ExportFormat = 'JSON' | 'SUMMARY';
export type ExportRecordRow = Row<PersonalDataExportModel>;

export async function insertExportRecord(db: Db, record: Omit<ExportRecordRow, 'id' | 'createdAt'>): Promise<void> {
  await PersonalDataExportModel.query(db).insert(record);
}

export async function pageOfExports(db: Db, tenantId: string, page: PageQuery): Promise<PageResult<ExportRecordRow>> {
  return paginate(PersonalDataExportModel.query(db).where({ tenantId }).orderBy('createdAt', 'desc').orderBy('id', 'desc'), page);
}

// ---------------------------------------------------------------- erasures

export type ErasureStatus = 'REQUESTED' | 'COMPLETED';
export type ErasureRow = Omit<Row<PersonalDataErasureModel>, 'status' | 'requestedBy' | 'noticeLanguage'> & {
  status: ErasureStatus;
  requestedBy: 'SALON' | 'CUSTOMER';
  noticeLanguage: 'nb' | 'en' | null;
};
const erasureRow = (m: PersonalDataErasureModel) => plain(m) as ErasureRow;

export type NewErasure = Pick<ErasureRow, 'tenantId' | 'customerId' | 'customerAccountId' | 'parentId' | 'requestedBy' | 'requestedByUserId' | 'requestedAt'>;

/**
 * The request for this record (or account), inserted unless one exists: one request per record,
 * held by the unique indexes, so a second request, or two at once, find the first. `created` says which.
 */
export async function claimErasure(db: Db, erasure: NewErasure): Promise<{ row: ErasureRow; created: boolean }> {
  const target = erasure.customerId
    ? '(customer_id) WHERE customer_id IS NOT NULL'
    : '(customer_account_id) WHERE customer_id IS NULL AND customer_account_id IS NOT NULL';
  // raw SQL: ON CONFLICT on a partial unique index names its predicate, which the model's onConflict cannot
  const inserted = await db.raw(
    `INSERT INTO personal_data_erasures (tenant_id, customer_id, customer_account_id, parent_id, requested_by, requested_by_user_id, requested_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT ${target} DO NOTHING RETURNING id`,
    [erasure.tenantId, erasure.customerId, erasure.customerAccountId, erasure.parentId, erasure.requestedBy, erasure.requestedByUserId, erasure.requestedAt],
  );
  const id = (inserted as { rows: { id: string }[] }).rows[0]?.id;
  if (id) return { row: (await findErasure(db, id))!, created: true };
  const existing = erasure.customerId
    ? await PersonalDataErasureModel.query(db).findOne({ customerId: erasure.customerId })
    : await PersonalDataErasureModel.query(db).findOne({ customerAccountId: erasure.customerAccountId }).whereNull('customerId');
  return { row: erasureRow(existing!), created: false };
}

export async function findErasure(db: Db, id: string): Promise<ErasureRow | undefined> {
  const row = await PersonalDataErasureModel.query(db).findById(id);
  return row && erasureRow(row);
}

export async function lockErasure(trx: Transaction, id: string): Promise<ErasureRow | undefined> {
  const row = await PersonalDataErasureModel.query(trx).findById(id).forUpdate();
  return row && erasureRow(row);
}

export async function erasureOfCustomer(db: Db, tenantId: string, customerId: string): Promise<ErasureRow | undefined> {
  const row = await PersonalDataErasureModel.query(db).findOne({ tenantId, customerId });
  return row && erasureRow(row);
}

/** The salon records erased as part of an account's request. */
export async function childErasures(db: Db, parentId: string): Promise<ErasureRow[]> {
  return (await PersonalDataErasureModel.query(db).where({ parentId }).orderBy('createdAt').orderBy('id')).map(erasureRow);
}

/** The address of the last notice, kept on the request until it is out (set once: a retry keeps the first). */
export async function keepNoticeAddress(db: Db, id: string, notice: { phone: string | null; email: string | null; language: 'nb' | 'en' }): Promise<void> {
  await PersonalDataErasureModel.query(db)
    .patch({ noticePhone: notice.phone, noticeEmail: notice.email, noticeLanguage: notice.language })
    .where({ id, status: 'REQUESTED' })
    .whereNull('noticeLanguage');
}

/** COMPLETED with its outcome, the kept address removed, version + 1 (its own workflow's change); false when it already was. */
export async function completeErasureRow(trx: Transaction, row: ErasureRow, outcome: Record<string, unknown>, at: Date): Promise<ErasureRow | undefined> {
  const [written] = await returnedRows<ErasureRow>(
    PersonalDataErasureModel.query(trx)
      .patch({ status: 'COMPLETED', outcome, completedAt: at, noticePhone: null, noticeEmail: null, version: raw('version + 1') as unknown as number })
      .where({ id: row.id, status: 'REQUESTED' })
      .returning('*'),
  );
  return written;
}

/**
 * Adds counts to the request's outcome (`{bookingsCancelled: 1}` adds one), in the caller's
 * transaction: a step's counts commit with what it did, so a step retried after a crash counts
 * nothing twice. Raw SQL: each key is added to its stored number in one UPDATE.
 */
export async function addToOutcome(db: Db, id: string, counts: Record<string, number>): Promise<void> {
  const nonZero = Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== 0));
  if (!Object.keys(nonZero).length) return;
  await db.raw(
    `UPDATE personal_data_erasures e SET outcome = e.outcome || (
       SELECT jsonb_object_agg(c.key, COALESCE((e.outcome->>c.key)::int, 0) + c.value::int) FROM jsonb_each_text(?::jsonb) AS c
     ) WHERE e.id = ?`,
    [JSON.stringify(nonZero), id],
  );
}

/** Claims the notice on one channel, or finds the claim of an earlier attempt. */
export async function claimErasureNotification(db: Db, erasureId: string, channel: 'SMS' | 'EMAIL'): Promise<{ id: string; sentAt: Date | null }> {
  const [inserted] = await returnedRows<{ id: string; sentAt: Date | null }>(
    PersonalDataErasureNotificationModel.query(db).insert({ erasureId, channel }).onConflict(['erasureId', 'channel']).ignore().returning(['id', 'sentAt']),
  );
  if (inserted) return inserted;
  const row = (await PersonalDataErasureNotificationModel.query(db).findOne({ erasureId, channel }))!;
  return { id: row.id, sentAt: row.sentAt };
}

export async function markErasureNotificationSent(db: Db, id: string): Promise<void> {
  await PersonalDataErasureNotificationModel.query(db)
    .patch({ sentAt: fn.now() as unknown as Date })
    .where({ id });
}

/** The channels the request's notice went out on. */
export async function erasureNoticeChannels(db: Db, erasureId: string): Promise<string[]> {
  const rows = await PersonalDataErasureNotificationModel.query(db).where({ erasureId }).whereNotNull('sentAt').orderBy('channel');
  return rows.map((r) => r.channel);
}

// ---------------------------------------------------------------- retention sweeps

export type RetentionSweepRow = Row<CustomerRetentionSweepModel>;

/** The sweep's report, once per (salon, sweep time): a retry finds it written. */
export async function insertRetentionSweep(db: Db, sweep: Omit<RetentionSweepRow, 'id' | 'createdAt'>): Promise<void> {
  await CustomerRetentionSweepModel.query(db).insert(sweep).onConflict(['tenantId', 'sweptAt']).ignore();
}

export async function pageOfRetentionSweeps(db: Db, tenantId: string, page: PageQuery): Promise<PageResult<RetentionSweepRow>> {
  return paginate(CustomerRetentionSweepModel.query(db).where({ tenantId }).orderBy('sweptAt', 'desc').orderBy('id', 'desc'), page);
}

export async function latestRetentionSweep(db: Db, tenantId: string): Promise<RetentionSweepRow | undefined> {
  return plainOrUndefined(await CustomerRetentionSweepModel.query(db).where({ tenantId }).orderBy('sweptAt', 'desc').first());
}
