// Side effects of the voucher workflow: read the committed voucher, expire it when its timer fires,
// and send its messages once per channel (a claimed loyalty_voucher_notifications row per message).
import type { Db } from '../db/db-handle';
import { ApplicationFailure } from '@temporalio/activity';
import type { Mailer } from '../domain/notifications/mailer';
import type { SmsSender } from '../domain/notifications/sms-sender';
import { renderVoucherMessage } from '../domain/notifications/voucher-messages.rules';
import { expireVoucherIfDue, voucherSnapshot } from '../domain/loyalty/loyalty-voucher.service';
import { claimVoucherNotification, markVoucherNotificationSent, voucherMessageContext } from '../domain/loyalty/loyalty.repository';
import type { DeliveryOutcome } from './booking.types';
import { deliverOnce, type Channel } from './message-delivery';
import { committedAt } from './read-committed';
import { voucherContract } from '../domain/loyalty/voucher-events.rules';
import { VoucherActivityErrors, type VoucherActivities, type VoucherMessageRequest } from './loyalty.types';

export interface VoucherActivityDeps {
  knex: Db;
  mailer: Mailer;
  sms: SmsSender;
}

export function createVoucherActivities({ knex, mailer, sms }: VoucherActivityDeps): VoucherActivities {
  /** One message on one channel, at most once (activities/message-delivery.ts). */
  async function deliver(channel: Channel, { voucherId, kind, dedupeKey }: VoucherMessageRequest): Promise<DeliveryOutcome> {
    const ctx = await voucherMessageContext(knex, voucherId);
    if (!ctx) throw ApplicationFailure.nonRetryable(`voucher ${voucherId} not found`, VoucherActivityErrors.notFound);
    return deliverOnce(
      channel,
      { mailer, sms },
      {
        label: `voucher ${voucherId} (${dedupeKey})`,
        failureType: VoucherActivityErrors.deliveryFailed,
        meta: { voucherId, kind },
        claim: () => claimVoucherNotification(knex, { tenantId: ctx.voucher.tenantId, voucherId, channel, kind, dedupeKey }),
        compose: async () => ({
          contact: { phone: ctx.phone, email: ctx.email, smsCountry: ctx.region },
          message: renderVoucherMessage(
            kind,
            {
              salonName: ctx.tenantName,
              customerName: ctx.customerName,
              code: ctx.voucher.code,
              rewardType: ctx.voucher.rewardType,
              rewardValue: ctx.voucher.rewardValue,
              expiresAt: ctx.voucher.expiresAt ? new Date(ctx.voucher.expiresAt) : null,
              timezone: ctx.timezone,
              currency: ctx.currency,
            },
            ctx.language,
          ),
        }),
        markSent: (id, sent) => markVoucherNotificationSent(knex, id, sent),
      },
    );
  }

  return {
    readVoucher: async ({ voucherId, minVersion }) => committedAt(voucherContract, voucherId, minVersion, await voucherSnapshot(knex, voucherId)),

    expireVoucher({ voucherId, at }) {
      return expireVoucherIfDue(knex, voucherId, new Date(at));
    },

    sendVoucherSms: (request) => deliver('SMS', request),
    sendVoucherEmail: (request) => deliver('EMAIL', request),
  };
}
