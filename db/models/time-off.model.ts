import { BaseModel } from './base.model';

export type TimeOffType = 'vacation' | 'sick' | 'personal' | 'other';

/** Absence from startDate to endDate inclusive; null times = whole days, else the window on each date. */
export class TimeOffModel extends BaseModel {
  static override tableName = 'time_offs';

  resourceId!: string;
  tenantId!: string;
  type!: TimeOffType;
  startDate!: string;
  endDate!: string;
  startTime!: string | null;
  endTime!: string | null;
  description!: string | null;
  isApproved!: boolean;
  createdBy!: string | null;
}
