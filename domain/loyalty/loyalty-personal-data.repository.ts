// Loyalty and a person's personal data (docs/rules/personal-data.md#erasure): the vouchers an erasure
// cancels, and the address and text of the voucher messages sent to them. Stamps and points stay on
// the salon's record, which names no one once it is erased. Plain rows out.
import type { Db } from '../../db/db-handle';
import { LoyaltyVoucherModel } from '../../db/models/loyalty-voucher.model';
import { LoyaltyVoucherNotificationModel } from '../../db/models/loyalty-voucher-notification.model';

export async function activeVoucherIdsOf(db: Db, tenantId: string, tenantCustomerId: string): Promise<string[]> {
  return (await LoyaltyVoucherModel.query(db).where({ tenantId, tenantCustomerId, status: 'ACTIVE' }).select('id')).map((v) => v.id);
}

export async function vouchersCancelledWithReason(db: Db, tenantId: string, tenantCustomerId: string, reason: string): Promise<number> {
  return LoyaltyVoucherModel.query(db).where({ tenantId, tenantCustomerId, status: 'CANCELLED', cancelledReason: reason }).resultSize();
}

export async function clearVoucherMessages(db: Db, tenantId: string, tenantCustomerId: string): Promise<number> {
  return LoyaltyVoucherNotificationModel.query(db)
    .patch({ sentTo: null, text: null })
    .whereIn('voucherId', LoyaltyVoucherModel.query(db).select('id').where({ tenantId, tenantCustomerId }))
    .where((w) => w.whereNotNull('sentTo').orWhereNotNull('text'));
}
