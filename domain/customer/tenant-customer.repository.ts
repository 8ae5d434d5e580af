// Data access of tenant customers (the per-salon view of a customer) and their visits: tenant-scoped,
// plain rows out; the caller passes the pool or its transaction.
import type { Db } from '../../db/db-handle';
import { raw } from 'objection';
import { TenantCustomerModel } from '../../db/models/tenant-customer.model';
import { TenantCustomerVisitModel } from '../../db/models/tenant-customer-visit.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, plainOrUndefined, returnedRows, type Row } from '../../db/plain';
import { whereCustomerMatches, type CustomerRow } from './customer.repository';

export type TenantCustomerRow = Omit<Row<TenantCustomerModel>, 'customer'>;
export type TenantCustomerWithCustomer = TenantCustomerRow & { customer: CustomerRow };
export type TenantCustomerChanges = Partial<Pick<TenantCustomerRow, 'tags' | 'notes' | 'visitCount' | 'totalSpent' | 'firstVisit' | 'lastVisit'>>;

export interface TenantCustomerFilter {
  search?: string;
  /** a row matches when it has every listed tag */
  tags: string[];
  customerId?: string;
  sort?: 'createdAt' | 'lastVisit' | 'visitCount' | 'totalSpent';
  order?: 'asc' | 'desc';
}

export async function pageOfTenantCustomers(
  db: Db,
  tenantId: string,
  filter: TenantCustomerFilter,
  page: PageQuery,
): Promise<PageResult<TenantCustomerWithCustomer>> {
  const q = TenantCustomerModel.query(db)
    .select('tenant_customers.*')
    .joinRelated('customer')
    .withGraphFetched('customer')
    .where('tenant_customers.tenantId', tenantId)
    .where('customer.tenantId', tenantId)
    .where('customer.erased', false);
  whereCustomerMatches(q, filter.search, 'customer');
  if (filter.tags.length) q.whereRaw('tenant_customers.tags @> ?::text[]', [filter.tags]);
  if (filter.customerId) q.where('tenant_customers.customerId', filter.customerId);
  const order = filter.order ?? 'desc';
  const sort = filter.sort ?? 'createdAt';
  q.orderByRaw(`tenant_customers.?? ${order} NULLS LAST`, [sort.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]).orderBy('tenant_customers.id', order);
  return (await paginate(q, page)) as PageResult<TenantCustomerWithCustomer>;
}

export async function findTenantCustomer(db: Db, tenantId: string, id: string): Promise<TenantCustomerWithCustomer | undefined> {
  return plainOrUndefined(await TenantCustomerModel.query(db).findOne({ id, tenantId }).withGraphFetched('customer')) as TenantCustomerWithCustomer | undefined;
}

/** SELECT ... FOR UPDATE of the row, without its customer. */
export async function lockTenantCustomer(
  db: Db,
  where: { tenantId: string; id: string } | { tenantId: string; customerId: string },
): Promise<TenantCustomerRow | undefined> {
  return plainOrUndefined(await TenantCustomerModel.query(db).findOne(where).forUpdate());
}

/** Creates the customer's row in this salon (empty metrics) unless it has one. */
export async function insertTenantCustomerIfMissing(db: Db, tenantId: string, customerId: string): Promise<void> {
  await TenantCustomerModel.query(db).insert({ tenantId, customerId }).onConflict().ignore();
}

/**
 * The customer's row in this salon, created (empty metrics) when it has none yet: one statement
 * when it is created (the insert returns it), a second to read it when it was there.
 */
export async function ensureTenantCustomer(db: Db, tenantId: string, customerId: string): Promise<TenantCustomerRow> {
  const [created] = await returnedRows<TenantCustomerRow>(TenantCustomerModel.query(db).insert({ tenantId, customerId }).onConflict().ignore().returning('*'));
  return created ?? plain(await TenantCustomerModel.query(db).findOne({ tenantId, customerId }).throwIfNotFound());
}

export async function patchTenantCustomer(db: Db, tenantId: string, id: string, changes: TenantCustomerChanges): Promise<void> {
  await TenantCustomerModel.query(db).patch(changes).where({ id, tenantId });
}

