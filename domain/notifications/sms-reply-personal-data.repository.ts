// Replies by SMS and a person's personal data (docs/rules/personal-data.md#erasure): a reply to one of
// their bookings, or from their phone to the salon (or matched to no salon), keeps what it did (its outcome) without the number,
// the text or the answer sent back. The row stays so a redelivered reply is still recognised and
// answered no more. Plain rows out.
import type { Db } from '../../db/db-handle';
import { SmsReplyModel } from '../../db/models/sms-reply.model';

export async function clearRepliesOf(db: Db, tenantId: string | null, who: { bookingIds: string[]; phones: string[] }): Promise<number> {
  if (!who.bookingIds.length && !who.phones.length) return 0;
  return SmsReplyModel.query(db)
    .patch({ fromPhone: '', text: '', answer: '' })
    .where((w) => {
      if (who.bookingIds.length) w.orWhereIn('bookingId', who.bookingIds);
      if (who.phones.length)
        w.orWhere((p) => (tenantId ? p.where((t) => t.where('tenantId', tenantId).orWhereNull('tenantId')) : p).whereIn('fromPhone', who.phones));
    })
    .whereNot('fromPhone', '');
}
