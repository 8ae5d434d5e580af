import { BaseModel } from './base.model';

/** waitlist_rounds (migration 100): one offer round for freed time, driven by `waitlist-offer:<id>`. */
export class WaitlistRoundModel extends BaseModel {
  static override tableName = 'waitlist_rounds';

  tenantId!: string;
  /** OPEN, FILLED, EXHAUSTED */
  status!: string;
  cause!: string;
  /** null = any staff member */
  resourceId!: string | null;
  windowStart!: Date;
  windowEnd!: Date;
  step!: number;
  bookingId!: string | null;
  freedAt!: Date;
  firstOfferSentAt!: Date | null;
  version!: number;
}
