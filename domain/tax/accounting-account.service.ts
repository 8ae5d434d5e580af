// Accounting accounts (spec 2.6). code is unique per tenant (409 ACCOUNTING_ACCOUNT_CODE_EXISTS, also
// under races via db/constraint-errors.ts); taxId must be a tax of the same tenant or null
// (422 TAX_REFERENCE_INVALID). At most one default per tenant: isDefault: true un-defaults the
// old one in the same transaction. Unlike taxes, accounts have no seeded default, so the default
// account may be un-defaulted or deleted (the tenant then has no default account).
import type { Knex } from 'knex';
import { AccountingAccountModel } from '../../db/models/accounting-account.model';
import { TaxModel } from '../../db/models/tax.model';
import { paginate } from '../../db/paginate';
import { errors } from '../errors';
import { lockTenantDefaults } from './tax.service';
import { toIso } from '../time/iso';

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

export function toAccountingAccountDto(a: AccountingAccountModel): AccountingAccountDto {
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
async function checkTax(trx: Knex.Transaction, tenantId: string, taxId: string | null | undefined): Promise<void> {
  if (!taxId) return;
  const tax = await TaxModel.query(trx).findOne({ id: taxId, tenantId }).forKeyShare();
  if (!tax) throw errors.unprocessable('TAX_REFERENCE_INVALID', 'taxId is not a tax of this salon', [{ field: 'taxId', message: 'no such tax in this salon' }]);
}

async function findAccount(trx: Knex.Transaction | undefined, tenantId: string, id: string, lock = false): Promise<AccountingAccountModel> {
  const q = AccountingAccountModel.query(trx).findOne({ id, tenantId });
  if (lock) q.forUpdate();
  const account = await q;
  if (!account) throw errors.notFound('accountingAccount');
  return account;
}

export async function listAccountingAccounts(tenantId: string, query: { page?: number; limit?: number; taxId?: string }) {
  const q = AccountingAccountModel.query().where({ tenantId }).orderBy([{ column: 'code' }, { column: 'id' }]);
  if (query.taxId) q.where({ taxId: query.taxId });
  const page = await paginate(q, query);
  return { ...page, rows: page.rows.map(toAccountingAccountDto) };
}

export async function getAccountingAccount(tenantId: string, id: string): Promise<AccountingAccountDto> {
  return toAccountingAccountDto(await findAccount(undefined, tenantId, id));
}

export async function createAccountingAccount(tenantId: string, input: AccountingAccountInput): Promise<AccountingAccountDto> {
  return AccountingAccountModel.transaction(async (trx) => {
    await checkTax(trx, tenantId, input.taxId);
    const clash = await AccountingAccountModel.query(trx).findOne({ tenantId, code: input.code });
    if (clash) throw codeExists();
    const isDefault = input.isDefault ?? false;
    if (isDefault) {
      await lockTenantDefaults(trx, 'accounting_accounts', tenantId);
      await AccountingAccountModel.query(trx).patch({ isDefault: false }).where({ tenantId, isDefault: true });
    }
    const row = await AccountingAccountModel.query(trx).insert({ tenantId, code: input.code, name: input.name, taxId: input.taxId ?? null, isDefault });
    return toAccountingAccountDto(await findAccount(trx, tenantId, row.id));
  });
}

export async function updateAccountingAccount(tenantId: string, id: string, patch: AccountingAccountPatch): Promise<AccountingAccountDto> {
  return AccountingAccountModel.transaction(async (trx) => {
    if (patch.isDefault === true) await lockTenantDefaults(trx, 'accounting_accounts', tenantId);
    const account = await findAccount(trx, tenantId, id, true);
    await checkTax(trx, tenantId, patch.taxId);
    if (patch.code !== undefined && patch.code !== account.code) {
      const clash = await AccountingAccountModel.query(trx).findOne({ tenantId, code: patch.code });
      if (clash) throw codeExists();
    }
    if (patch.isDefault === true && !account.isDefault) {
      await AccountingAccountModel.query(trx).patch({ isDefault: false }).where({ tenantId, isDefault: true });
    }
    const changes: Partial<AccountingAccountModel> = {};
    if (patch.code !== undefined) changes.code = patch.code;
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.taxId !== undefined) changes.taxId = patch.taxId;
    if (patch.isDefault !== undefined) changes.isDefault = patch.isDefault;
    if (Object.keys(changes).length) await AccountingAccountModel.query(trx).patch(changes).where({ id, tenantId });
    return toAccountingAccountDto(await findAccount(trx, tenantId, id));
  });
}

export async function deleteAccountingAccount(tenantId: string, id: string): Promise<void> {
  const deleted = await AccountingAccountModel.query().delete().where({ id, tenantId });
  if (!deleted) throw errors.notFound('accountingAccount');
}
