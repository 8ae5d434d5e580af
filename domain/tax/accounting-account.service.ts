// Accounting accounts (docs/rules/salon.md#taxes-and-accounting-accounts). code is unique per tenant (409 ACCOUNTING_ACCOUNT_CODE_EXISTS, also
// under races via api/middleware/constraint-errors.ts); taxId must be a tax of the same tenant or null
// (422 TAX_REFERENCE_INVALID). At most one default per tenant: isDefault: true un-defaults the
// old one in the same transaction. Unlike taxes, accounts have no seeded default, so the default
// account may be un-defaulted or deleted (the tenant then has no default account).
import type { Db } from '../../db/db-handle';
import type { PageQuery, PageResult } from '../../db/paginate';
import { errors } from '../errors';
import { definedFields } from '../defined-fields';
import { toIso } from '../time/iso';
import { findTax, lockTenantDefaults } from './tax.repository';
import * as repo from './accounting-account.repository';

export interface AccountingAccountDto {
  id: string;
  code: string;
  name: string;
  taxId: string | null;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface AccountingAccountInput {
  code: string;
  name: string;
  taxId?: string | null;
  isDefault?: boolean;
}

export type AccountingAccountPatch = Partial<AccountingAccountInput>;

export function toAccountingAccountDto(a: repo.AccountingAccountRow): AccountingAccountDto {
  return {
    id: a.id,
    code: a.code,
    name: a.name,
    taxId: a.taxId,
    isDefault: a.isDefault,
    createdAt: toIso(a.createdAt),
    updatedAt: toIso(a.updatedAt),
  };
}

const codeExists = () => errors.conflict('ACCOUNTING_ACCOUNT_CODE_EXISTS', 'An accounting account with this code already exists');

/** The tax must belong to the tenant; KEY SHARE keeps it from being deleted until we commit. */
async function checkTax(db: Db, tenantId: string, taxId: string | null | undefined): Promise<void> {
  if (!taxId) return;
  const tax = await findTax(db, tenantId, taxId, 'forKeyShare');
  if (!tax) throw errors.unprocessable('TAX_REFERENCE_INVALID', 'taxId is not a tax of this salon', [{ field: 'taxId', message: 'no such tax in this salon' }]);
}

async function existingAccount(db: Db, tenantId: string, id: string, lock = false): Promise<repo.AccountingAccountRow> {
  const account = await repo.findAccountingAccount(db, tenantId, id, lock);
  if (!account) throw errors.notFound('accountingAccount');
  return account;
}

export async function listAccountingAccounts(db: Db, tenantId: string, query: PageQuery & { taxId?: string }): Promise<PageResult<AccountingAccountDto>> {
  const page = await repo.pageOfAccountingAccounts(db, tenantId, query, query);
  return { ...page, rows: page.rows.map(toAccountingAccountDto) };
}

export async function getAccountingAccount(db: Db, tenantId: string, id: string): Promise<AccountingAccountDto> {
  return toAccountingAccountDto(await existingAccount(db, tenantId, id));
}

export async function createAccountingAccount(db: Db, tenantId: string, input: AccountingAccountInput): Promise<AccountingAccountDto> {
  return db.transaction(async (trx) => {
    await checkTax(trx, tenantId, input.taxId);
    if (await repo.findAccountingAccountByCode(trx, tenantId, input.code)) throw codeExists();
    const isDefault = input.isDefault ?? false;
    if (isDefault) {
      await lockTenantDefaults(trx, 'accounting_accounts', tenantId);
      await repo.clearDefaultAccountingAccount(trx, tenantId);
    }
    const id = await repo.insertAccountingAccount(trx, tenantId, { code: input.code, name: input.name, taxId: input.taxId ?? null, isDefault });
    return toAccountingAccountDto(await existingAccount(trx, tenantId, id));
  });
}

export async function updateAccountingAccount(db: Db, tenantId: string, id: string, patch: AccountingAccountPatch): Promise<AccountingAccountDto> {
  return db.transaction(async (trx) => {
    if (patch.isDefault === true) await lockTenantDefaults(trx, 'accounting_accounts', tenantId);
    const account = await existingAccount(trx, tenantId, id, true);
    await checkTax(trx, tenantId, patch.taxId);
    if (patch.code !== undefined && patch.code !== account.code && (await repo.findAccountingAccountByCode(trx, tenantId, patch.code))) throw codeExists();
    if (patch.isDefault === true && !account.isDefault) await repo.clearDefaultAccountingAccount(trx, tenantId);
    const changes = definedFields({ code: patch.code, name: patch.name, taxId: patch.taxId, isDefault: patch.isDefault });
    if (Object.keys(changes).length) await repo.patchAccountingAccount(trx, tenantId, id, changes);
    return toAccountingAccountDto(await existingAccount(trx, tenantId, id));
  });
}

export async function deleteAccountingAccount(db: Db, tenantId: string, id: string): Promise<void> {
  if (!(await repo.deleteAccountingAccount(db, tenantId, id))) throw errors.notFound('accountingAccount');
}
