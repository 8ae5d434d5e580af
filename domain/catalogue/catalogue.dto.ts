// Catalogue rows -> the API's ServiceDto / ServiceCategoryDto (openapi.yaml).
import { toIso } from '../time/iso';
import type { ServiceCategoryRow, ServiceRow } from './catalogue.repository';
import { shapeOfService, type ResourceRequirement, type ServicePhase } from './service-shape.rules';

export interface ServiceDto {
  id: string;
  name: string;
  description: string | null;
  /** the customer-visible length: the phases' minutes, buffers excluded */
  duration: number;
  phases: ServicePhase[];
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  resourceRequirements: ResourceRequirement[];
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

export function serviceDto(s: ServiceRow): ServiceDto {
  const shape = shapeOfService(s);
  return {
    id: s.id,
    name: s.name,
    description: s.description ?? null,
    duration: s.duration,
    phases: [...shape.phases],
    bufferBeforeMinutes: shape.bufferBeforeMinutes,
    bufferAfterMinutes: shape.bufferAfterMinutes,
    resourceRequirements: [...shape.requirements],
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

export function categoryDto(c: ServiceCategoryRow): ServiceCategoryDto {
  return { id: c.id, name: c.name, sortOrder: c.sortOrder, createdAt: toIso(c.createdAt), updatedAt: toIso(c.updatedAt) };
}
