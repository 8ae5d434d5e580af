// A salon's customer record and a person's personal data (docs/rules/personal-data.md#erasure): the
// record locked and stripped of its identity at the moment of erasure (or by the retention), the
// salon's notes and tags on it removed, and the phone checks that quote its number. Plain rows out.
import type { Db, Transaction } from '../../db/db-handle';
import { plainOrUndefined } from '../../db/plain';
import { CustomerModel } from '../../db/models/customer.model';
import { TenantCustomerModel } from '../../db/models/tenant-customer.model';
import { PhoneNormalisationIssueModel } from '../../db/models/phone-normalisation-issue.model';
import type { CustomerRow } from './customer.repository';

/**
 * SELECT ... FOR UPDATE of the record: it waits for every booking transaction that already names the
 * record (their foreign key holds a share lock on it) and keeps new ones out until the erasure commits.
 */
export async function lockCustomerRecord(trx: Transaction, tenantId: string, customerId: string): Promise<CustomerRow | undefined> {
  return plainOrUndefined(await CustomerModel.query(trx).findOne({ tenantId, id: customerId }).forUpdate());
}

/**
 * The record without identity: `name` in place of the name, no phone, e-mail, notes, consent or
 * account link, erased. Setting `erased` moves its bookings' customer_erased with it (the foreign key
 * bookings_customer_not_erased_fk follows it), so no booking can name the record as it was.
 */
export async function eraseCustomerIdentity(db: Db, tenantId: string, customerId: string, name: string, at: Date): Promise<boolean> {
  const changed = await CustomerModel.query(db)
    .patch({ name, phone: null, email: null, notes: null, accountId: null, acceptsRebookingNudges: false, erased: true, erasedAt: at })
    .where({ tenantId, id: customerId, erased: false });
  return changed > 0;
}

/** The salon's notes and tags on its record of the customer; the visit counts stay (they name no one once the record is erased). */
export async function clearSalonNotes(db: Db, tenantId: string, customerId: string): Promise<void> {
  await TenantCustomerModel.query(db).patch({ notes: null, tags: [] }).where({ tenantId, customerId });
}

/** The phone checks of the migration to E.164 that quote a number of these rows (customers, bookings, waitlist entries). */
export async function deletePhoneIssuesOf(db: Db, rowIds: string[]): Promise<number> {
  if (!rowIds.length) return 0;
  return PhoneNormalisationIssueModel.query(db).delete().whereIn('rowId', rowIds);
}

/** The salon records linked to a customer account. */
export async function recordsOfAccount(db: Db, accountId: string): Promise<{ tenantId: string; customerId: string }[]> {
  const rows = await CustomerModel.query(db).where({ accountId }).orderBy('createdAt').select('tenantId', 'id');
  return rows.map((r) => ({ tenantId: r.tenantId, customerId: r.id }));
}
