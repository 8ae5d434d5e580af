// Data access of customers: tenant-scoped, plain rows out; the caller passes the pool or its transaction.
import type { QueryBuilder } from 'objection';
import type { Db } from '../../db/db-handle';
import { CustomerModel } from '../../db/models/customer.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, plainOrUndefined, returnedRows, type Row } from '../../db/plain';
import { isUniqueViolation } from '../../db/db-errors';
import { likePattern, normalisePhone } from './customer.rules';

export type CustomerRow = Row<CustomerModel>;
export type CustomerFields = Pick<CustomerRow, 'name' | 'phone' | 'email' | 'notes'>;

export interface CustomerFilter {
  search?: string;
  sort?: 'createdAt' | 'name';
  order?: 'asc' | 'desc';
}

/**
 * The search of GET /customers and GET /tenant-customers: the term matched case-insensitively
 * against name, e-mail and (normalised) phone of the customers table under `table`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function whereCustomerMatches(q: QueryBuilder<any, any>, search: string | undefined, table = 'customers'): void {
  const term = search?.trim();
  if (!term) return;
  const phoneTerm = normalisePhone(term);
  q.where((w) => {
    w.where(`${table}.name`, 'ilike', likePattern(term)).orWhere(`${table}.email`, 'ilike', likePattern(term.toLowerCase()));
    if (phoneTerm) w.orWhere(`${table}.phone`, 'like', likePattern(phoneTerm));
  });
}

export async function pageOfCustomers(db: Db, tenantId: string, filter: CustomerFilter, page: PageQuery): Promise<PageResult<CustomerRow>> {
  const q = CustomerModel.query(db).where('customers.tenantId', tenantId);
  whereCustomerMatches(q, filter.search);
  q.orderBy(filter.sort ?? 'createdAt', filter.order ?? 'desc').orderBy('id', filter.order ?? 'desc');
  return paginate(q, page);
}

export async function findCustomer(db: Db, tenantId: string, id: string, lock = false): Promise<CustomerRow | undefined> {
  const q = CustomerModel.query(db).findOne({ id, tenantId });
  if (lock) q.forUpdate();
  return plainOrUndefined(await q);
}

/** The tenant's customer with this (normalised) phone or e-mail, other than `exceptId`. */
export async function findCustomerBy(db: Db, tenantId: string, contact: { phone: string } | { email: string }, exceptId?: string): Promise<CustomerRow | undefined> {
  const q = CustomerModel.query(db).findOne({ tenantId, ...contact });
  if (exceptId) q.whereNot('id', exceptId);
  return plainOrUndefined(await q);
}

export async function insertCustomer(db: Db, tenantId: string, fields: CustomerFields): Promise<string> {
  return (await CustomerModel.query(db).insert({ tenantId, ...fields })).id;
}

/**
 * INSERT ... ON CONFLICT DO NOTHING against the phone and e-mail unique indexes: the new row, or
 * undefined when a customer with this phone or e-mail exists. Never aborts the caller's transaction.
 */
export async function insertCustomerUnlessTaken(db: Db, tenantId: string, fields: Omit<CustomerFields, 'notes'>): Promise<CustomerRow | undefined> {
  const inserted = await returnedRows<CustomerRow>(CustomerModel.query(db).insert({ tenantId, ...fields }).onConflict().ignore().returning('*'));
  return inserted[0];
}

export async function patchCustomer(db: Db, tenantId: string, id: string, changes: Partial<CustomerFields>): Promise<void> {
  await CustomerModel.query(db).patch(changes).where({ id, tenantId });
}

// ---------------------------------------------------------------- the link to a customer account

/** The salons where the account has a customer record, by name. */
export async function salonsOfAccount(db: Db, accountId: string): Promise<{ tenantId: string; slug: string; name: string; customerId: string }[]> {
  const rows = await CustomerModel.query(db)
    .join('tenants as t', 't.id', 'customers.tenantId')
    .where('customers.accountId', accountId)
    .orderBy('t.name')
    .select('t.id as tenantId', 't.slug', 't.name', 'customers.id as customerId');
  return rows.map((r) => plain(r) as unknown as { tenantId: string; slug: string; name: string; customerId: string });
}

/** Links a salon's customer record to the account unless it belongs to another account already. */
export async function linkCustomerToAccount(db: Db, tenantId: string, customerId: string, accountId: string): Promise<void> {
  if (await customerIdOfAccount(db, tenantId, accountId)) return;
  try {
    // a savepoint: two bookings linking at once lose nothing but the second link
    await db.transaction(async (sp) => {
      await CustomerModel.query(sp).patch({ accountId }).where({ tenantId, id: customerId }).whereNull('accountId');
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
}

/** The salon's customer record of the account, if one is linked. */
export async function customerIdOfAccount(db: Db, tenantId: string, accountId: string): Promise<string | undefined> {
  return (await CustomerModel.query(db).select('id').findOne({ tenantId, accountId }))?.id;
}
