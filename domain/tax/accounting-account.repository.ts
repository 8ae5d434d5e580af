// Data access of accounting accounts: tenant-scoped, plain rows out; the caller passes the pool or its transaction.
import type { Db } from '../../db/db-handle';
import { AccountingAccountModel } from '../../db/models/accounting-account.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plainOrUndefined, type Row } from '../../db/plain';

export type AccountingAccountRow = Row<AccountingAccountModel>;
export type AccountingAccountFields = Pick<AccountingAccountRow, 'code' | 'name' | 'taxId' | 'isDefault'>;

export async function findAccountingAccount(db: Db, tenantId: string, id: string, lock = false): Promise<AccountingAccountRow | undefined> {
  const q = AccountingAccountModel.query(db).findOne({ id, tenantId });
  if (lock) q.forUpdate();
  return plainOrUndefined(await q);
}

export async function findAccountingAccountByCode(db: Db, tenantId: string, code: string): Promise<AccountingAccountRow | undefined> {
  return plainOrUndefined(await AccountingAccountModel.query(db).findOne({ tenantId, code }));
}

/** Is any account of the tenant booked against this tax? */
export async function taxInUse(db: Db, tenantId: string, taxId: string): Promise<boolean> {
  return !!(await AccountingAccountModel.query(db).where({ tenantId, taxId }).select('id').first());
}

export async function pageOfAccountingAccounts(
  db: Db,
  tenantId: string,
  filter: { taxId?: string },
  page: PageQuery,
): Promise<PageResult<AccountingAccountRow>> {
  const q = AccountingAccountModel.query(db)
    .where({ tenantId })
    .orderBy([{ column: 'code' }, { column: 'id' }]);
  if (filter.taxId) q.where({ taxId: filter.taxId });
  return paginate(q, page);
}

export async function insertAccountingAccount(db: Db, tenantId: string, fields: AccountingAccountFields): Promise<string> {
  return (await AccountingAccountModel.query(db).insert({ tenantId, ...fields })).id;
}

export async function patchAccountingAccount(db: Db, tenantId: string, id: string, changes: Partial<AccountingAccountFields>): Promise<void> {
  await AccountingAccountModel.query(db).patch(changes).where({ id, tenantId });
}

/** The number of rows deleted (0 or 1). */
export async function deleteAccountingAccount(db: Db, tenantId: string, id: string): Promise<number> {
  return AccountingAccountModel.query(db).delete().where({ id, tenantId });
}

/** The tenant's default account stops being the default (a new one is about to be set). */
export async function clearDefaultAccountingAccount(db: Db, tenantId: string): Promise<void> {
  await AccountingAccountModel.query(db).patch({ isDefault: false }).where({ tenantId, isDefault: true });
}
