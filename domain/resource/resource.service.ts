// Resources (staff, rooms, equipment) and their skills (spec 2.4, 4.3, 5.4).
// Every query filters by tenantId; another tenant's row is a 404. A resource may be created with a
// login object, which creates the linked User in the same transaction (email/phone unique per
// tenant: 409 USER_EMAIL_EXISTS / USER_PHONE_EXISTS through db/constraint-errors.ts).
import type { Knex } from 'knex';
import { ResourceModel, type ResourceMetadata, type ResourceType } from '../../db/models/resource.model';
import { ServiceModel } from '../../db/models/service.model';
import { UserModel } from '../../db/models/user.model';
import { paginate, type PageResult } from '../../db/paginate';
import { hashPassword } from '../auth/passwords';
import type { Role } from '../auth/roles.rules';
import { AppError, errors } from '../errors';
import { toIso } from '../time/iso';

export interface Actor {
  userId: string;
  role: Role;
}

export interface ResourceDto {
  id: string;
  type: ResourceType;
  name: string;
  color: string | null;
  imageKey: string | null;
  avatarKey: string | null;
  description: string | null;
  isActive: boolean;
  isBookableOnline: boolean;
  sortOrder: number;
  metadata: ResourceMetadata;
  userId: string | null;
  /** ids of the services this resource can perform */
  skills: string[];
  createdAt: string;
  updatedAt: string;
}

export interface LoginInput {
  email?: string;
  phone?: string;
  password: string;
  role: 'OWNER' | 'STAFF';
}

export interface ResourceInput {
  type?: ResourceType;
  name: string;
  color?: string | null;
  imageKey?: string | null;
  avatarKey?: string | null;
  description?: string | null;
  isActive?: boolean;
  isBookableOnline?: boolean;
  sortOrder?: number;
  metadata?: ResourceMetadata;
  /** initial skills */
  serviceIds?: string[];
  login?: LoginInput;
}

export type ResourcePatch = Partial<Omit<ResourceInput, 'login' | 'serviceIds'>>;

export interface ResourceListQuery {
  page?: number;
  limit?: number;
  type?: ResourceType;
  isActive?: boolean;
  isBookableOnline?: boolean;
  sort?: 'createdAt' | 'name' | 'sortOrder';
  order?: 'asc' | 'desc';
}

type Db = Knex | Knex.Transaction;


function db(trx?: Db): Db {
  return trx ?? ResourceModel.knex();
}

export function resourceDto(r: ResourceModel, skills: string[]): ResourceDto {
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    color: r.color ?? null,
    imageKey: r.imageKey ?? null,
    avatarKey: r.avatarKey ?? null,
    description: r.description ?? null,
    isActive: r.isActive,
    isBookableOnline: r.isBookableOnline,
    sortOrder: r.sortOrder,
    metadata: r.metadata ?? {},
    userId: r.userId ?? null,
    skills,
    createdAt: toIso(r.createdAt),
    updatedAt: toIso(r.updatedAt),
  };
}

/** Skill service ids per resource, in one query. */
async function skillsOf(trx: Db | undefined, resourceIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(resourceIds.map((id) => [id, []]));
  if (resourceIds.length === 0) return map;
  const rows: { resourceId: string; serviceId: string }[] = await db(trx)('resource_skills')
    .select('resourceId', 'serviceId')
    .whereIn('resourceId', resourceIds)
    .orderBy('createdAt')
    .orderBy('serviceId');
  for (const row of rows) map.get(row.resourceId)?.push(row.serviceId);
  return map;
}

export async function resourceDtos(trx: Db | undefined, resources: ResourceModel[]): Promise<ResourceDto[]> {
  const skills = await skillsOf(trx, resources.map((r) => r.id));
  return resources.map((r) => resourceDto(r, skills.get(r.id) ?? []));
}

/** The resource of this tenant, or 404 RESOURCE_NOT_FOUND. `forUpdate` locks the row (serialises schedule/skill writes). */
export async function findResource(trx: Db | undefined, tenantId: string, id: string, forUpdate = false): Promise<ResourceModel> {
  const query = ResourceModel.query(trx).findOne({ id, tenantId });
  if (forUpdate) query.forUpdate();
  const resource = await query;
  if (!resource) throw errors.notFound('resource');
  return resource;
}

/** The resource linked to a login user, or null (used by GET /auth/me and STAFF scoping). */
export async function resourceIdForUser(userId: string, trx?: Db): Promise<string | null> {
  const row = await ResourceModel.query(trx).select('id').findOne({ userId });
  return row?.id ?? null;
}

