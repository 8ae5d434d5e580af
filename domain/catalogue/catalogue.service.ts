// Services and service categories (spec 2.3, 4.4). Every query is scoped by tenantId; a row of
// another tenant is a 404. Currency is copied from the tenant's settings on every write.
// Deleting a category keeps its services (their categoryId becomes null; FK ON DELETE SET NULL).
import type { Knex } from 'knex';
import { ServiceModel } from '../../db/models/service.model';
import { ServiceCategoryModel } from '../../db/models/service-category.model';
import { TenantModel } from '../../db/models/tenant.model';
import { paginate, type PageResult } from '../../db/paginate';
import { errors } from '../errors';
import { SERVICE_DESCRIPTION_MAX_WORDS, wordCount } from './catalogue.rules';
import { toIso } from '../time/iso';
import type { TenantSettings } from '../tenant/tenant-settings.rules';

export interface ServiceDto {
  id: string;
  name: string;
  description: string | null;
  duration: number;
  price: number;
  currency: string;
  categoryId: string | null;
  accountingAccountId: string | null;
  isActive: boolean;
  sortOrder: number;
  metadata: Record<string, unknown>;
  imageKey: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ServiceCategoryDto {
  id: string;
  name: string;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
}

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
}

export type ServicePatch = Partial<ServiceInput>;

export interface ServiceListQuery {
  page?: number;
  limit?: number;
  isActive?: boolean;
  categoryId?: string;
  sort?: 'createdAt' | 'name' | 'sortOrder' | 'price' | 'duration';
  order?: 'asc' | 'desc';
}


export function serviceDto(s: ServiceModel): ServiceDto {
  return {
    id: s.id,
    name: s.name,
    description: s.description ?? null,
    duration: s.duration,
    price: s.price,
    currency: s.currency,
    categoryId: s.categoryId ?? null,
    accountingAccountId: s.accountingAccountId ?? null,
    isActive: s.isActive,
    sortOrder: s.sortOrder,
    metadata: s.metadata ?? {},
    imageKey: s.imageKey ?? null,
    createdAt: toIso(s.createdAt),
    updatedAt: toIso(s.updatedAt),
  };
}

export function categoryDto(c: ServiceCategoryModel): ServiceCategoryDto {
  return { id: c.id, name: c.name, sortOrder: c.sortOrder, createdAt: toIso(c.createdAt), updatedAt: toIso(c.updatedAt) };
}

function checkDescription(description: string | null | undefined): void {
  if (description && wordCount(description) > SERVICE_DESCRIPTION_MAX_WORDS) {
    throw errors.validation('Request validation failed', [
      { field: 'description', message: `must have at most ${SERVICE_DESCRIPTION_MAX_WORDS} words` },
    ]);
  }
}

async function tenantCurrency(trx: Knex.Transaction, tenantId: string): Promise<string> {
  const tenant = await TenantModel.query(trx).findById(tenantId).select('settings');
  if (!tenant) throw errors.notFound('tenant');
  return (tenant.settings as TenantSettings).currency;
}

async function checkReferences(trx: Knex.Transaction, tenantId: string, input: ServicePatch): Promise<void> {
  if (input.categoryId) {
    const category = await ServiceCategoryModel.query(trx).findOne({ id: input.categoryId, tenantId });
    if (!category) throw errors.notFound('serviceCategory');
  }
  if (input.accountingAccountId) {
    const account = await trx('accounting_accounts').first('id').where({ id: input.accountingAccountId, tenantId });
    if (!account) throw errors.notFound('accountingAccount');
  }
}

async function findService(trx: Knex | Knex.Transaction | undefined, tenantId: string, id: string): Promise<ServiceModel> {
  const service = await ServiceModel.query(trx).findOne({ id, tenantId });
  if (!service) throw errors.notFound('service');
  return service;
}

export async function listServices(tenantId: string, q: ServiceListQuery): Promise<PageResult<ServiceDto>> {
  const query = ServiceModel.query().where({ tenantId });
  if (q.isActive !== undefined) query.where({ isActive: q.isActive });
  if (q.categoryId) query.where({ categoryId: q.categoryId });
  query.orderBy(q.sort ?? 'createdAt', q.order ?? 'desc').orderBy('id');
  const page = await paginate(query, q);
  return { ...page, rows: page.rows.map(serviceDto) };
}

export async function getService(tenantId: string, id: string): Promise<ServiceDto> {
  return serviceDto(await findService(undefined, tenantId, id));
}

export async function createService(tenantId: string, input: ServiceInput): Promise<ServiceDto> {
  checkDescription(input.description);
  return ServiceModel.transaction(async (trx) => {
    await checkReferences(trx, tenantId, input);
    const service = await ServiceModel.query(trx).insertAndFetch({
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
    });
    return serviceDto(service);
  });
}

export async function updateService(tenantId: string, id: string, patch: ServicePatch): Promise<ServiceDto> {
  checkDescription(patch.description);
  return ServiceModel.transaction(async (trx) => {
    const service = await findService(trx, tenantId, id);
    await checkReferences(trx, tenantId, patch);
    const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<ServiceModel>;
    const updated = await service.$query(trx).patchAndFetch({ ...changes, currency: await tenantCurrency(trx, tenantId) });
    return serviceDto(updated);
  });
}

/** Hard delete; skills go with it. A service referenced by bookings is kept (409 SERVICE_IN_USE from the FK). */
export async function deleteService(tenantId: string, id: string): Promise<void> {
  await ServiceModel.transaction(async (trx) => {
    await findService(trx, tenantId, id);
    await ServiceModel.query(trx).deleteById(id);
  });
}

// ---------------------------------------------------------------- categories

async function findCategory(trx: Knex.Transaction | undefined, tenantId: string, id: string): Promise<ServiceCategoryModel> {
  const category = await ServiceCategoryModel.query(trx).findOne({ id, tenantId });
  if (!category) throw errors.notFound('serviceCategory');
  return category;
}

/** Ordered by sortOrder, then name (spec 2.3: customers see categories in sortOrder). */
export async function listCategories(tenantId: string, q: { page?: number; limit?: number }): Promise<PageResult<ServiceCategoryDto>> {
  const query = ServiceCategoryModel.query().where({ tenantId }).orderBy('sortOrder', 'asc').orderBy('name', 'asc').orderBy('id');
  const page = await paginate(query, q);
  return { ...page, rows: page.rows.map(categoryDto) };
}

export async function getCategory(tenantId: string, id: string): Promise<ServiceCategoryDto> {
  return categoryDto(await findCategory(undefined, tenantId, id));
}

export async function createCategory(tenantId: string, input: { name: string; sortOrder?: number }): Promise<ServiceCategoryDto> {
  const category = await ServiceCategoryModel.query().insertAndFetch({ tenantId, name: input.name, sortOrder: input.sortOrder ?? 0 });
  return categoryDto(category);
}

export async function updateCategory(tenantId: string, id: string, patch: { name?: string; sortOrder?: number }): Promise<ServiceCategoryDto> {
  return ServiceCategoryModel.transaction(async (trx) => {
    const category = await findCategory(trx, tenantId, id);
    const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    return categoryDto(await category.$query(trx).patchAndFetch(changes));
  });
}

/** The category's services stay, uncategorised (categoryId null). */
export async function deleteCategory(tenantId: string, id: string): Promise<void> {
  await ServiceCategoryModel.transaction(async (trx) => {
    await findCategory(trx, tenantId, id);
    await ServiceCategoryModel.query(trx).deleteById(id);
  });
}
