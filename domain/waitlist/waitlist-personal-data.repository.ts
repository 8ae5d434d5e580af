// The waitlist and a person's personal data (docs/rules/personal-data.md#erasure): an entry names no
// customer record, it keeps the contact it was made with, so a person's entries at a salon are those
// with their phone, their e-mail or their account. Erased, an entry keeps its dates and services
// without the contact, and its messages without their address and text. Plain rows out.
import type { Db } from '../../db/db-handle';
import { WaitlistEntryModel } from '../../db/models/waitlist-entry.model';
import { WaitlistNotificationModel } from '../../db/models/waitlist-notification.model';
import { WaitlistOfferModel } from '../../db/models/waitlist-offer.model';

export interface PersonOnTheWaitlist {
  phones: string[];
  emails: string[];
  accountId: string | null;
}

/** The person's entries at the salon (every salon: `tenantId` null), with their status. */
export async function entriesOfPerson(
  db: Db,
  tenantId: string | null,
  person: PersonOnTheWaitlist,
): Promise<{ id: string; tenantId: string; status: string }[]> {
  if (!person.phones.length && !person.emails.length && !person.accountId) return [];
  const q = WaitlistEntryModel.query(db).where((w) => {
    if (person.phones.length) w.orWhereIn('contactPhone', person.phones);
    if (person.emails.length) w.orWhereIn('contactEmail', person.emails);
    if (person.accountId) w.orWhere('customerAccountId', person.accountId);
  });
  if (tenantId) q.where('tenantId', tenantId);
  return (await q.select('id', 'tenantId', 'status').orderBy('createdAt')).map((e) => ({ id: e.id, tenantId: e.tenantId, status: e.status }));
}

/** The entries without contact (the name and phone the table requires become empty), and their messages and their offers' without address and text. */
export async function clearEntryContacts(db: Db, entryIds: string[]): Promise<number> {
  if (!entryIds.length) return 0;
  await WaitlistEntryModel.query(db).patch({ contactName: '', contactPhone: '', contactEmail: null, customerAccountId: null }).whereIn('id', entryIds);
  return WaitlistNotificationModel.query(db)
    .patch({ sentTo: null, text: null })
    .where((w) => w.whereIn('entryId', entryIds).orWhereIn('offerId', WaitlistOfferModel.query(db).select('id').whereIn('entryId', entryIds)))
    .where((w) => w.whereNotNull('sentTo').orWhereNotNull('text'));
}