/** Throws 403 unless the actor is OWNER+ or the STAFF user linked to this resource. */
export function assertOwnOrOwner(actor: Actor, resource: ResourceModel): void {
  if (actor.role === 'STAFF' && resource.userId !== actor.userId) throw errors.forbidden('Staff may only act on their own resource');
}

export async function listResources(tenantId: string, q: ResourceListQuery): Promise<PageResult<ResourceDto>> {
  const query = ResourceModel.query().where({ tenantId });
  if (q.type) query.where({ type: q.type });
  if (q.isActive !== undefined) query.where({ isActive: q.isActive });
  if (q.isBookableOnline !== undefined) query.where({ isBookableOnline: q.isBookableOnline });
  query.orderBy(q.sort ?? 'createdAt', q.order ?? 'desc').orderBy('id');
  const page = await paginate(query, q);
  return { ...page, rows: await resourceDtos(undefined, page.rows) };
}

export async function getResource(tenantId: string, id: string): Promise<ResourceDto> {
  const resource = await findResource(undefined, tenantId, id);
  return (await resourceDtos(undefined, [resource]))[0];
}

/**
 * Only active services of this tenant may become skills: an id that is not a service of this tenant
 * is 404 SERVICE_NOT_FOUND, an inactive one 422 SERVICE_INACTIVE (details name the ids).
 */
