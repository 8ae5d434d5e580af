// Resources (staff, rooms, equipment) and their skills (docs/rules/catalogue.md#resources).
// Every query filters by tenantId; another tenant's row is a 404. A resource may be created with a
// login object, which creates the linked User in the same transaction (email/phone unique per
// tenant: 409 USER_EMAIL_EXISTS / USER_PHONE_EXISTS through api/middleware/constraint-errors.ts).
import type { Db } from '../../db/db-handle';
import type { PageQuery, PageResult } from '../../db/paginate';
import { assertAcceptablePassword, hashPassword } from '../users/passwords';
import type { Role } from '../users/roles.rules';
import { insertUser } from '../users/user.repository';
import { findService, findServicesByIds } from '../catalogue/catalogue.repository';
import { AppError, errors } from '../errors';
import { definedFields } from '../defined-fields';
import { toIso } from '../time/iso';
import { optionalPhone } from '../phone/phone.rules';
import { salonPhoneRegion } from '../tenant/tenant-context';
import * as repo from './resource.repository';
import type { ResourceMetadata, ResourceType } from './resource.repository';
import { syncUploadFields } from '../upload/upload-links';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';

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

export type ResourceListQuery = PageQuery & repo.ResourceFilter;

export function resourceDto(r: repo.ResourceRow, skills: string[]): ResourceDto {
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

export async function resourceDtos(db: Db, resources: repo.ResourceRow[]): Promise<ResourceDto[]> {
  const skills = await repo.skillsOf(
    db,
    resources.map((r) => r.id),
  );
  return resources.map((r) => resourceDto(r, skills.get(r.id) ?? []));
}

/** The resource of this tenant, or 404 RESOURCE_NOT_FOUND. `forUpdate` locks the row (serialises schedule/skill writes). */
export async function existingResource(db: Db, tenantId: string, id: string, forUpdate = false): Promise<repo.ResourceRow> {
  const resource = await repo.findResource(db, tenantId, id, forUpdate);
  if (!resource) throw errors.notFound('resource');
  return resource;
}

/** The resource linked to a login user, or null (used by GET /auth/me and STAFF scoping). */
export async function resourceIdForUser(db: Db, userId: string): Promise<string | null> {
  return repo.findResourceIdOfUser(db, userId);
}

/** Throws 403 unless the actor is OWNER+ or the STAFF user linked to this resource. */
export function assertOwnOrOwner(actor: Actor, resource: { userId: string | null }): void {
  if (actor.role === 'STAFF' && resource.userId !== actor.userId) throw errors.forbidden('Staff may only act on their own resource');
}

export async function listResources(db: Db, tenantId: string, q: ResourceListQuery): Promise<PageResult<ResourceDto>> {
  const page = await repo.pageOfResources(db, tenantId, q, q);
  return { ...page, rows: await resourceDtos(db, page.rows) };
}

export async function getResource(db: Db, tenantId: string, id: string): Promise<ResourceDto> {
  return (await resourceDtos(db, [await existingResource(db, tenantId, id)]))[0];
}

/** 404 SERVICE_NOT_FOUND / RESOURCE_NOT_FOUND naming every requested id that is not this salon's. */
function notInSalon(kind: 'service' | 'resource', field: string, ids: string[]): AppError {
  const label = kind === 'service' ? 'Service' : 'Resource';
  return new AppError(
    404,
    `${kind.toUpperCase()}_NOT_FOUND`,
    `${label} not found in this salon`,
    ids.map((id) => ({ field, message: `no ${kind} ${id}` })),
  );
}

/**
 * Only active services of this tenant may become skills: an id that is not a service of this tenant
 * is 404 SERVICE_NOT_FOUND, an inactive one 422 SERVICE_INACTIVE (details name the ids).
 */
export async function assertAssignableServices(db: Db, tenantId: string, serviceIds: string[]): Promise<void> {
  const ids = [...new Set(serviceIds)];
  if (ids.length === 0) return;
  const rows = await findServicesByIds(db, tenantId, ids);
  const found = new Map(rows.map((r) => [r.id, r.isActive]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw notInSalon('service', 'serviceIds', missing);
  const inactive = ids.filter((id) => found.get(id) === false);
  if (inactive.length) {
    throw errors.unprocessable(
      'SERVICE_INACTIVE',
      'Only active services can be assigned as skills',
      inactive.map((id) => ({ field: 'serviceIds', message: `service ${id} is inactive` })),
    );
  }
}

export async function createResource(
  db: Db,
  signaller: EntitySignaller,
  tenantId: string,
  input: ResourceInput,
  passwordHashRounds: number,
): Promise<ResourceDto> {
  if (input.login && !input.login.email && !input.login.phone) {
    throw errors.validation('Request validation failed', [{ field: 'login', message: 'needs an email or a phone' }]);
  }
  if (input.login) assertAcceptablePassword(input.login.password, 'login.password');
  // a login's number in E.164, read in the salon's country (docs/rules/conventions.md#phone-numbers)
  const loginPhone = input.login?.phone ? optionalPhone(input.login.phone, await salonPhoneRegion(db, tenantId), 'login.phone') : null;
  const passwordHash = input.login ? await hashPassword(input.login.password, passwordHashRounds) : undefined;
  return db.transaction(async (trx) => {
    let userId: string | null = null;
    if (input.login) {
      userId = await insertUser(trx, {
        tenantId,
        role: input.login.role,
        email: input.login.email ?? null,
        phone: loginPhone,
        name: input.name,
        passwordHash: passwordHash!,
      });
    }
    await assertAssignableServices(trx, tenantId, input.serviceIds ?? []);
    const resource = await repo.insertResource(trx, {
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
    await repo.insertSkills(trx, tenantId, resource.id, input.serviceIds ?? []);
    await syncUploadFields(trx, signaller, tenantId, 'resource', resource.id, null, resource);
    return (await resourceDtos(trx, [resource]))[0];
  });
}

const STAFF_METADATA_KEYS = ['phone', 'email'];

/**
 * OWNER/ADMIN: any field. STAFF: only their own resource, and only `color`, `avatarKey` (their own uploaded avatar) and `metadata.phone` /
 * `metadata.email` (anything else is 403 FORBIDDEN). Metadata is merged key by key; a key sent as
 * null is cleared.
 */
export async function updateResource(
  db: Db,
  signaller: EntitySignaller,
  tenantId: string,
  id: string,
  patch: ResourcePatch,
  actor: Actor,
): Promise<ResourceDto> {
  return db.transaction(async (trx) => {
    const resource = await existingResource(trx, tenantId, id, true);
    if (actor.role === 'STAFF') {
      assertOwnOrOwner(actor, resource);
      const fields = Object.keys(patch).filter((k) => (patch as Record<string, unknown>)[k] !== undefined);
      const forbidden = fields.filter((k) => k !== 'color' && k !== 'metadata' && k !== 'avatarKey');
      const forbiddenMeta = Object.keys(patch.metadata ?? {}).filter((k) => !STAFF_METADATA_KEYS.includes(k));
      if (forbidden.length || forbiddenMeta.length) {
        throw errors.forbidden(
          `Staff may only change color, avatarKey, metadata.phone and metadata.email (not: ${[...forbidden, ...forbiddenMeta.map((k) => `metadata.${k}`)].join(', ')})`,
        );
      }
    }
    const { metadata, ...rest } = patch;
    const changes: Partial<repo.NewResourceRow> = definedFields(rest);
    if (metadata) changes.metadata = { ...(resource.metadata ?? {}), ...metadata };
    const updated = Object.keys(changes).length ? await repo.patchResource(trx, id, changes) : resource;
    await syncUploadFields(trx, signaller, tenantId, 'resource', id, resource, updated);
    return (await resourceDtos(trx, [updated]))[0];
  });
}

// ---------------------------------------------------------------- skills

export async function addSkills(db: Db, tenantId: string, resourceId: string, serviceIds: string[]): Promise<ResourceDto> {
  return db.transaction(async (trx) => {
    const resource = await existingResource(trx, tenantId, resourceId, true);
    await assertAssignableServices(trx, tenantId, serviceIds);
    await repo.insertSkills(trx, tenantId, resourceId, serviceIds);
    return (await resourceDtos(trx, [resource]))[0];
  });
}

/** PUT: the given list becomes the whole skill list (an empty list clears it). */
export async function replaceSkills(db: Db, tenantId: string, resourceId: string, serviceIds: string[]): Promise<ResourceDto> {
  return db.transaction(async (trx) => {
    const resource = await existingResource(trx, tenantId, resourceId, true);
    await assertAssignableServices(trx, tenantId, serviceIds);
    await repo.deleteSkillsOfResource(trx, resourceId);
    await repo.insertSkills(trx, tenantId, resourceId, serviceIds);
    return (await resourceDtos(trx, [resource]))[0];
  });
}

export async function removeSkill(db: Db, tenantId: string, resourceId: string, serviceId: string): Promise<void> {
  await db.transaction(async (trx) => {
    await existingResource(trx, tenantId, resourceId, true);
    if (!(await repo.deleteSkill(trx, tenantId, resourceId, serviceId))) throw errors.notFound('resourceSkill', 'This resource does not have this skill');
  });
}

async function existingService(db: Db, tenantId: string, serviceId: string) {
  const service = await findService(db, tenantId, serviceId);
  if (!service) throw errors.notFound('service');
  return service;
}

/** Resources that can perform the service (GET /services/:id/resources), by sortOrder then name. */
export async function listServiceResources(db: Db, tenantId: string, serviceId: string): Promise<ResourceDto[]> {
  await existingService(db, tenantId, serviceId);
  return resourceDtos(db, await repo.resourcesWithSkill(db, tenantId, serviceId));
}

/** PUT /services/:id/resources: exactly these resources can perform the (active) service. */
export async function replaceServiceResources(db: Db, tenantId: string, serviceId: string, resourceIds: string[]): Promise<ResourceDto[]> {
  const ids = [...new Set(resourceIds)];
  await db.transaction(async (trx) => {
    const service = await existingService(trx, tenantId, serviceId);
    if (!service.isActive) throw errors.unprocessable('SERVICE_INACTIVE', 'Only active services can be assigned as skills');
    const found = await repo.existingResourceIds(trx, tenantId, ids);
    const missing = ids.filter((id) => !found.includes(id));
    if (missing.length) throw notInSalon('resource', 'resourceIds', missing);
    await repo.replaceResourcesOfSkill(trx, tenantId, serviceId, ids);
  });
  return listServiceResources(db, tenantId, serviceId);
}
