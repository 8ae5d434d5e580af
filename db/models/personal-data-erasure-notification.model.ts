import { Model } from 'objection';

/** personal_data_erasure_notifications (migration 210): an erasure's notice, once per channel. */
export class PersonalDataErasureNotificationModel extends Model {
  static override tableName = 'personal_data_erasure_notifications';

  id!: string;
  erasureId!: string;
  channel!: string;
  sentAt!: Date | null;
  createdAt!: Date;
}
