import { BaseModel } from './base.model';

/** waitlist_entries (migration 100): a customer waiting for time to free up (docs/rules/waitlist.md). */
export class WaitlistEntryModel extends BaseModel {
  static override tableName = 'waitlist_entries';

  tenantId!: string;
  /** WAITING, BOOKED, LEFT, EXPIRED */
  status!: string;
  /** PUBLIC, STAFF */
  source!: string;
  serviceIds!: string[];
  /** null = any staff member */
  resourceId!: string | null;
  /** YYYY-MM-DD, salon-local */
  fromDate!: string;
  toDate!: string;
  /** HH:mm, salon-local */
  earliestTime!: string | null;
  latestTime!: string | null;
  contactName!: string;
  contactPhone!: string;
  /** 'nb' | 'en': the language the entry was made in; its messages are written in it (migration 131) */
  language!: string;
  contactEmail!: string | null;
  customerAccountId!: string | null;
  tokenHash!: string;
  bookingId!: string | null;
  createdBy!: string | null;
  /** how often its link was sent again on a join with its phone (migration 232) */
  linkResends!: number;
  /** answered to a public join whose phone already waited: opens and leaves, waits for nothing (migration 233) */
  decoy!: boolean;
  version!: number;
}
