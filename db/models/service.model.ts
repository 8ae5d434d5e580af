import { BaseModel } from './base.model';

export class ServiceModel extends BaseModel {
  static override tableName = 'services';
  static override jsonAttributes = ['metadata', 'phases', 'resourceRequirements'];

  tenantId!: string;
  name!: string;
  description!: string | null;
  /** minutes: the customer-visible length, the sum of the phases' minutes (buffers excluded) */
  duration!: number;
  /** [{kind: WORK|PROCESSING, minutes}]; null = one WORK phase of `duration` (migration 140) */
  phases!: { kind: string; minutes: number }[] | null;
  bufferBeforeMinutes!: number;
  bufferAfterMinutes!: number;
  /** [{resourceType: room|equipment, phases: number[] | null}] */
  resourceRequirements!: { resourceType: string; phases: number[] | null }[];
  /** minor units */
  price!: number;
  currency!: string;
  categoryId!: string | null;
  accountingAccountId!: string | null;
  isActive!: boolean;
  sortOrder!: number;
  metadata!: Record<string, unknown>;
  imageKey!: string | null;
}
