// Data access of services and service categories. Every function is scoped by tenantId and returns
// plain rows (never a model or a query builder); the caller passes the pool or its transaction.
import type { Db } from '../../db/db-handle';
import { ServiceModel } from '../../db/models/service.model';
import { ServiceCategoryModel } from '../../db/models/service-category.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, plainOrUndefined, type Row } from '../../db/plain';

export type ServiceRow = Row<ServiceModel>;
export type ServiceCategoryRow = Row<ServiceCategoryModel>;
/** The columns a write sets; id and timestamps come from the database. */
export type NewServiceRow = Omit<ServiceRow, 'id' | 'createdAt' | 'updatedAt' | 'typicalIntervalWeeks'> & Partial<Pick<ServiceRow, 'typicalIntervalWeeks'>>;

export interface ServiceFilter {
  isActive?: boolean;
  categoryId?: string;
  sort?: 'createdAt' | 'name' | 'sortOrder' | 'price' | 'duration';
  order?: 'asc' | 'desc';
}

export async function findService(db: Db, tenantId: string, id: string): Promise<ServiceRow | undefined> {
  return plainOrUndefined(await ServiceModel.query(db).findOne({ id, tenantId }));
}

export async function pageOfServices(db: Db, tenantId: string, filter: ServiceFilter, page: PageQuery): Promise<PageResult<ServiceRow>> {
  const query = ServiceModel.query(db).where({ tenantId });
  if (filter.isActive !== undefined) query.where({ isActive: filter.isActive });
  if (filter.categoryId) query.where({ categoryId: filter.categoryId });
  query.orderBy(filter.sort ?? 'createdAt', filter.order ?? 'desc').orderBy('id');
  return paginate(query, page);
}

export async function insertService(db: Db, row: NewServiceRow): Promise<ServiceRow> {
  return plain(await ServiceModel.query(db).insertAndFetch(row));
}

export async function patchService(db: Db, id: string, changes: Partial<NewServiceRow>): Promise<ServiceRow> {
  return plain(await ServiceModel.query(db).patchAndFetchById(id, changes));
}

export async function deleteService(db: Db, id: string): Promise<void> {
  await ServiceModel.query(db).deleteById(id);
}

export async function findCategory(db: Db, tenantId: string, id: string): Promise<ServiceCategoryRow | undefined> {
  return plainOrUndefined(await ServiceCategoryModel.query(db).findOne({ id, tenantId }));
}

/** By sortOrder, then name (customers see categories in sortOrder). */
export async function pageOfCategories(db: Db, tenantId: string, page: PageQuery): Promise<PageResult<ServiceCategoryRow>> {
  return paginate(ServiceCategoryModel.query(db).where({ tenantId }).orderBy('sortOrder', 'asc').orderBy('name', 'asc').orderBy('id'), page);
}

export async function insertCategory(db: Db, row: { tenantId: string; name: string; sortOrder: number }): Promise<ServiceCategoryRow> {
  return plain(await ServiceCategoryModel.query(db).insertAndFetch(row));
}

export async function patchCategory(db: Db, id: string, changes: { name?: string; sortOrder?: number }): Promise<ServiceCategoryRow> {
  return plain(await ServiceCategoryModel.query(db).patchAndFetchById(id, changes));
}

export async function deleteCategory(db: Db, id: string): Promise<void> {
  await ServiceCategoryModel.query(db).deleteById(id);
}

/** The tenant's services among `ids` (unknown and other-tenant ids are left out). */
export async function findServicesByIds(db: Db, tenantId: string, ids: readonly string[]): Promise<ServiceRow[]> {
  return (await ServiceModel.query(db).where({ tenantId }).whereIn('id', ids)).map(plain);
}

/**
 * The statement of the services a booking plans with (id, name, duration, price, currency, isActive,
 * and the shape's columns: phases, bufferBeforeMinutes, bufferAfterMinutes, resourceRequirements),
 * for a caller that runs it inside its own statement (the booking lock's round trip, booking-lock.service.ts).
 * Raw SQL: the columns are aliased camelCase because they come back as JSON, past the name mappers.
 */
export function bookableServicesStatement(tenantId: string, ids: readonly string[]): { sql: string; bindings: readonly unknown[]; name: string } {
  return { sql: BOOKABLE_SERVICES, bindings: [tenantId, ids], name: 'bookable-services' };
}

const BOOKABLE_SERVICES = `SELECT id, name, duration, price, currency, is_active AS "isActive", phases, buffer_before_minutes AS "bufferBeforeMinutes",
  buffer_after_minutes AS "bufferAfterMinutes", resource_requirements AS "resourceRequirements" FROM services WHERE tenant_id = ? AND id = ANY(?::uuid[])`;

/** A deleted upload leaves the service: its imageKey is cleared when it still holds `fileKey`. */
export async function clearServiceImage(db: Db, tenantId: string, id: string, fileKey: string): Promise<void> {
  await ServiceModel.query(db).patch({ imageKey: null }).where({ id, tenantId, imageKey: fileKey });
}
