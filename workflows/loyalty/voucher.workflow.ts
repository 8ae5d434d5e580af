// The voucher's timeline (docs/rules/loyalty.md#vouchers), one workflow per voucher (`voucher:<id>`):
//
//   issued    -> the customer is told the code (VoucherIssued)
//   reserved  -> nothing to say; restored (the booking was cancelled) -> the customer is told again
//   at expiresAt, while ACTIVE -> EXPIRED (a durable timer instead of the daily sweep; a voucher
//               restored after its expiry expires at once)
//   redeemed, expired, cancelled or forfeited -> the timeline ends (a forfeit sends nothing)
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { VoucherActivities, VoucherMessageRequest } from '../../activities/loyalty.types';
import { VoucherActivityErrors } from '../../activities/loyalty.types';
import { isTerminalVoucherStatus } from '../../domain/loyalty/loyalty.rules';
import { voucherContract, type VoucherEvent, type VoucherSnapshot, type VoucherWorkflowArgs } from '../../domain/loyalty/voucher-events.rules';
import type { VoucherMessageKind } from '../../domain/notifications/voucher-messages.rules';
import { entityInbox, entitySignal, proxyReadActivities, readCommittedOptions, type CommittedChange } from '../shared/entity-inbox';
import { messageChannels, proxyDeliveryActivities } from '../shared/message-channels';

export type { VoucherWorkflowArgs } from '../../domain/loyalty/voucher-events.rules';

export const voucherEventSignal = entitySignal(voucherContract);

const { readVoucher } = proxyReadActivities<VoucherActivities>([VoucherActivityErrors.notFound]);
const { expireVoucher } = proxyActivities<VoucherActivities>(readCommittedOptions([VoucherActivityErrors.notFound]));

const { sendVoucherSms, sendVoucherEmail } = proxyDeliveryActivities<VoucherActivities>([VoucherActivityErrors.notFound]);

export async function voucherWorkflow({ voucherId }: VoucherWorkflowArgs): Promise<void> {
  const channels = messageChannels<VoucherMessageRequest>('voucher', { SMS: sendVoucherSms, EMAIL: sendVoucherEmail });

  const voucher = entityInbox(voucherContract, voucherId, {
    readCommitted: (minVersion) => readVoucher({ voucherId, minVersion }),
    onChange: tellWhenRestored,
  });

  // Issued. When the change that started this workflow never committed, nothing happened.
  const issued = await voucher.first();
  if (!issued) return;
  if (!isTerminalVoucherStatus(issued.status)) notify('ISSUED', 'ISSUED');
  for (let n = 1; n <= issued.restoredCount; n++) notify('RESTORED', `RESTORED:${n}`);

  // Used, revoked or forfeited first, or expired by its timer while ACTIVE.
  while (!isTerminalVoucherStatus(voucher.current!.status)) {
    if (await voucher.waitUntil(isSettled, { deadline: expiryDue, summary: (v) => `expiry of the voucher at ${v.expiresAt}` })) break;
    const outcome = await expireVoucher({ voucherId, at: Date.now() });
    if (outcome === 'EXPIRED') break;
    if (outcome === 'NOT_DUE') {
      await sleep('1 minute', { summary: 'expiring the voucher again (not due yet)' });
      continue;
    }
    // reserved or revoked in the meantime: follow that change before deciding again
    const seen = voucher.current!.version;
    await voucher.waitUntil((v) => v.version > seen);
  }
  await channels.drained();

  /**
   * Counted, not seen: a workflow that lags behind may read RESERVED -> ACTIVE -> RESERVED as one
   * change, so each restore the database recorded is told once (by its number).
   */
  async function tellWhenRestored({ previous, current }: CommittedChange<VoucherEvent, VoucherSnapshot>): Promise<void> {
    for (let n = (previous?.restoredCount ?? 0) + 1; n <= current.restoredCount; n++) notify('RESTORED', `RESTORED:${n}`);
  }

  function notify(kind: VoucherMessageKind, dedupeKey: string): void {
    channels.send({ voucherId, kind, dedupeKey });
  }
}

function isSettled(v: VoucherSnapshot): boolean {
  return isTerminalVoucherStatus(v.status);
}

/** The expiry timer runs only while the voucher is ACTIVE (a reservation holds it). */
function expiryDue(v: VoucherSnapshot): number | null {
  return v.status === 'ACTIVE' && v.expiresAt ? Date.parse(v.expiresAt) : null;
}
