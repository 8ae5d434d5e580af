// Data access of taxes: tenant-scoped, plain rows out; the caller passes the pool or its transaction.
import type { Db, Transaction } from '../../db/db-handle';
import { advisoryTransactionLock } from '../../db/advisory-locks';
import { TaxModel } from '../../db/models/tax.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, plainOrUndefined, type Row } from '../../db/plain';

export type TaxRow = Row<TaxModel>;
export type TaxFields = Pick<TaxRow, 'name' | 'rate' | 'isDefault' | 'isActive'>;

export async function findTax(db: Db, tenantId: string, id: string, lock: 'forUpdate' | 'forKeyShare' | null = null): Promise<TaxRow | undefined> {
  const q = TaxModel.query(db).findOne({ id, tenantId });
  if (lock === 'forUpdate') q.forUpdate();
  if (lock === 'forKeyShare') q.forKeyShare();
  return plainOrUndefined(await q);
}

/** Default first, then by rate (highest first) and name. */
export async function pageOfTaxes(db: Db, tenantId: string, filter: { isActive?: boolean }, page: PageQuery): Promise<PageResult<TaxRow>> {
  const q = TaxModel.query(db)
    .where({ tenantId })
    .orderBy([{ column: 'isDefault', order: 'desc' }, { column: 'rate', order: 'desc' }, { column: 'name' }, { column: 'id' }]);
  if (filter.isActive !== undefined) q.where({ isActive: filter.isActive });
  return paginate(q, page);
}

export async function insertTaxes(db: Db, tenantId: string, taxes: TaxFields[]): Promise<TaxRow[]> {
  const rows = await TaxModel.query(db)
    .insert(taxes.map((t) => ({ tenantId, ...t })))
    .returning('*');
  return rows.map(plain);
}

export async function patchTax(db: Db, tenantId: string, id: string, changes: Partial<TaxFields>): Promise<void> {
  await TaxModel.query(db).patch(changes).where({ id, tenantId });
}

export async function deleteTax(db: Db, tenantId: string, id: string): Promise<void> {
  await TaxModel.query(db).delete().where({ id, tenantId });
}

/** The tenant's default tax stops being the default (a new one is about to be set). */
export async function clearDefaultTax(db: Db, tenantId: string): Promise<void> {
  await TaxModel.query(db).patch({ isDefault: false }).where({ tenantId, isDefault: true });
}

/** Serialises default changes of one tenant's taxes (or accounts) for the rest of the transaction. */
export async function lockTenantDefaults(trx: Transaction, kind: 'taxes' | 'accounting_accounts', tenantId: string): Promise<void> {
  await advisoryTransactionLock(trx, `${kind}-default:${tenantId}`);
}
