import { BaseModel } from './base.model';

/** Weekly recurring slot; several rows per day allowed. Times are salon-local 'HH:mm', stored as given. */
export class ResourceScheduleModel extends BaseModel {
  static override tableName = 'resource_schedules';

  resourceId!: string;
  tenantId!: string;
  dayOfWeek!: number;
  startTime!: string;
  endTime!: string;
  isActive!: boolean;
}
