import { BaseModel } from './base.model';

/** waitlist_offers (migration 100): freed time offered to one entry in one step of a round. */
export class WaitlistOfferModel extends BaseModel {
  static override tableName = 'waitlist_offers';
  static override jsonAttributes = ['items'];

  tenantId!: string;
  roundId!: string;
  entryId!: string;
  step!: number;
  /** OFFERED, ACCEPTED, EXPIRED, DECLINED, TAKEN */
  status!: string;
  startTime!: Date;
  endTime!: Date;
  items!: { serviceId: string; resourceId: string; startTime: string; endTime: string }[];
  expiresAt!: Date;
  bookingId!: string | null;
}
