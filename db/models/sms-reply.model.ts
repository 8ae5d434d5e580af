import { Model } from 'objection';

/** sms_replies (migration 150): one inbound SMS, claimed by (gateway, gateway message id); what it did and the answer sent. */
export class SmsReplyModel extends Model {
  static override tableName = 'sms_replies';

  id!: string;
  gateway!: string;
  gatewayMessageId!: string;
  fromPhone!: string;
  text!: string;
  /** 'CONFIRM' | 'CANCEL' | 'OTHER' */
  intent!: string;
  tenantId!: string | null;
  bookingId!: string | null;
  outcome!: string;
  answer!: string;
  receivedAt!: Date;
  answeredAt!: Date | null;
}
