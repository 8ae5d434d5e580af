import { Model } from 'objection';

/** marketing_consents (migration 210): every marketing consent or opt-out of a customer, with its time and source. */
export class MarketingConsentModel extends Model {
  static override tableName = 'marketing_consents';

  id!: string;
  tenantId!: string;
  customerId!: string;
  granted!: boolean;
  /** 'BOOKING_PAGE' | 'SIGN_IN' | 'UNSUBSCRIBE_LINK' | 'SALON' */
  source!: string;
  actorUserId!: string | null;
  recordedAt!: Date;
  createdAt!: Date;
}
