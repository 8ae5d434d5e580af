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
import {
  phaseMinutes,
  shapeOfService,
  shapeProblems,
  storedPhases,
  type ResourceRequirement,
  type ServicePhase,
  type ServiceShape,
} from './service-shape.rules';
import { categoryDto, serviceDto, type ServiceCategoryDto, type ServiceDto } from './catalogue.dto';
import * as repo from './catalogue.repository';
import { syncUploadFields } from '../upload/upload-links';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';

export interface ServiceInput {
  name: string;
  description?: string | null;
  /** minutes; with phases it must equal their sum (it may be left out then) */
  duration?: number;
  phases?: ServicePhase[];
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
  resourceRequirements?: ResourceRequirement[];
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
    throw errors.validation('Request validation failed', [{ field: 'description', message: `must have at most ${SERVICE_DESCRIPTION_MAX_WORDS} words` }]);
  }
}

const invalid = (field: string, message: string) => errors.validation('Request validation failed', [{ field, message }]);

/**
 * The shape a write leaves the service with (docs/rules/catalogue.md#phases-buffers-and-rooms): the
 * phases sent, else the current ones, where a duration alone re-times a service of one work phase
 * (a service with processing time changes its length through its phases); `duration` is their sum.
 */
function shapeAfter(current: ServiceShape | null, input: ServicePatch): { shape: ServiceShape; duration: number } {
  let phases: readonly ServicePhase[];
  if (input.phases) phases = input.phases;
  else if (input.duration !== undefined) {
    if (current && !(current.phases.length === 1 && current.phases[0].kind === 'WORK')) {
      throw invalid('duration', 'this service has phases: its duration is their sum, so change the phases');
    }
    phases = [{ kind: 'WORK', minutes: input.duration }];
  } else if (current) phases = current.phases;
  else throw invalid('duration', 'give a duration or the phases');
  const duration = phaseMinutes(phases);
  const shape: ServiceShape = {
    phases,
    bufferBeforeMinutes: input.bufferBeforeMinutes ?? current?.bufferBeforeMinutes ?? 0,
    bufferAfterMinutes: input.bufferAfterMinutes ?? current?.bufferAfterMinutes ?? 0,
    // a requirement sent without phases needs its room for the whole service
    requirements: (input.resourceRequirements ?? current?.requirements ?? []).map((r) => ({ resourceType: r.resourceType, phases: r.phases ?? null })),
  };
  // a phase is named by its own fields first: the sum of phases that lack minutes is no number to compare
  const problems = shapeProblems(shape);
  if (problems.length) throw errors.validation('Request validation failed', problems);
  if (input.phases && input.duration !== undefined && input.duration !== duration) {
    throw invalid('duration', `must equal the sum of the phases' minutes (${duration})`);
  }
  return { shape, duration };
}

/** The service columns of a shape. */
function shapeColumns({ shape, duration }: { shape: ServiceShape; duration: number }) {
  return {
    duration,
    phases: storedPhases(shape.phases),
    bufferBeforeMinutes: shape.bufferBeforeMinutes,
    bufferAfterMinutes: shape.bufferAfterMinutes,
    resourceRequirements: shape.requirements.map((r) => ({ resourceType: r.resourceType, phases: r.phases })),
  };
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
  const shape = shapeColumns(shapeAfter(null, input));
  return db.transaction(async (trx) => {
    await checkReferences(trx, tenantId, input);
    const service = await repo.insertService(trx, {
      tenantId,
      name: input.name,
      description: input.description ?? null,
      ...shape,
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
    const { phases: _phases, duration: _duration, bufferBeforeMinutes: _before, bufferAfterMinutes: _after, resourceRequirements: _needs, ...rest } = patch;
    const reshaped = ['phases', 'duration', 'bufferBeforeMinutes', 'bufferAfterMinutes', 'resourceRequirements'].some(
      (k) => patch[k as keyof ServicePatch] !== undefined,
    );
    const shape = reshaped ? shapeColumns(shapeAfter(shapeOfService(before), patch)) : {};
    const updated = await repo.patchService(trx, id, { ...definedFields(rest), ...shape, currency: await tenantCurrency(trx, tenantId) });
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
