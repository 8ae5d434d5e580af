import { Model } from 'objection';

/** rebooking_nudge_notifications (migration 160): one nudge message per (nudge, visit, channel), claimed before it is sent. */
export class RebookingNudgeNotificationModel extends Model {
  static override tableName = 'rebooking_nudge_notifications';

  id!: string;
  tenantId!: string;
  nudgeId!: string;
  visitBookingId!: string;
  channel!: string;
  sentAt!: Date | null;
  /** where it went and what it said (migration 210); cleared when the customer's data is erased */
  sentTo!: string | null;
  text!: string | null;
  createdAt!: Date;
}
