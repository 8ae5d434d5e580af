// The retention (docs/rules/personal-data.md#retention): each salon's daily sweep pseudonymises the
// customers past the salon's retention (the moment of erasure and the rest, in one transaction per
// customer, with their due-ness read again under the row lock), removes the sales kept for the
// accounts whose period ended, and reports what it did; the owner sees who is due.
import type { Db } from '../../db/db-handle';
import type { PageQuery, PageResult } from '../../db/paginate';
import { tenantById, type TenantContext } from '../tenant/tenant-context';
import { findTenant } from '../tenant/tenant.repository';
import { toIso } from '../time/iso';
import { lockCustomerRecord } from '../customer/customer-personal-data.repository';
import { accountingRecordsPastTheirPeriod, deleteAccountingRecords } from '../booking/booking-personal-data.repository';
import { lastRemovableAccountingYear, retentionCutoff, retentionDueAt, retentionMonthsOf } from './personal-data.rules';
import { countPseudonymisedAt, dueCustomerIds, isStillDue, pageOfDueCustomers } from './retention.repository';
import { insertRetentionSweep, pageOfRetentionSweeps } from './personal-data.repository';
import { retentionSweepDto } from './personal-data.dto';
import { eraseAtTheMoment, eraseTheRest, type ErasureDeps } from './erasure-steps';

const DAY_MS = 24 * 60 * 60 * 1000;

/** One batch of a sweep at `at`: what it did, the addresses whose outbox copies go, and whether there is more. */
export interface RetentionBatch {
  pseudonymised: number;
  accountingRemoved: number;
  addresses: string[];
  more: boolean;
  /** the salon no longer exists: its timer ends */
  salonGone: boolean;
}

/** One customer pseudonymised, in one transaction; null when they were no longer due. Answers the addresses they had. */
async function pseudonymise(deps: ErasureDeps, tenant: TenantContext, customerId: string, cutoff: Date, at: Date): Promise<string[] | null> {
  return deps.knex.transaction(async (trx) => {
    // due-ness read again under the record's lock: a booking made since the list was read keeps the customer
    if (!(await lockCustomerRecord(trx, tenant.id, customerId)) || !(await isStillDue(trx, tenant.id, customerId, cutoff, at))) return null;
    const erased = await eraseAtTheMoment(deps, trx, { tenant, customerId }, at);
    if (!erased) return null;
    const phones = erased.phone ? [erased.phone] : [];
    await eraseTheRest(trx, { tenant, customerId }, phones, at);
    return [...phones, ...phones.map((p) => p.replace(/^\+/, '')), ...(erased.email ? [erased.email] : [])];
  });
}

/** Pseudonymises up to `limit` due customers, then removes up to `limit` sales past their period. */
export async function sweepRetentionBatch(deps: ErasureDeps, tenantId: string, at: Date, limit: number): Promise<RetentionBatch> {
  if (!(await findTenant(deps.knex, tenantId))) return { pseudonymised: 0, accountingRemoved: 0, addresses: [], more: false, salonGone: true };
  const tenant = await tenantById(deps.knex, tenantId);
  const cutoff = retentionCutoff(at, retentionMonthsOf(tenant.settings));
  const due = await dueCustomerIds(deps.knex, tenantId, cutoff, at, limit);
  const addresses: string[] = [];
  let pseudonymised = 0;
  for (const customerId of due) {
    const gone = await pseudonymise(deps, tenant, customerId, cutoff, at);
    if (!gone) continue;
    pseudonymised += 1;
    addresses.push(...gone);
  }
  const records = await accountingRecordsPastTheirPeriod(
    deps.knex,
    tenantId,
    tenant.settings.timezone,
    lastRemovableAccountingYear(at, tenant.settings.timezone),
    limit,
  );
  const accountingRemoved = await deps.knex.transaction((trx) => deleteAccountingRecords(trx, tenantId, records));
  return { pseudonymised, accountingRemoved, addresses, more: (due.length === limit && pseudonymised > 0) || records.length === limit, salonGone: false };
}

/** The sweep's report (once per sweep time): how many customers it pseudonymised (counted from the records it stamped) and sales it removed. */
export async function recordRetentionSweep(db: Db, tenantId: string, at: Date, accountingRemoved: number): Promise<{ pseudonymised: number }> {
  const tenant = await findTenant(db, tenantId);
  if (!tenant) return { pseudonymised: 0 };
  const pseudonymised = await countPseudonymisedAt(db, tenantId, at);
  await insertRetentionSweep(db, { tenantId, sweptAt: at, retentionMonths: retentionMonthsOf(tenant.settings), pseudonymised, accountingRemoved });
  return { pseudonymised };
}

/** GET /personal-data/retention/due: who is due now, or within `withinDays`, soonest first. */
export async function listDueCustomers(db: Db, tenant: TenantContext, withinDays: number, now: Date, page: PageQuery) {
  const months = retentionMonthsOf(tenant.settings);
  const horizon = new Date(now.getTime() + withinDays * DAY_MS);
  const found = await pageOfDueCustomers(db, tenant.id, retentionCutoff(horizon, months), horizon, page);
  return {
    ...found,
    rows: found.rows.map((c) => ({
      customerId: c.id,
      name: c.name,
      lastActivityAt: toIso(c.lastActivityAt),
      dueAt: toIso(retentionDueAt(new Date(c.lastActivityAt), months)),
    })),
  };
}

/** GET /personal-data/retention/sweeps */
export async function listRetentionSweeps(db: Db, tenantId: string, page: PageQuery): Promise<PageResult<ReturnType<typeof retentionSweepDto>>> {
  const found = await pageOfRetentionSweeps(db, tenantId, page);
  return { ...found, rows: found.rows.map(retentionSweepDto) };
}
