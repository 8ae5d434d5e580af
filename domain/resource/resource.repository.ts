// Data access of resources and their skills: tenant-scoped, plain rows out; the caller passes the
// pool or its transaction.
import type { Db } from '../../db/db-handle';
import { ResourceModel } from '../../db/models/resource.model';
import { ResourceSkillModel } from '../../db/models/resource-skill.model';
import { ResourceScheduleModel } from '../../db/models/resource-schedule.model';
import { ServiceModel } from '../../db/models/service.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, plainOrUndefined, type Row } from '../../db/plain';

export type { ResourceMetadata, ResourceType } from '../../db/models/resource.model';
export type ResourceRow = Row<ResourceModel>;
export type NewResourceRow = Omit<ResourceRow, 'id' | 'createdAt' | 'updatedAt'>;

export interface ResourceFilter {
  type?: ResourceRow['type'];
  isActive?: boolean;
  isBookableOnline?: boolean;
  sort?: 'createdAt' | 'name' | 'sortOrder';
  order?: 'asc' | 'desc';
}

/** `forUpdate` locks the row (serialises schedule, skill and time-off writes of the resource). */
export async function findResource(db: Db, tenantId: string, id: string, forUpdate = false): Promise<ResourceRow | undefined> {
  const query = ResourceModel.query(db).findOne({ id, tenantId });
  if (forUpdate) query.forUpdate();
  return plainOrUndefined(await query);
}

/** The resource linked to the login user (inside `tenantId` when given), or null. */
export async function findResourceIdOfUser(db: Db, userId: string, tenantId?: string): Promise<string | null> {
  return (
    (
      await ResourceModel.query(db)
        .select('id')
        .findOne(tenantId ? { userId, tenantId } : { userId })
    )?.id ?? null
  );
}

export async function pageOfResources(db: Db, tenantId: string, filter: ResourceFilter, page: PageQuery): Promise<PageResult<ResourceRow>> {
  const query = ResourceModel.query(db).where({ tenantId });
  if (filter.type) query.where({ type: filter.type });
  if (filter.isActive !== undefined) query.where({ isActive: filter.isActive });
  if (filter.isBookableOnline !== undefined) query.where({ isBookableOnline: filter.isBookableOnline });
  query.orderBy(filter.sort ?? 'createdAt', filter.order ?? 'desc').orderBy('id');
  return paginate(query, page);
}

/** Ids of every staff resource of the tenant (active or not), locked FOR UPDATE in id order. */
export async function lockStaffResourceIds(db: Db, tenantId: string): Promise<string[]> {
  return (await ResourceModel.query(db).select('id').where({ tenantId, type: 'staff' }).orderBy('id').forUpdate()).map((r) => r.id);
}

/** Every resource of the tenant as a day's schedule lists them: by type's sortOrder, then name. */
export async function resourcesOfSalon(db: Db, tenantId: string): Promise<Pick<ResourceRow, 'id' | 'name' | 'type' | 'isActive'>[]> {
  return (
    await ResourceModel.query(db)
      .select('id', 'name', 'type', 'isActive')
      .where({ tenantId })
      .orderBy([{ column: 'sortOrder' }, { column: 'name' }, { column: 'id' }])
  ).map(plain);
}

/** Names of the given resources, by id. */
export async function resourceNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  return new Map((await ResourceModel.query(db).select('id', 'name').whereIn('id', ids)).map((r) => [r.id, r.name]));
}

/** The ids among `ids` that are resources of this tenant. */
export async function existingResourceIds(db: Db, tenantId: string, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  return (await ResourceModel.query(db).select('id').where({ tenantId }).whereIn('id', ids)).map((r) => r.id);
}

export async function insertResource(db: Db, row: NewResourceRow): Promise<ResourceRow> {
  return plain(await ResourceModel.query(db).insertAndFetch(row));
}

