// Services and service categories (docs/rules/catalogue.md#services). Every query is scoped by tenantId; a row of
// another tenant is a 404. Currency is copied from the tenant's settings on every write.
// Deleting a category keeps its services (their categoryId becomes null; FK ON DELETE SET NULL).
import type { Db } from '../../db/db-handle';
import type { PageQuery, PageResult } from '../../db/paginate';
import { errors } from '../errors';
import { definedFields } from '../defined-fields';
import { tenantById } from '../tenant/tenant-context';
import { findAccountingAccount } from '../tax/accounting-account.repository';
import { SERVICE_DESCRIPTION_MAX_WORDS, wordCount } from './catalogue.rules';
import { categoryDto, serviceDto, type ServiceCategoryDto, type ServiceDto } from './catalogue.dto';
import * as repo from './catalogue.repository';
import { syncUploadFields } from '../upload/upload-links';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';

export interface ServiceInput {
  name: string;
  description?: string | null;
  duration: number;
  price: number;
  categoryId?: string | null;
  accountingAccountId?: string | null;
  isActive?: boolean;
  sortOrder?: number;
  metadata?: Record<string, unknown>;
  imageKey?: string | null;
  /** weeks after which a customer usually comes back (1 to 52): the rebooking nudge (docs/rules/series.md#rebooking-nudges) */
  typicalIntervalWeeks?: number | null;
}

export type ServicePatch = Partial<ServiceInput>;

export type ServiceListQuery = PageQuery & repo.ServiceFilter;

function checkDescription(description: string | null | undefined): void {
  if (description && wordCount(description) > SERVICE_DESCRIPTION_MAX_WORDS) {
    throw errors.validation('Request validation failed', [
      { field: 'description', message: `must have at most ${SERVICE_DESCRIPTION_MAX_WORDS} words` },
    ]);
  }
}

async function tenantCurrency(db: Db, tenantId: string): Promise<string> {
  return (await tenantById(db, tenantId)).settings.currency;
}

async function checkReferences(db: Db, tenantId: string, input: ServicePatch): Promise<void> {
  if (input.categoryId && !(await repo.findCategory(db, tenantId, input.categoryId))) throw errors.notFound('serviceCategory');
  if (input.accountingAccountId && !(await findAccountingAccount(db, tenantId, input.accountingAccountId))) throw errors.notFound('accountingAccount');
}

async function existingService(db: Db, tenantId: string, id: string): Promise<repo.ServiceRow> {
  const service = await repo.findService(db, tenantId, id);
  if (!service) throw errors.notFound('service');
  return service;
}


export async function listServices(db: Db, tenantId: string, q: ServiceListQuery): Promise<PageResult<ServiceDto>> {
  const page = await repo.pageOfServices(db, tenantId, q, q);
  return { ...page, rows: page.rows.map(serviceDto) };
}

export async function getService(db: Db, tenantId: string, id: string): Promise<ServiceDto> {
  return serviceDto(await existingService(db, tenantId, id));
}

export async function createService(db: Db, signaller: EntitySignaller, tenantId: string, input: ServiceInput): Promise<ServiceDto> {
  checkDescription(input.description);
  return db.transaction(async (trx) => {
    await checkReferences(trx, tenantId, input);
    const service = await repo.insertService(trx, {
      tenantId,
      name: input.name,
      description: input.description ?? null,
      duration: input.duration,
      price: input.price,
      currency: await tenantCurrency(trx, tenantId),
      categoryId: input.categoryId ?? null,
      accountingAccountId: input.accountingAccountId ?? null,
      isActive: input.isActive ?? true,
      sortOrder: input.sortOrder ?? 0,
      metadata: input.metadata ?? {},
      imageKey: input.imageKey ?? null,
      typicalIntervalWeeks: input.typicalIntervalWeeks ?? null,
    });
    await syncUploadFields(trx, signaller, tenantId, 'service', service.id, null, service);
    return serviceDto(service);
  });
}

export async function updateService(db: Db, signaller: EntitySignaller, tenantId: string, id: string, patch: ServicePatch): Promise<ServiceDto> {
  checkDescription(patch.description);
  return db.transaction(async (trx) => {
    const before = await existingService(trx, tenantId, id);
    await checkReferences(trx, tenantId, patch);
    const updated = await repo.patchService(trx, id, { ...definedFields(patch), currency: await tenantCurrency(trx, tenantId) });
    await syncUploadFields(trx, signaller, tenantId, 'service', id, before, updated);
    return serviceDto(updated);
  });
}

/** Hard delete; skills go with it. A service referenced by bookings is kept (409 SERVICE_IN_USE from the FK). */
export async function deleteService(db: Db, signaller: EntitySignaller, tenantId: string, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const before = await existingService(trx, tenantId, id);
    await repo.deleteService(trx, id);
    await syncUploadFields(trx, signaller, tenantId, 'service', id, before, null);
  });
}

// ---------------------------------------------------------------- categories

async function existingCategory(db: Db, tenantId: string, id: string): Promise<repo.ServiceCategoryRow> {
  const category = await repo.findCategory(db, tenantId, id);
  if (!category) throw errors.notFound('serviceCategory');
  return category;
}

/** Ordered by sortOrder, then name (customers see categories in sortOrder). */
export async function listCategories(db: Db, tenantId: string, q: PageQuery): Promise<PageResult<ServiceCategoryDto>> {
  const page = await repo.pageOfCategories(db, tenantId, q);
  return { ...page, rows: page.rows.map(categoryDto) };
}

export async function getCategory(db: Db, tenantId: string, id: string): Promise<ServiceCategoryDto> {
  return categoryDto(await existingCategory(db, tenantId, id));
}

export async function createCategory(db: Db, tenantId: string, input: { name: string; sortOrder?: number }): Promise<ServiceCategoryDto> {
  return categoryDto(await repo.insertCategory(db, { tenantId, name: input.name, sortOrder: input.sortOrder ?? 0 }));
}

export async function updateCategory(db: Db, tenantId: string, id: string, patch: { name?: string; sortOrder?: number }): Promise<ServiceCategoryDto> {
  return db.transaction(async (trx) => {
    await existingCategory(trx, tenantId, id);
    return categoryDto(await repo.patchCategory(trx, id, definedFields(patch)));
  });
}

/** The category's services stay, uncategorised (categoryId null). */
export async function deleteCategory(db: Db, tenantId: string, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    await existingCategory(trx, tenantId, id);
    await repo.deleteCategory(trx, id);
  });
}
