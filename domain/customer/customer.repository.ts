// Data access of customers: tenant-scoped, plain rows out; the caller passes the pool or its transaction.
import type { QueryBuilder } from 'objection';
import type { Db } from '../../db/db-handle';
import { CustomerModel } from '../../db/models/customer.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, plainOrUndefined, type Row } from '../../db/plain';
import { likePattern } from './customer.rules';
import { phoneSearchTerm } from '../phone/phone.rules';
import { runNamedStatement } from '../../db/named-statement';
import { isUniqueViolation } from '../../db/db-errors';

export type CustomerRow = Row<CustomerModel>;
export type CustomerFields = Pick<CustomerRow, 'name' | 'phone' | 'email' | 'notes'> & Partial<Pick<CustomerRow, 'acceptsRebookingNudges'>>;

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
  // an erased record is no longer one of the salon's customers (docs/rules/personal-data.md#erasure); GET /customers/:id still answers it
  const q = CustomerModel.query(db).where('customers.tenantId', tenantId).where('customers.erased', false);
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
export async function findCustomerBy(
  db: Db,
  tenantId: string,
  contact: { phone: string } | { email: string },
  exceptId?: string,
): Promise<CustomerRow | undefined> {
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

/**
 * Whether a customer record's account has proven it (docs/rules/customers.md#linking-an-account): the
 * account verified the record's phone by a one-time code; an e-mail proves nothing. Reads the
 * accounts' proof columns (customer-account's table) inside this area's statements.
 */
const PROVEN_OWNER = `EXISTS (SELECT 1 FROM customer_accounts a WHERE a.id = c.account_id
    AND a.phone_verified_at IS NOT NULL AND a.phone = c.phone)`;

/**
 * Links the salon's customer record to the account that proved it is theirs: unless the account has
 * a record in that salon already, and unless another account proved it first (a record linked
 * without proof, as bookings and verified e-mails did before, is taken over). True when the record is the account's
 * afterwards. Raw SQL: a model query cannot express the correlated conditions of one UPDATE.
 */
export async function linkProvenOwner(db: Db, tenantId: string, customerId: string, accountId: string): Promise<boolean> {
  try {
    // a savepoint: a concurrent link of the same account in this salon loses only this link
    return await db.transaction(async (sp) => linkOne(sp, tenantId, customerId, accountId));
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

async function linkOne(db: Db, tenantId: string, customerId: string, accountId: string): Promise<boolean> {
  const result = await db.raw(
    `UPDATE customers c SET account_id = :accountId
      WHERE c.tenant_id = :tenantId AND c.id = :customerId
        AND (c.account_id IS NULL OR c.account_id = :accountId OR NOT ${PROVEN_OWNER})
        AND NOT EXISTS (SELECT 1 FROM customers o WHERE o.tenant_id = c.tenant_id AND o.account_id = :accountId AND o.id <> c.id)
      RETURNING c.id`,
    { accountId, tenantId, customerId },
  );
  return (result as { rows: unknown[] }).rows.length === 1;
}

/**
 * After an account proved a phone: every salon's customer record with that (normalised) phone becomes
 * the account's, on the terms of linkProvenOwner. Answers how many records it linked. Raw SQL, as above.
 */
export async function linkProvenPhoneEverywhere(db: Db, accountId: string, phone: string): Promise<number> {
  const result = await db.raw(
    `UPDATE customers c SET account_id = :accountId
      WHERE c.phone = :phone
        AND (c.account_id IS NULL OR c.account_id = :accountId OR NOT ${PROVEN_OWNER})
        AND NOT EXISTS (SELECT 1 FROM customers o WHERE o.tenant_id = c.tenant_id AND o.account_id = :accountId AND o.id <> c.id)
      RETURNING c.id`,
    { accountId, phone },
  );
  return (result as { rows: unknown[] }).rows.length;
}

/** The salon's customer record of the account, if one is linked. */
export async function customerIdOfAccount(db: Db, tenantId: string, accountId: string): Promise<string | undefined> {
  return (await CustomerModel.query(db).select('id').findOne({ tenantId, accountId }))?.id;
}

/** The account's consent per salon. */
export async function rebookingNudgesOfAccount(db: Db, accountId: string): Promise<{ tenantId: string; slug: string; name: string; accepts: boolean }[]> {
  const rows = await CustomerModel.query(db)
    .join('tenants as t', 't.id', 'customers.tenantId')
    .where('customers.accountId', accountId)
    .orderBy('t.name')
    .select('t.id as tenantId', 't.slug', 't.name', 'customers.acceptsRebookingNudges as accepts');
  return rows.map((r) => plain(r) as unknown as { tenantId: string; slug: string; name: string; accepts: boolean });
}