export async function findTenantCustomerById(db: Db, id: string): Promise<TenantCustomerRow> {
  return plain(await TenantCustomerModel.query(db).findById(id).throwIfNotFound());
}

/** One row per booking (booking_id is the key): true when this call wrote it, false when it was there. */
export async function insertVisitOnce(
  db: Db,
  visit: { bookingId: string; tenantId: string; tenantCustomerId: string; amount: number; visitedAt: Date },
): Promise<boolean> {
  const inserted = await returnedRows(TenantCustomerVisitModel.query(db).insert(visit).onConflict('bookingId').ignore().returning('bookingId'));
  return inserted.length > 0;
}

/** visitCount + 1, totalSpent + amount, firstVisit = earliest, lastVisit = latest, in one UPDATE. */
export async function addVisitToMetrics(db: Db, tenantCustomerId: string, amount: number, visitedAt: Date): Promise<void> {
  await TenantCustomerModel.query(db)
    .where({ id: tenantCustomerId })
    .patch({
      visitCount: raw('visit_count + 1'),
      totalSpent: raw('total_spent + ?', [amount]),
      firstVisit: raw('LEAST(COALESCE(first_visit, ?::timestamptz), ?::timestamptz)', [visitedAt, visitedAt]),
      lastVisit: raw('GREATEST(COALESCE(last_visit, ?::timestamptz), ?::timestamptz)', [visitedAt, visitedAt]),
    });
}

// ---------------------------------------------------------------- as other modules see tenant customers

export async function tenantCustomerExists(db: Db, tenantId: string, id: string): Promise<boolean> {
  return !!(await TenantCustomerModel.query(db).select('id').findOne({ tenantId, id }));
}

export async function tenantCustomerIdOf(db: Db, tenantId: string, customerId: string): Promise<string | undefined> {
  return (await TenantCustomerModel.query(db).select('id').findOne({ tenantId, customerId }))?.id;
}

/** The salon records of the given customers (one per salon), with the salon's name and slug, by salon name. */
export async function tenantCustomersOfCustomers(
  db: Db,
  customerIds: string[],
): Promise<{ tenantCustomerId: string; tenantId: string; tenantName: string; tenantSlug: string }[]> {
  if (!customerIds.length) return [];
  const rows = await TenantCustomerModel.query(db)
    .join('tenants as t', 't.id', 'tenant_customers.tenantId')
    .whereIn('tenant_customers.customerId', customerIds)
    .select('tenant_customers.id as tenantCustomerId', 'tenant_customers.tenantId', 't.name as tenantName', 't.slug as tenantSlug')
    .orderBy('t.name');
  return rows.map((r) => plain(r) as unknown as { tenantCustomerId: string; tenantId: string; tenantName: string; tenantSlug: string });
}

/** Who to message about a tenant customer, and from which salon (its name and time zone); one query. */
export async function contactOfTenantCustomer(
  db: Db,
  tenantCustomerId: string,
): Promise<
  | {
      customerId: string;
      customerName: string;
      phone: string | null;
      email: string | null;
      tenantName: string;
      /** the salon's address (its country reads its numbers) */
      address: unknown;
      timezone: string | undefined;
      currency: string | undefined;
    }
  | undefined
> {
  const row = (await TenantCustomerModel.query(db)
    .join('customers as c', 'c.id', 'tenant_customers.customerId')
    .join('tenants as t', 't.id', 'tenant_customers.tenantId')
    .where('tenant_customers.id', tenantCustomerId)
    .select('c.id as customerId', 'c.name as customerName', 'c.phone', 'c.email', 't.name as tenantName', 't.address', 't.settings')
    .first()) as unknown as
    | {
        customerId: string;
        customerName: string;
        phone: string | null;
        email: string | null;
        tenantName: string;
        address: unknown;
        settings: { timezone?: string; currency?: string } | null;
      }
    | undefined;
  if (!row) return undefined;
  return {
    customerId: row.customerId,
    customerName: row.customerName,
    phone: row.phone,
    email: row.email,
    tenantName: row.tenantName,
    address: row.address,
    timezone: row.settings?.timezone,
    currency: row.settings?.currency,
  };
}
