// Tenant customers (spec 2.7, 4.6, 5.4): the per-salon view of a customer with tags, notes and visit
// metrics. OWNER and ADMIN may patch every field; STAFF only notes and tags - a STAFF body naming
// visitCount, totalSpent, firstVisit or lastVisit is rejected whole with 400 FORBIDDEN_FIELD.
//
// Visit metrics are otherwise written only by recordCompletedVisit (booking completion). It is
// idempotent per booking: tenant_customer_visits has booking_id as its primary key, the visit row is
// inserted ON CONFLICT DO NOTHING, and the metrics move only when that insert wrote a row - so a
// retried activity or a second COMPLETED transition never counts a visit twice.
import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import { TenantCustomerModel } from '../../db/models/tenant-customer.model';
import { CustomerModel } from '../../db/models/customer.model';
import { paginate } from '../../db/paginate';
import type { Role } from '../auth/roles.rules';
import { errors } from '../errors';
import { applyCustomerSearch } from './customer-search';
import { toIso, toIsoOrNull } from '../time/iso';

export interface TenantCustomerDto {
  id: string;
  customerId: string;
  customer: { id: string; name: string; phone: string | null; email: string | null };
  tags: string[];
  notes: string | null;
  visitCount: number;
  firstVisit: string | null;
  lastVisit: string | null;
  totalSpent: number;
  createdAt: string;
  updatedAt: string;
}

export interface TenantCustomerPatch {
  tags?: string[];
  notes?: string | null;
  visitCount?: number;
  totalSpent?: number;
  firstVisit?: string | null;
  lastVisit?: string | null;
}

export interface TenantCustomerListQuery {
  page?: number;
  limit?: number;
  search?: string;
  /** a row matches when it has every listed tag (the query string is comma-separated) */
  tags?: string | string[];
  customerId?: string;
  sort?: 'createdAt' | 'lastVisit' | 'visitCount' | 'totalSpent';
  order?: 'asc' | 'desc';
}

export const METRIC_FIELDS = ['visitCount', 'totalSpent', 'firstVisit', 'lastVisit'] as const;


export function toTenantCustomerDto(tc: TenantCustomerModel, customer: CustomerModel): TenantCustomerDto {
  return {
    id: tc.id,
    customerId: tc.customerId,
    customer: { id: customer.id, name: customer.name, phone: customer.phone, email: customer.email },
    tags: tc.tags ?? [],
    notes: tc.notes,
    visitCount: tc.visitCount,
    firstVisit: toIsoOrNull(tc.firstVisit),
    lastVisit: toIsoOrNull(tc.lastVisit),
    totalSpent: Number(tc.totalSpent),
    createdAt: toIso(tc.createdAt),
    updatedAt: toIso(tc.updatedAt),
  };
}

function dto(tc: TenantCustomerModel): TenantCustomerDto {
  return toTenantCustomerDto(tc, tc.customer!);
}

export function parseTags(tags: string | string[] | undefined): string[] {
  const list = Array.isArray(tags) ? tags : (tags ?? '').split(',');
  return list.map((t) => t.trim()).filter(Boolean);
}

export async function listTenantCustomers(tenantId: string, query: TenantCustomerListQuery) {
  const q = TenantCustomerModel.query()
    .select('tenant_customers.*')
    .joinRelated('customer')
    .withGraphFetched('customer')
    .where('tenant_customers.tenantId', tenantId)
    .where('customer.tenantId', tenantId);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  applyCustomerSearch(q as QueryBuilder<any, any>, query.search, 'customer');
  const tags = parseTags(query.tags);
  if (tags.length) q.whereRaw('tenant_customers.tags @> ?::text[]', [tags]);
  if (query.customerId) q.where('tenant_customers.customerId', query.customerId);
  const order = query.order ?? 'desc';
  const sort = query.sort ?? 'createdAt';
  q.orderByRaw(`tenant_customers.?? ${order} NULLS LAST`, [sort.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]).orderBy('tenant_customers.id', order);
  const page = await paginate(q, query);
  return { ...page, rows: page.rows.map(dto) };
}

async function findTenantCustomer(trx: Knex.Transaction | undefined, tenantId: string, id: string): Promise<TenantCustomerModel> {
  const tc = await TenantCustomerModel.query(trx).findOne({ id, tenantId }).withGraphFetched('customer');
  if (!tc) throw errors.notFound('tenantCustomer');
  return tc;
}

export async function getTenantCustomer(tenantId: string, id: string): Promise<TenantCustomerDto> {
  return dto(await findTenantCustomer(undefined, tenantId, id));
}

