// Side effects of the voucher workflow: read the committed voucher, expire it when its timer fires,
// and send its messages once per channel (a claimed loyalty_voucher_notifications row per message).
import type { Db } from '../db/db-handle';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Mailer } from '../integrations/mail/mailer';
import type { SmsSender } from '../integrations/sms/sms-sender';
import { deliveryRetryDelayMs } from '../domain/notifications/delivery-retry.rules';
import { renderVoucherMessage } from '../domain/notifications/voucher-messages.rules';
import type { RenderedMessage } from '../domain/notifications/booking-messages.rules';
import { expireVoucherIfDue, voucherSnapshot } from '../domain/loyalty/loyalty-voucher.service';
import { claimVoucherNotification, markVoucherNotificationSent, voucherMessageContext } from '../domain/loyalty/loyalty.repository';
import type { DeliveryOutcome } from './booking.types';
import { VoucherActivityErrors, type VoucherActivities, type VoucherMessageRequest } from './voucher.types';

export interface VoucherActivityDeps {
  knex: Db;
  mailer: Mailer;
  sms: SmsSender;
}

export function createVoucherActivities({ knex, mailer, sms }: VoucherActivityDeps): VoucherActivities {
  async function deliverOnce(
    channel: 'SMS' | 'EMAIL',
    { voucherId, kind, dedupeKey }: VoucherMessageRequest,
    send: (contact: { phone: string | null; email: string | null }, message: RenderedMessage, meta: Record<string, unknown>) => Promise<boolean>,
  ): Promise<DeliveryOutcome> {
    const ctx = await voucherMessageContext(knex, voucherId);
    if (!ctx) throw ApplicationFailure.nonRetryable(`voucher ${voucherId} not found`, VoucherActivityErrors.notFound);
    const claim = await claimVoucherNotification(knex, { tenantId: ctx.voucher.tenantId, voucherId, channel, kind, dedupeKey });
    if (claim.sentAt) return 'ALREADY_SENT';
    const message = renderVoucherMessage(kind, {
      salonName: ctx.tenantName,
      customerName: ctx.customerName,
      code: ctx.voucher.code,
      rewardType: ctx.voucher.rewardType,
      rewardValue: ctx.voucher.rewardValue,
      expiresAt: ctx.voucher.expiresAt ? new Date(ctx.voucher.expiresAt) : null,
      timezone: ctx.timezone,
    });
    const meta = { voucherId, kind, notificationId: claim.id };
    try {
      if (!(await send({ phone: ctx.phone, email: ctx.email }, message, meta))) return 'NO_CONTACT';
    } catch (err) {
      throw ApplicationFailure.create({
        type: VoucherActivityErrors.deliveryFailed,
        message: `${channel} for voucher ${voucherId} (${dedupeKey}) failed: ${(err as Error).message}`,
        cause: err as Error,
        nextRetryDelay: deliveryRetryDelayMs(Context.current().info.attempt),
      });
    }
    await markVoucherNotificationSent(knex, claim.id);
    return 'SENT';
  }

  return {
    async readVoucher({ voucherId, minVersion }) {
      const snapshot = await voucherSnapshot(knex, voucherId);
      if (!snapshot || snapshot.version < minVersion) {
        throw ApplicationFailure.retryable(`voucher ${voucherId} not yet at version ${minVersion}`, VoucherActivityErrors.versionNotVisible);
      }
      return snapshot;
    },

    expireVoucher({ voucherId, at }) {
      return expireVoucherIfDue(knex, voucherId, new Date(at));
    },

    sendVoucherSms(request) {
      return deliverOnce('SMS', request, async (contact, message, meta) => {
        if (!contact.phone) return false;
        await sms.send({ to: contact.phone, text: message.text, meta });
        return true;
      });
    },

    sendVoucherEmail(request) {
      return deliverOnce('EMAIL', request, async (contact, message, meta) => {
        if (!contact.email) return false;
        await mailer.send({ to: contact.email, subject: message.subject, text: message.text, meta });
        return true;
      });
    },
  };
}