export async function assertAssignableServices(trx: Db, tenantId: string, serviceIds: string[]): Promise<void> {
  const ids = [...new Set(serviceIds)];
  if (ids.length === 0) return;
  const rows = await ServiceModel.query(trx).select('id', 'isActive').where({ tenantId }).whereIn('id', ids);
  const found = new Map(rows.map((r) => [r.id, r.isActive]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    throw new AppError(
      404,
      'SERVICE_NOT_FOUND',
      'Service not found in this salon',
      missing.map((id) => ({ field: 'serviceIds', message: `no service ${id}` })),
    );
  }
  const inactive = ids.filter((id) => found.get(id) === false);
  if (inactive.length) {
    throw errors.unprocessable(
      'SERVICE_INACTIVE',
      'Only active services can be assigned as skills',
      inactive.map((id) => ({ field: 'serviceIds', message: `service ${id} is inactive` })),
    );
  }
}

async function insertSkills(trx: Db, tenantId: string, resourceId: string, serviceIds: string[]): Promise<void> {
  const ids = [...new Set(serviceIds)];
  if (ids.length === 0) return;
  await trx('resource_skills')
    .insert(ids.map((serviceId) => ({ resourceId, serviceId, tenantId })))
    .onConflict(['resourceId', 'serviceId'])
    .ignore();
}

export async function createResource(tenantId: string, input: ResourceInput, passwordHashRounds: number): Promise<ResourceDto> {
  if (input.login && !input.login.email && !input.login.phone) {
    throw errors.validation('Request validation failed', [{ field: 'login', message: 'needs an email or a phone' }]);
  }
  const passwordHash = input.login ? await hashPassword(input.login.password, passwordHashRounds) : undefined;
  return ResourceModel.transaction(async (trx) => {
    let userId: string | null = null;
    if (input.login) {
      const user = await UserModel.query(trx).insert({
        tenantId,
        role: input.login.role,
        email: input.login.email ?? null,
        phone: input.login.phone ?? null,
        name: input.name,
        passwordHash: passwordHash!,
      });
      userId = user.id;
    }
    await assertAssignableServices(trx, tenantId, input.serviceIds ?? []);
    const resource = await ResourceModel.query(trx).insertAndFetch({
      tenantId,
      type: input.type ?? 'staff',
      name: input.name,
      color: input.color ?? null,
      imageKey: input.imageKey ?? null,
      avatarKey: input.avatarKey ?? null,
      description: input.description ?? null,
      isActive: input.isActive ?? true,
      isBookableOnline: input.isBookableOnline ?? true,
      sortOrder: input.sortOrder ?? 0,
      metadata: input.metadata ?? {},
      userId,
    });
    await insertSkills(trx, tenantId, resource.id, input.serviceIds ?? []);
    return (await resourceDtos(trx, [resource]))[0];
  });
}

const STAFF_METADATA_KEYS = ['phone', 'email'];

/**
 * OWNER/ADMIN: any field. STAFF: only their own resource, and only `color` and `metadata.phone` /
 * `metadata.email` (anything else is 403 FORBIDDEN). Metadata is merged key by key; a key sent as
 * null is cleared.
 */
export async function updateResource(tenantId: string, id: string, patch: ResourcePatch, actor: Actor): Promise<ResourceDto> {
  return ResourceModel.transaction(async (trx) => {
    const resource = await findResource(trx, tenantId, id, true);
    if (actor.role === 'STAFF') {
      assertOwnOrOwner(actor, resource);
      const fields = Object.keys(patch).filter((k) => (patch as Record<string, unknown>)[k] !== undefined);
      const forbidden = fields.filter((k) => k !== 'color' && k !== 'metadata');
      const forbiddenMeta = Object.keys(patch.metadata ?? {}).filter((k) => !STAFF_METADATA_KEYS.includes(k));
      if (forbidden.length || forbiddenMeta.length) {
        throw errors.forbidden(`Staff may only change color, metadata.phone and metadata.email (not: ${[...forbidden, ...forbiddenMeta.map((k) => `metadata.${k}`)].join(', ')})`);
      }
    }
    const { metadata, ...rest } = patch;
    const changes: Partial<ResourceModel> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    if (metadata) changes.metadata = { ...(resource.metadata ?? {}), ...metadata };
    const updated = Object.keys(changes).length ? await resource.$query(trx).patchAndFetch(changes) : resource;
    return (await resourceDtos(trx, [updated]))[0];
  });
}

// ---------------------------------------------------------------- skills

export async function addSkills(tenantId: string, resourceId: string, serviceIds: string[]): Promise<ResourceDto> {
  return ResourceModel.transaction(async (trx) => {
    const resource = await findResource(trx, tenantId, resourceId, true);
    await assertAssignableServices(trx, tenantId, serviceIds);
    await insertSkills(trx, tenantId, resourceId, serviceIds);
    return (await resourceDtos(trx, [resource]))[0];
  });
}

/** PUT: the given list becomes the whole skill list (an empty list clears it). */
export async function replaceSkills(tenantId: string, resourceId: string, serviceIds: string[]): Promise<ResourceDto> {
  return ResourceModel.transaction(async (trx) => {
    const resource = await findResource(trx, tenantId, resourceId, true);
    await assertAssignableServices(trx, tenantId, serviceIds);
    await trx('resource_skills').where({ resourceId }).delete();
    await insertSkills(trx, tenantId, resourceId, serviceIds);
    return (await resourceDtos(trx, [resource]))[0];
  });
}

export async function removeSkill(tenantId: string, resourceId: string, serviceId: string): Promise<void> {
  await ResourceModel.transaction(async (trx) => {
    await findResource(trx, tenantId, resourceId, true);
    const deleted = await trx('resource_skills').where({ resourceId, serviceId, tenantId }).delete();
    if (!deleted) throw errors.notFound('resourceSkill', 'This resource does not have this skill');
  });
}

async function findServiceOf(trx: Db | undefined, tenantId: string, serviceId: string): Promise<ServiceModel> {
  const service = await ServiceModel.query(trx).findOne({ id: serviceId, tenantId });
  if (!service) throw errors.notFound('service');
  return service;
}

/** Resources that can perform the service (GET /services/:id/resources), by sortOrder then name. */
export async function listServiceResources(tenantId: string, serviceId: string): Promise<ResourceDto[]> {
  await findServiceOf(undefined, tenantId, serviceId);
  const resources = await ResourceModel.query()
    .where({ 'resources.tenantId': tenantId })
    .whereExists(ResourceModel.knex()('resource_skills').whereRaw('resource_skills.resource_id = resources.id').where({ serviceId }))
    .orderBy('sortOrder')
    .orderBy('name')
    .orderBy('id');
  return resourceDtos(undefined, resources);
}

/** PUT /services/:id/resources: exactly these resources can perform the (active) service. */
export async function replaceServiceResources(tenantId: string, serviceId: string, resourceIds: string[]): Promise<ResourceDto[]> {
  const ids = [...new Set(resourceIds)];
  await ResourceModel.transaction(async (trx) => {
    const service = await findServiceOf(trx, tenantId, serviceId);
    if (!service.isActive) throw errors.unprocessable('SERVICE_INACTIVE', 'Only active services can be assigned as skills');
    const found = ids.length ? await ResourceModel.query(trx).select('id').where({ tenantId }).whereIn('id', ids) : [];
    const missing = ids.filter((id) => !found.some((r) => r.id === id));
    if (missing.length) {
      throw new AppError(
        404,
        'RESOURCE_NOT_FOUND',
        'Resource not found in this salon',
        missing.map((id) => ({ field: 'resourceIds', message: `no resource ${id}` })),
      );
    }
    await trx('resource_skills').where({ serviceId, tenantId }).delete();
    if (ids.length) await trx('resource_skills').insert(ids.map((resourceId) => ({ resourceId, serviceId, tenantId })));
  });
  return listServiceResources(tenantId, serviceId);
}