export async function updateTenantCustomer(tenantId: string, id: string, patch: TenantCustomerPatch, role: Role): Promise<TenantCustomerDto> {
  if (role === 'STAFF') {
    const forbidden = METRIC_FIELDS.filter((f) => patch[f] !== undefined);
    if (forbidden.length) throw errors.forbiddenField([...forbidden]);
  }
  return TenantCustomerModel.transaction(async (trx) => {
    const current = await TenantCustomerModel.query(trx).findOne({ id, tenantId }).forUpdate();
    if (!current) throw errors.notFound('tenantCustomer');
    const changes: Record<string, unknown> = {};
    if (patch.tags !== undefined) changes.tags = [...new Set(patch.tags.map((t) => t.trim()))];
    if (patch.notes !== undefined) changes.notes = patch.notes;
    if (patch.visitCount !== undefined) changes.visitCount = patch.visitCount;
    if (patch.totalSpent !== undefined) changes.totalSpent = patch.totalSpent;
    if (patch.firstVisit !== undefined) changes.firstVisit = patch.firstVisit === null ? null : new Date(patch.firstVisit);
    if (patch.lastVisit !== undefined) changes.lastVisit = patch.lastVisit === null ? null : new Date(patch.lastVisit);
    const first = (changes.firstVisit !== undefined ? changes.firstVisit : current.firstVisit) as Date | null;
    const last = (changes.lastVisit !== undefined ? changes.lastVisit : current.lastVisit) as Date | null;
    if (first && last && new Date(first) > new Date(last)) {
      throw errors.validation('Request validation failed', [{ field: 'lastVisit', message: 'must not be before firstVisit' }]);
    }
    if (Object.keys(changes).length) await TenantCustomerModel.query(trx).patch(changes as Partial<TenantCustomerModel>).where({ id, tenantId });
    return dto(await findTenantCustomer(trx, tenantId, id));
  });
}

export interface CompletedVisit {
  tenantId: string;
  customerId: string;
  bookingId: string;
  /** amount paid for the booking, integer minor units, >= 0 */
  amount: number;
  visitedAt: Date;
}

/**
 * Counts one completed booking in the tenant customer's metrics, exactly once per bookingId:
 * visitCount + 1, totalSpent + amount, firstVisit = earliest visit, lastVisit = latest visit.
 * Returns recorded: false (and the unchanged metrics) when this booking was already counted.
 * Creates the TenantCustomer row if the customer has none yet. 404 CUSTOMER_NOT_FOUND when the
 * customer is not one of the tenant's.
 */
export async function recordCompletedVisit(trx: Knex.Transaction, visit: CompletedVisit): Promise<{ recorded: boolean; tenantCustomer: TenantCustomerDto }> {
  if (!Number.isInteger(visit.amount) || visit.amount < 0) {
    throw errors.validation('Request validation failed', [{ field: 'amount', message: 'must be a non-negative integer (minor units)' }]);
  }
  const customer = await CustomerModel.query(trx).findOne({ id: visit.customerId, tenantId: visit.tenantId });
  if (!customer) throw errors.notFound('customer');
  await trx('tenant_customers').insert({ tenantId: visit.tenantId, customerId: visit.customerId }).onConflict().ignore();
  const tc = await TenantCustomerModel.query(trx).findOne({ tenantId: visit.tenantId, customerId: visit.customerId }).forUpdate().throwIfNotFound();
  const inserted: unknown[] = await trx('tenant_customer_visits')
    .insert({ bookingId: visit.bookingId, tenantId: visit.tenantId, tenantCustomerId: tc.id, amount: visit.amount, visitedAt: visit.visitedAt })
    .onConflict('booking_id')
    .ignore()
    .returning('booking_id');
  if (inserted.length) {
    await trx('tenant_customers')
      .where({ id: tc.id })
      .update({
        visitCount: trx.raw('visit_count + 1'),
        totalSpent: trx.raw('total_spent + ?', [visit.amount]),
        firstVisit: trx.raw('LEAST(COALESCE(first_visit, ?::timestamptz), ?::timestamptz)', [visit.visitedAt, visit.visitedAt]),
        lastVisit: trx.raw('GREATEST(COALESCE(last_visit, ?::timestamptz), ?::timestamptz)', [visit.visitedAt, visit.visitedAt]),
        updatedAt: trx.fn.now(),
      });
  }
  const fresh = await TenantCustomerModel.query(trx).findById(tc.id).throwIfNotFound();
  return { recorded: inserted.length > 0, tenantCustomer: toTenantCustomerDto(fresh, customer) };
}
