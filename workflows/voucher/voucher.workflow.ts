// The voucher's timeline (docs/rules/loyalty.md#vouchers), one workflow per voucher (`voucher:<id>`):
//
//   issued    -> the customer is told the code (VoucherIssued)
//   reserved  -> nothing to say; restored (the booking was cancelled) -> the customer is told again
//   at expiresAt, while ACTIVE -> EXPIRED (a durable timer instead of the daily sweep; a voucher
//               restored after its expiry expires at once)
//   redeemed, expired, cancelled or forfeited -> the timeline ends (a forfeit sends nothing)
import { defineSignal, log, proxyActivities, sleep } from '@temporalio/workflow';
import type { VoucherActivities, VoucherMessageRequest, VoucherSnapshot } from '../../activities/voucher.types';
import { VoucherActivityErrors } from '../../activities/voucher.types';
import { VOUCHER_EVENT_SIGNAL, isTerminalVoucherStatus, type VoucherEvent, type VoucherWorkflowArgs } from '../../domain/loyalty/loyalty.rules';
import { DELIVERY_RETRY_POLICY } from '../../domain/notifications/delivery-retry.rules';
import type { VoucherMessageKind } from '../../domain/notifications/voucher-messages.rules';
import { entityInbox, type CommittedChange } from '../shared/entity-inbox';

export type { VoucherWorkflowArgs } from '../../domain/loyalty/loyalty.rules';

export const voucherEventSignal = defineSignal<[VoucherEvent]>(VOUCHER_EVENT_SIGNAL);

const { readVoucher, expireVoucher } = proxyActivities<VoucherActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 8, nonRetryableErrorTypes: [VoucherActivityErrors.notFound] },
});

const { sendVoucherSms, sendVoucherEmail } = proxyActivities<VoucherActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { ...DELIVERY_RETRY_POLICY, nonRetryableErrorTypes: [VoucherActivityErrors.notFound] },
});

export async function voucherWorkflow({ voucherId }: VoucherWorkflowArgs): Promise<void> {
  let sms: Promise<void> = Promise.resolve();
  let email: Promise<void> = Promise.resolve();

  const voucher = entityInbox<VoucherEvent, VoucherSnapshot>({
    name: `voucher ${voucherId}`,
    signal: voucherEventSignal,
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
    if (await voucher.waitUntil(isSettled, { deadline: expiryDue })) break;
    const outcome = await expireVoucher({ voucherId, at: Date.now() });
    if (outcome === 'EXPIRED') break;
    if (outcome === 'NOT_DUE') {
      await sleep('1 minute');
      continue;
    }
    // reserved or revoked in the meantime: follow that change before deciding again
    const seen = voucher.current!.version;
    await voucher.waitUntil((v) => v.version > seen);
  }
  await Promise.all([sms, email]);

  /**
   * Counted, not seen: a workflow that lags behind may read RESERVED -> ACTIVE -> RESERVED as one
   * change, so each restore the database recorded is told once (by its number).
   */
  async function tellWhenRestored({ previous, current }: CommittedChange<VoucherEvent, VoucherSnapshot>): Promise<void> {
    for (let n = (previous?.restoredCount ?? 0) + 1; n <= current.restoredCount; n++) notify('RESTORED', `RESTORED:${n}`);
  }

  function notify(kind: VoucherMessageKind, dedupeKey: string): void {
    const message: VoucherMessageRequest = { voucherId, kind, dedupeKey };
    sms = sms.then(() => sendVoucherSms(message)).then(delivered, (err: unknown) => giveUp('SMS', message, err));
    email = email.then(() => sendVoucherEmail(message)).then(delivered, (err: unknown) => giveUp('EMAIL', message, err));
  }
}

function isSettled(v: VoucherSnapshot): boolean {
  return isTerminalVoucherStatus(v.status);
}

/** The expiry timer runs only while the voucher is ACTIVE (a reservation holds it). */
function expiryDue(v: VoucherSnapshot): number | null {
  return v.status === 'ACTIVE' && v.expiresAt ? Date.parse(v.expiresAt) : null;
}

function delivered(): void {}

function giveUp(channel: string, message: VoucherMessageRequest, err: unknown): void {
  log.error('ALERT: voucher message given up after its last delivery attempt', { channel, ...message, error: String(err) });
}
