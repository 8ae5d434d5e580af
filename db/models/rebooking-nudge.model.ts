import { BaseModel } from './base.model';

/** rebooking_nudges (migration 160): one per customer and salon, following the latest completed visit (docs/rules/series.md#rebooking-nudges). */
export class RebookingNudgeModel extends BaseModel {
  static override tableName = 'rebooking_nudges';

  tenantId!: string;
  customerId!: string;
  visitBookingId!: string;
  visitedAt!: Date;
  dueAt!: Date | null;
  serviceIds!: string[];
  resourceId!: string | null;
  /** WAITING, SENT, BOOKED_BEFORE, NOT_AGREED, NO_INTERVAL, NO_CONTACT */
  status!: string;
  sentAt!: Date | null;
  version!: number;
}
