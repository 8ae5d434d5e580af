// Data access of customers: tenant-scoped, plain rows out; the caller passes the pool or its transaction.
import type { QueryBuilder } from 'objection';
import type { Db } from '../../db/db-handle';
import { CustomerModel } from '../../db/models/customer.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, plainOrUndefined, type Row } from '../../db/plain';
import { isUniqueViolation } from '../../db/db-errors';
import { likePattern } from './customer.rules';
import { phoneSearchTerm } from '../phone/phone.rules';
import { runNamedStatement } from '../../db/named-statement';

export type CustomerRow = Row<CustomerModel>;
export type CustomerFields = Pick<CustomerRow, 'name' | 'phone' | 'email' | 'notes'>;

export interface CustomerFilter {
  search?: string;
  sort?: 'createdAt' | 'name';
  order?: 'asc' | 'desc';
}

/**
 * The search of GET /customers and GET /tenant-customers: the term matched case-insensitively
 * against name, e-mail and phone (digits of the stored E.164 number) of the customers table under `table`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function whereCustomerMatches(q: QueryBuilder<any, any>, search: string | undefined, table = 'customers'): void {
  const term = search?.trim();
  if (!term) return;
  const phoneTerm = phoneSearchTerm(term);
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
 * A booking's customer by phone, with its salon row, in one statement
 * (docs/rules/customers.md#customers): the customer is inserted unless its phone or e-mail is taken
 * (ON CONFLICT DO NOTHING, so the caller's transaction is never aborted), else the salon's customer
 * with this phone is taken; either way its tenant_customers row is inserted unless it exists.
 * Undefined when neither: the e-mail belongs to another customer, or a booking racing for the same new
 * phone committed it after this statement's snapshot was taken (the next statement sees it).
 * Raw SQL: a model cannot compose inserts and a read into one statement; the column lists are fixed,
 * so it is a named statement (parsed once per connection).
 */
export async function claimCustomerByPhone(
  db: Db,
  tenantId: string,
  fields: { name: string; phone: string; email: string | null },
): Promise<{ id: string; created: boolean } | undefined> {
  const rows = await runNamedStatement<{ id: string; created: boolean }>(db, {
    name: 'claim-customer-by-phone',
    sql: CLAIM_CUSTOMER_BY_PHONE,
    bindings: [tenantId, fields.name, fields.phone, fields.email, tenantId, fields.phone, tenantId],
  });
  return rows[0];
}

const CLAIM_CUSTOMER_BY_PHONE = `WITH inserted AS (
  INSERT INTO customers (tenant_id, name, phone, email) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id
), customer AS (
  SELECT id, true AS created FROM inserted
  UNION ALL
  SELECT id, false AS created FROM customers WHERE tenant_id = ? AND phone = ? AND NOT EXISTS (SELECT 1 FROM inserted)
), salon_row AS (
  INSERT INTO tenant_customers (tenant_id, customer_id) SELECT ?, id FROM customer ON CONFLICT DO NOTHING
)
SELECT id, created FROM customer`;

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