export async function patchResource(db: Db, id: string, changes: Partial<NewResourceRow>): Promise<ResourceRow> {
  return plain(await ResourceModel.query(db).patchAndFetchById(id, changes));
}

/** Resources with a skill for the service, by sortOrder, then name. */
export async function resourcesWithSkill(db: Db, tenantId: string, serviceId: string): Promise<ResourceRow[]> {
  const rows = await ResourceModel.query(db)
    .where({ 'resources.tenantId': tenantId })
    .whereExists(ResourceSkillModel.query(db).whereColumn('resource_skills.resourceId', 'resources.id').where({ serviceId }))
    .orderBy('sortOrder')
    .orderBy('name')
    .orderBy('id');
  return rows.map(plain);
}

/**
 * Whether the salon has an active service, and a staff member ready to take bookings online for one
 * (active, bookable online, an active weekly slot, the skill of an active service): the launch's
 * facts (docs/rules/salon.md#launch).
 */
export async function launchReadiness(db: Db, tenantId: string): Promise<{ hasBookableService: boolean; hasReadyStaff: boolean }> {
  const activeService = () => ServiceModel.query(db).select('id').where({ tenantId, isActive: true });
  const ready = await ResourceModel.query(db)
    .select('resources.id')
    .where({ 'resources.tenantId': tenantId, 'resources.type': 'staff', 'resources.isActive': true, 'resources.isBookableOnline': true })
    .whereExists(ResourceScheduleModel.query(db).whereColumn('resource_schedules.resourceId', 'resources.id').where({ isActive: true }))
    .whereExists(ResourceSkillModel.query(db).whereColumn('resource_skills.resourceId', 'resources.id').whereIn('serviceId', activeService()))
    .first();
  return { hasBookableService: !!(await activeService().first()), hasReadyStaff: !!ready };
}

// ---------------------------------------------------------------- skills

/** Skill service ids per resource, in one query. */
export async function skillsOf(db: Db, resourceIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(resourceIds.map((id) => [id, []]));
  if (resourceIds.length === 0) return map;
  const rows = await ResourceSkillModel.query(db)
    .select('resourceId', 'serviceId')
    .whereIn('resourceId', resourceIds)
    .orderBy('createdAt')
    .orderBy('serviceId');
  for (const row of rows) map.get(row.resourceId)?.push(row.serviceId);
  return map;
}

/** Adds skills; ones the resource already has are left as they are. */
export async function insertSkills(db: Db, tenantId: string, resourceId: string, serviceIds: string[]): Promise<void> {
  const ids = [...new Set(serviceIds)];
  if (ids.length === 0) return;
  await ResourceSkillModel.query(db)
    .insert(ids.map((serviceId) => ({ resourceId, serviceId, tenantId })))
    .onConflict(['resourceId', 'serviceId'])
    .ignore();
}

export async function deleteSkillsOfResource(db: Db, resourceId: string): Promise<void> {
  await ResourceSkillModel.query(db).where({ resourceId }).delete();
}

/** The number of rows deleted (0 or 1). */
export async function deleteSkill(db: Db, tenantId: string, resourceId: string, serviceId: string): Promise<number> {
  return ResourceSkillModel.query(db).where({ resourceId, serviceId, tenantId }).delete();
}

/** Exactly these resources have the skill afterwards. */
export async function replaceResourcesOfSkill(db: Db, tenantId: string, serviceId: string, resourceIds: string[]): Promise<void> {
  await ResourceSkillModel.query(db).where({ serviceId, tenantId }).delete();
  if (resourceIds.length) await ResourceSkillModel.query(db).insert(resourceIds.map((resourceId) => ({ resourceId, serviceId, tenantId })));
}

/** A deleted upload leaves the resource: its avatarKey is cleared when it still holds `fileKey`. */
export async function clearResourceAvatar(db: Db, tenantId: string, id: string, fileKey: string): Promise<void> {
  await ResourceModel.query(db).patch({ avatarKey: null }).where({ id, tenantId, avatarKey: fileKey });
}
