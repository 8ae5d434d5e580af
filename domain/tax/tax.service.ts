// Taxes (spec 2.6). Rules, documented in openapi.yaml too:
// - rate is a percent 0..100 with at most three decimals (numeric(6,3)); more decimals are a 400.
// - at most one default per tenant, and once a tenant has a default it keeps exactly one: setting
//   isDefault: true on a tax un-defaults the old one in the same transaction; the default tax itself
//   cannot be un-defaulted (422 TAX_DEFAULT_REQUIRED), deactivated (422 TAX_DEFAULT_MUST_BE_ACTIVE) or
//   deleted (409 TAX_IS_DEFAULT) - move the default to another tax first.
// - a tax referenced by an accounting account cannot be deleted (409 TAX_IN_USE).
// Default changes serialise per tenant on an advisory lock; the partial unique index
// taxes_one_default_per_tenant is the last line of defence (409 TAX_DEFAULT_CONFLICT).
import type { Knex } from 'knex';
import { TaxModel } from '../../db/models/tax.model';
import { AccountingAccountModel } from '../../db/models/accounting-account.model';
import { paginate } from '../../db/paginate';
import { errors } from '../errors';
import { toIso } from '../time/iso';

export interface TaxDto {
  id: string;
  name: string;
  rate: number;
  isDefault: boolean;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface TaxInput {
  name: string;
  rate: number;
  isDefault?: boolean;
  isActive?: boolean;
}

export type TaxPatch = Partial<TaxInput>;

export interface TaxListQuery {
  page?: number;
  limit?: number;
  isActive?: boolean;
}

/** Spec 2.6 seed for Norway: 25 % (default), 15 %, 0 %. */
export const NORWEGIAN_DEFAULT_TAXES: ReadonlyArray<TaxInput> = [
  { name: 'MVA 25 %', rate: 25, isDefault: true },
  { name: 'MVA 15 %', rate: 15 },
  { name: 'MVA 0 %', rate: 0 },
];

export function toTaxDto(tax: TaxModel): TaxDto {
  return {
    id: tax.id,
    name: tax.name,
    rate: Number(tax.rate),
    isDefault: tax.isDefault,
    isActive: tax.isActive,
    createdAt: toIso(tax.createdAt),
    updatedAt: toIso(tax.updatedAt),
  };
}

function checkRate(rate: number | undefined): void {
  if (rate === undefined) return;
  if (Math.abs(Math.round(rate * 1000) - rate * 1000) > 1e-6) {
    throw errors.validation('Request validation failed', [{ field: 'rate', message: 'must have at most 3 decimals' }]);
  }
}

/** Serialises default changes of one tenant's taxes (or accounts) for the rest of the transaction. */
export async function lockTenantDefaults(trx: Knex.Transaction, kind: 'taxes' | 'accounting_accounts', tenantId: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`${kind}-default:${tenantId}`]);
}

/** Writes the Norwegian default taxes for a new tenant, inside the tenant-creation transaction. */
export async function createDefaultTaxes(trx: Knex.Transaction, tenantId: string): Promise<TaxDto[]> {
  const rows = await TaxModel.query(trx)
    .insert(NORWEGIAN_DEFAULT_TAXES.map((t) => ({ tenantId, name: t.name, rate: t.rate, isDefault: t.isDefault ?? false, isActive: true })))
    .returning('*');
  return rows.map(toTaxDto);
}

export async function listTaxes(tenantId: string, query: TaxListQuery): Promise<{ rows: TaxDto[]; total: number; page: number; limit: number }> {
  const q = TaxModel.query().where({ tenantId }).orderBy([{ column: 'isDefault', order: 'desc' }, { column: 'rate', order: 'desc' }, { column: 'name' }, { column: 'id' }]);
  if (query.isActive !== undefined) q.where({ isActive: query.isActive });
  const page = await paginate(q, query);
  return { ...page, rows: page.rows.map(toTaxDto) };
}

async function findTax(trx: Knex.Transaction | undefined, tenantId: string, id: string, lock = false): Promise<TaxModel> {
  const q = TaxModel.query(trx).findOne({ id, tenantId });
  if (lock) q.forUpdate();
  const tax = await q;
  if (!tax) throw errors.notFound('tax');
  return tax;
}

export async function getTax(tenantId: string, id: string): Promise<TaxDto> {
  return toTaxDto(await findTax(undefined, tenantId, id));
}

export async function createTax(tenantId: string, input: TaxInput): Promise<TaxDto> {
  checkRate(input.rate);
  const isDefault = input.isDefault ?? false;
  const isActive = input.isActive ?? true;
  if (isDefault && !isActive) throw errors.unprocessable('TAX_DEFAULT_MUST_BE_ACTIVE', 'The default tax must be active');
  return TaxModel.transaction(async (trx) => {
    if (isDefault) {
      await lockTenantDefaults(trx, 'taxes', tenantId);
      await TaxModel.query(trx).patch({ isDefault: false }).where({ tenantId, isDefault: true });
    }
    const tax = await TaxModel.query(trx).insert({ tenantId, name: input.name, rate: input.rate, isDefault, isActive });
    return toTaxDto(await TaxModel.query(trx).findById(tax.id).throwIfNotFound());
  });
}

export async function updateTax(tenantId: string, id: string, patch: TaxPatch): Promise<TaxDto> {
  checkRate(patch.rate);
  return TaxModel.transaction(async (trx) => {
    if (patch.isDefault !== undefined || patch.isActive !== undefined) await lockTenantDefaults(trx, 'taxes', tenantId);
    const tax = await findTax(trx, tenantId, id, true);
    const willBeDefault = patch.isDefault ?? tax.isDefault;
    const willBeActive = patch.isActive ?? tax.isActive;
    if (tax.isDefault && patch.isDefault === false) {
      throw errors.unprocessable('TAX_DEFAULT_REQUIRED', 'The default tax cannot be unset; make another tax the default instead');
    }
    if (willBeDefault && !willBeActive) throw errors.unprocessable('TAX_DEFAULT_MUST_BE_ACTIVE', 'The default tax must be active');
    if (patch.isDefault === true && !tax.isDefault) {
      await TaxModel.query(trx).patch({ isDefault: false }).where({ tenantId, isDefault: true });
    }
    const changes: Partial<TaxModel> = {};
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.rate !== undefined) changes.rate = patch.rate;
    if (patch.isDefault !== undefined) changes.isDefault = patch.isDefault;
    if (patch.isActive !== undefined) changes.isActive = patch.isActive;
    if (Object.keys(changes).length) await TaxModel.query(trx).patch(changes).where({ id, tenantId });
    return toTaxDto(await findTax(trx, tenantId, id));
  });
}

export async function deleteTax(tenantId: string, id: string): Promise<void> {
  await TaxModel.transaction(async (trx) => {
    // FOR UPDATE waits for accounts being created against this tax (they hold KEY SHARE) and blocks new ones.
    const tax = await findTax(trx, tenantId, id, true);
    if (tax.isDefault) throw errors.conflict('TAX_IS_DEFAULT', 'The default tax cannot be deleted; make another tax the default first');
    const used = await AccountingAccountModel.query(trx).where({ tenantId, taxId: id }).select('id').first();
    if (used) throw errors.conflict('TAX_IN_USE', 'This tax is used by an accounting account; change or delete the account first');
    await TaxModel.query(trx).delete().where({ id, tenantId });
  });
}
