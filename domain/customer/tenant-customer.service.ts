// Tenant customers (docs/rules/customers.md#tenant-customers): the per-salon view of a customer with tags, notes and visit
// metrics. OWNER and ADMIN may patch every field; STAFF only notes and tags - a STAFF body naming
// visitCount, totalSpent, firstVisit or lastVisit is rejected whole with 400 FORBIDDEN_FIELD.
//
// Visit metrics are otherwise written only by recordCompletedVisit (booking completion). It is
// idempotent per booking: tenant_customer_visits has booking_id as its primary key, the visit row is
// inserted ON CONFLICT DO NOTHING, and the metrics move only when that insert wrote a row - so a
// retried activity or a second COMPLETED transition never counts a visit twice.
import type { Db } from '../../db/db-handle';
import type { PageQuery, PageResult } from '../../db/paginate';
import type { Role } from '../users/roles.rules';
import { errors } from '../errors';
import { toTenantCustomerDto, type TenantCustomerDto } from './customer.dto';
import { findCustomer } from './customer.repository';
import * as repo from './tenant-customer.repository';
import { requireApiDateTime } from '../time/iso';

export interface TenantCustomerPatch {
  tags?: string[];
  notes?: string | null;
  visitCount?: number;
  totalSpent?: number;
  firstVisit?: string | null;
  lastVisit?: string | null;
}

export interface TenantCustomerListQuery extends PageQuery {
  search?: string;
  /** a row matches when it has every listed tag (the query string is comma-separated) */
  tags?: string | string[];
  customerId?: string;
  sort?: 'createdAt' | 'lastVisit' | 'visitCount' | 'totalSpent';
  order?: 'asc' | 'desc';
}

export const METRIC_FIELDS = ['visitCount', 'totalSpent', 'firstVisit', 'lastVisit'] as const;

function dto(tc: repo.TenantCustomerWithCustomer): TenantCustomerDto {
  return toTenantCustomerDto(tc, tc.customer);
}

export function parseTags(tags: string | string[] | undefined): string[] {
  const list = Array.isArray(tags) ? tags : (tags ?? '').split(',');
  return list.map((t) => t.trim()).filter(Boolean);
}

export async function listTenantCustomers(db: Db, tenantId: string, query: TenantCustomerListQuery): Promise<PageResult<TenantCustomerDto>> {
  const page = await repo.pageOfTenantCustomers(db, tenantId, { ...query, tags: parseTags(query.tags) }, query);
  return { ...page, rows: page.rows.map(dto) };
}

async function existingTenantCustomer(db: Db, tenantId: string, id: string): Promise<repo.TenantCustomerWithCustomer> {
  const tc = await repo.findTenantCustomer(db, tenantId, id);
  if (!tc) throw errors.notFound('tenantCustomer');
  return tc;
}

export async function getTenantCustomer(db: Db, tenantId: string, id: string): Promise<TenantCustomerDto> {
  return dto(await existingTenantCustomer(db, tenantId, id));
}

export async function updateTenantCustomer(db: Db, tenantId: string, id: string, patch: TenantCustomerPatch, role: Role): Promise<TenantCustomerDto> {
  if (role === 'STAFF') {
    const forbidden = METRIC_FIELDS.filter((f) => patch[f] !== undefined);
    if (forbidden.length) throw errors.forbiddenField([...forbidden]);
  }
  return db.transaction(async (trx) => {
    const current = await repo.lockTenantCustomer(trx, { id, tenantId });
    if (!current) throw errors.notFound('tenantCustomer');
    const changes: repo.TenantCustomerChanges = {};
    if (patch.tags !== undefined) changes.tags = [...new Set(patch.tags.map((t) => t.trim()))];
    if (patch.notes !== undefined) changes.notes = patch.notes;
    if (patch.visitCount !== undefined) changes.visitCount = patch.visitCount;
    if (patch.totalSpent !== undefined) changes.totalSpent = patch.totalSpent;
    if (patch.firstVisit !== undefined) changes.firstVisit = patch.firstVisit === null ? null : requireApiDateTime(patch.firstVisit, 'firstVisit');
    if (patch.lastVisit !== undefined) changes.lastVisit = patch.lastVisit === null ? null : requireApiDateTime(patch.lastVisit, 'lastVisit');
    const first = changes.firstVisit !== undefined ? changes.firstVisit : current.firstVisit;
    const last = changes.lastVisit !== undefined ? changes.lastVisit : current.lastVisit;
    if (first && last && new Date(first) > new Date(last)) {
      throw errors.validation('Request validation failed', [{ field: 'lastVisit', message: 'must not be before firstVisit' }]);
    }
    if (Object.keys(changes).length) await repo.patchTenantCustomer(trx, tenantId, id, changes);
    return dto(await existingTenantCustomer(trx, tenantId, id));
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
 * customer is not one of the tenant's. Runs in the caller's transaction (the booking activity's).
 */
export async function recordCompletedVisit(trx: Db, visit: CompletedVisit): Promise<{ recorded: boolean; tenantCustomer: TenantCustomerDto }> {
  if (!Number.isInteger(visit.amount) || visit.amount < 0) {
    throw errors.validation('Request validation failed', [{ field: 'amount', message: 'must be a non-negative integer (minor units)' }]);
  }
  const customer = await findCustomer(trx, visit.tenantId, visit.customerId);
  if (!customer) throw errors.notFound('customer');
  await repo.insertTenantCustomerIfMissing(trx, visit.tenantId, visit.customerId);
  const tc = await repo.lockTenantCustomer(trx, { tenantId: visit.tenantId, customerId: visit.customerId });
  const recorded = await repo.insertVisitOnce(trx, {
    bookingId: visit.bookingId,
    tenantId: visit.tenantId,
    tenantCustomerId: tc!.id,
    amount: visit.amount,
    visitedAt: visit.visitedAt,
  });
  if (recorded) await repo.addVisitToMetrics(trx, tc!.id, visit.amount, visit.visitedAt);
  return { recorded, tenantCustomer: toTenantCustomerDto(await repo.findTenantCustomerById(trx, tc!.id), customer) };
}
