import { BaseModel } from './base.model';

/** One date's schedule instead of the weekly one; null times = day off. `date` is 'YYYY-MM-DD'. */
export class ResourceScheduleOverrideModel extends BaseModel {
  static override tableName = 'resource_schedule_overrides';

  resourceId!: string;
  tenantId!: string;
  date!: string;
  startTime!: string | null;
  endTime!: string | null;
  reason!: string | null;
}
