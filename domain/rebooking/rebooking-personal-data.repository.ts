// Rebooking nudges and a person's personal data (docs/rules/personal-data.md#erasure): the customer's
// nudge rows name only their record; the messages they were sent lose their address and text. Plain rows out.
import type { Db } from '../../db/db-handle';
import { RebookingNudgeModel } from '../../db/models/rebooking-nudge.model';
import { RebookingNudgeNotificationModel } from '../../db/models/rebooking-nudge-notification.model';

export async function nudgeIdsOf(db: Db, tenantId: string, customerId: string): Promise<string[]> {
  return (await RebookingNudgeModel.query(db).where({ tenantId, customerId }).select('id')).map((n) => n.id);
}

export async function clearNudgeMessages(db: Db, nudgeIds: string[]): Promise<number> {
  if (!nudgeIds.length) return 0;
  return RebookingNudgeNotificationModel.query(db)
    .patch({ sentTo: null, text: null })
    .whereIn('nudgeId', nudgeIds)
    .where((w) => w.whereNotNull('sentTo').orWhereNotNull('text'));
}
