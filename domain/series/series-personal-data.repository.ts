// Standing appointments and a person's personal data (docs/rules/personal-data.md#erasure): the series
// of an erased customer (ended by the erasure through the series service), their account link and the
// address and text of the messages they were sent. Plain rows out.
import type { Db } from '../../db/db-handle';
import { BookingSeriesModel } from '../../db/models/booking-series.model';
import { BookingSeriesNotificationModel } from '../../db/models/booking-series-notification.model';

export type SeriesOwner = { tenantId: string; customerId: string } | { accountId: string };

const ofOwner = (owner: SeriesOwner): Record<string, string> =>
  'customerId' in owner ? { tenantId: owner.tenantId, customerId: owner.customerId } : { customerAccountId: owner.accountId };

export async function seriesOfOwner(db: Db, owner: SeriesOwner): Promise<{ id: string; tenantId: string; status: string }[]> {
  return (await BookingSeriesModel.query(db).where(ofOwner(owner)).select('id', 'tenantId', 'status').orderBy('createdAt')).map((s) => ({
    id: s.id,
    tenantId: s.tenantId,
    status: s.status,
  }));
}

/** The series without the account link, and their messages (to the customer and about them to the salon) without address and text. */
export async function clearSeriesIdentity(db: Db, seriesIds: string[]): Promise<number> {
  if (!seriesIds.length) return 0;
  await BookingSeriesModel.query(db).patch({ customerAccountId: null }).whereIn('id', seriesIds);
  return BookingSeriesNotificationModel.query(db)
    .patch({ sentTo: null, text: null })
    .whereIn('seriesId', seriesIds)
    .where((w) => w.whereNotNull('sentTo').orWhereNotNull('text'));
}
