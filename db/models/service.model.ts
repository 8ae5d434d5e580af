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
  /** weeks after a visit the customer usually comes back (1 to 52); null: no rebooking nudge (migration 160) */
  typicalIntervalWeeks!: number | null;
}
