// Taxes (docs/rules/salon.md#taxes-and-accounting-accounts). Rules, documented in openapi.yaml too:
// - rate is a percent 0..100 with at most three decimals (numeric(6,3)); more decimals are a 400.
// - at most one default per tenant, and once a tenant has a default it keeps exactly one: setting
//   isDefault: true on a tax un-defaults the old one in the same transaction; the default tax itself
//   cannot be un-defaulted (422 TAX_DEFAULT_REQUIRED), deactivated (422 TAX_DEFAULT_MUST_BE_ACTIVE) or
//   deleted (409 TAX_IS_DEFAULT) - move the default to another tax first.
// - a tax referenced by an accounting account cannot be deleted (409 TAX_IN_USE).
// Default changes serialise per tenant on an advisory lock; the partial unique index
// taxes_one_default_per_tenant is the last line of defence (409 TAX_DEFAULT_CONFLICT).
import type { Db } from '../../db/db-handle';
import type { PageQuery, PageResult } from '../../db/paginate';
import { errors } from '../errors';
import { definedFields } from '../defined-fields';
import { toIso } from '../time/iso';
import { taxInUse } from './accounting-account.repository';
import * as repo from './tax.repository';

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

export interface TaxListQuery extends PageQuery {
  isActive?: boolean;
}

/** The seed for Norway: 25 % (default), 15 %, 0 %. */
export const NORWEGIAN_DEFAULT_TAXES: ReadonlyArray<TaxInput> = [
  { name: 'MVA 25 %', rate: 25, isDefault: true },
  { name: 'MVA 15 %', rate: 15 },
  { name: 'MVA 0 %', rate: 0 },
];

export function toTaxDto(tax: repo.TaxRow): TaxDto {
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

async function existingTax(db: Db, tenantId: string, id: string, lock = false): Promise<repo.TaxRow> {
  const tax = await repo.findTax(db, tenantId, id, lock ? 'forUpdate' : null);
  if (!tax) throw errors.notFound('tax');
  return tax;
}

/** Writes the Norwegian default taxes for a new tenant, inside the caller's (tenant-creation) transaction. */
export async function createDefaultTaxes(db: Db, tenantId: string): Promise<TaxDto[]> {
  const rows = await repo.insertTaxes(
    db,
    tenantId,
    NORWEGIAN_DEFAULT_TAXES.map((t) => ({ name: t.name, rate: t.rate, isDefault: t.isDefault ?? false, isActive: true })),
  );
  return rows.map(toTaxDto);
}

export async function listTaxes(db: Db, tenantId: string, query: TaxListQuery): Promise<PageResult<TaxDto>> {
  const page = await repo.pageOfTaxes(db, tenantId, query, query);
  return { ...page, rows: page.rows.map(toTaxDto) };
}

export async function getTax(db: Db, tenantId: string, id: string): Promise<TaxDto> {
  return toTaxDto(await existingTax(db, tenantId, id));
}

export async function createTax(db: Db, tenantId: string, input: TaxInput): Promise<TaxDto> {
  checkRate(input.rate);
  const isDefault = input.isDefault ?? false;
  const isActive = input.isActive ?? true;
  if (isDefault && !isActive) throw errors.unprocessable('TAX_DEFAULT_MUST_BE_ACTIVE', 'The default tax must be active');
  return db.transaction(async (trx) => {
    if (isDefault) {
      await repo.lockTenantDefaults(trx, 'taxes', tenantId);
      await repo.clearDefaultTax(trx, tenantId);
    }
    const [tax] = await repo.insertTaxes(trx, tenantId, [{ name: input.name, rate: input.rate, isDefault, isActive }]);
    return toTaxDto(await existingTax(trx, tenantId, tax.id));
  });
}

export async function updateTax(db: Db, tenantId: string, id: string, patch: TaxPatch): Promise<TaxDto> {
  checkRate(patch.rate);
  return db.transaction(async (trx) => {
    if (patch.isDefault !== undefined || patch.isActive !== undefined) await repo.lockTenantDefaults(trx, 'taxes', tenantId);
    const tax = await existingTax(trx, tenantId, id, true);
    const willBeDefault = patch.isDefault ?? tax.isDefault;
    const willBeActive = patch.isActive ?? tax.isActive;
    if (tax.isDefault && patch.isDefault === false) {
      throw errors.unprocessable('TAX_DEFAULT_REQUIRED', 'The default tax cannot be unset; make another tax the default instead');
    }
    if (willBeDefault && !willBeActive) throw errors.unprocessable('TAX_DEFAULT_MUST_BE_ACTIVE', 'The default tax must be active');
    if (patch.isDefault === true && !tax.isDefault) await repo.clearDefaultTax(trx, tenantId);
    const changes = definedFields({ name: patch.name, rate: patch.rate, isDefault: patch.isDefault, isActive: patch.isActive });
    if (Object.keys(changes).length) await repo.patchTax(trx, tenantId, id, changes);
    return toTaxDto(await existingTax(trx, tenantId, id));
  });
}

export async function deleteTax(db: Db, tenantId: string, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    // FOR UPDATE waits for accounts being created against this tax (they hold KEY SHARE) and blocks new ones.
    const tax = await existingTax(trx, tenantId, id, true);
    if (tax.isDefault) throw errors.conflict('TAX_IS_DEFAULT', 'The default tax cannot be deleted; make another tax the default first');
    if (await taxInUse(trx, tenantId, id)) throw errors.conflict('TAX_IN_USE', 'This tax is used by an accounting account; change or delete the account first');
    await repo.deleteTax(trx, tenantId, id);
  });
}
