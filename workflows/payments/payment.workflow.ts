// The payment's timeline (docs/rules/payments.md), one workflow per payment (`payment:<id>`):
//
//   initiated  -> the provider's hosted checkout is opened; a provider that recommends it (Vipps) is
//                 asked how the payment stands when its webhook is late, on a durable timer
//   authorized -> the booking is confirmed (PENDING -> CONFIRMED); the 7-day hold starts
//   captured   -> the booking's deposit is PAID (and a PENDING booking confirmed)
//   failed     -> TRANSIENT: RETRY_PENDING; PERMANENT: counted, and the third cancels the booking;
//                 below the cap the booking keeps its time until expiresAt, then, not retried, is cancelled
//   capture / void asked for (arrival, no-show, late cancellation, the owner) -> done at the provider
//   refunds reserved (cancellation, the owner) -> paid out at the provider
//   expiresAt passed while initiated or authorized -> best-effort void, EXPIRED, booking cancelled
//   confirmed by the provider after it expired -> voided or refunded there, the customer told
//   a refund paid out -> the customer told by SMS; the messages go out on their own channels
//   (workflows/shared/message-channels.ts) and the timeline ends once they are out
//
// The api and the activities signal every committed change `{type, entityVersion}`; the entity
// inbox (workflows/shared/entity-inbox.ts) turns them into committed state. Every provider call is
// an activity with the payment's idempotency keys, so a retried call never moves money twice. The
// workflow ends when nothing is left to wait for; a later change (a refund) starts it again.
import { log, patched, proxyActivities } from '@temporalio/workflow';
import type { PaymentActivities, PaymentMessageRequest } from '../../activities/payments.types';
import { PaymentActivityErrors } from '../../activities/payments.types';
import { paymentContract, type PaymentSnapshot, type PaymentWorkflowArgs } from '../../domain/payments/payment-events.rules';
import { holdsForRetry, isCapturedStatus, isOpenStatus, pollDelayMs } from '../../domain/payments/payment.rules';
import { entityInbox, entitySignal, proxyReadActivities } from '../shared/entity-inbox';
import { messageChannels, proxyDeliveryActivities } from '../shared/message-channels';

export type { PaymentWorkflowArgs } from '../../domain/payments/payment-events.rules';

export const paymentEventSignal = entitySignal(paymentContract);

/** Runs from this version on wait out a failed deposit's retry window (patched()). */
const RETRY_WINDOW = 'payment-retry-window';
/** Runs from this version on send their messages on the message channels (patched()); runs before it keep their two activities. */
const MESSAGE_CHANNELS = 'payment-message-channels';

const { readPayment } = proxyReadActivities<PaymentActivities>([PaymentActivityErrors.notFound]);
const { sendPaymentSms, sendPaymentEmail } = proxyDeliveryActivities<PaymentActivities>([PaymentActivityErrors.notFound]);

// Provider calls and booking changes: a provider that is down is retried for about an hour;
// a refusal is not retried.
const effects = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '5 minutes',
    maximumAttempts: 20,
    nonRetryableErrorTypes: [PaymentActivityErrors.providerPermanent, PaymentActivityErrors.notConfigured],
  },
});

export async function paymentWorkflow({ paymentId }: PaymentWorkflowArgs): Promise<void> {
  const payment = entityInbox(paymentContract, paymentId, {
    readCommitted: (minVersion) => readPayment({ paymentId, minVersion }),
  });
  if (!(await payment.first())) return;
  const channels = messageChannels<PaymentMessageRequest>('payment', { SMS: sendPaymentSms, EMAIL: sendPaymentEmail });
  let onChannels: boolean | undefined;
  const messagesOnChannels = () => (onChannels ??= patched(MESSAGE_CHANNELS));

  let bookingConfirmed = false;
  let failureSettled = false;
  let followedStatus: string | null = null;
  let refundsDoneAt = -1;
  let sessionReleased = false;
  let lateReleased = false;
  let retryWindowClosed = false;
  let polls = 0;
  let nextPollAt: number | null = null;

  for (;;) {
    const seen = payment.current!.version;
    await act(payment.current!);
    await payment.catchUp();
    const now = payment.current!;
    if (now.version !== seen) continue; // it moved while we acted: act on the new state
    if (!waitsForMore(now)) {
      // its last messages may still be going out: a change meanwhile is acted on, then the timeline ends
      if (messagesOnChannels() && (await payment.nextChange(() => channels.idle()))) continue;
      return;
    }
    const moved = await payment.waitUntil((p) => p.version > seen, {
      deadline: deadlineOf,
      summary: (p) =>
        pollsProvider(p) && nextPollAt !== null
          ? `the provider's answer on the ${p.status} payment, or its poll`
          : waitsForRetry(p)
            ? `end of the deposit's retry window at ${p.expiresAt}`
            : `expiry of the ${p.status} payment at ${p.expiresAt}`,
    });
    if (!moved && pollDue(payment.current!)) {
      // the provider's webhook is late: ask it, and apply what it says as the webhook would have
      polls += 1;
      nextPollAt = null;
      await attempt('pollPayment', () => effects.pollPayment({ paymentId }));
    } else if (!moved && waitsForRetry(payment.current!)) {
      // a failed deposit's retry window ended: its booking, still waiting and not retried, is cancelled
      retryWindowClosed = true;
      await attempt('closeRetryWindow', () => effects.closeRetryWindow({ paymentId }));
    } else if (!moved) {
      // expiresAt came first: the activity records EXPIRED (and signals it), or finds it moved on
      await attempt('expirePayment', () => effects.expirePayment({ paymentId }));
      await payment.waitUntil((p) => p.version > seen);
    }
  }

  /** What the committed state asks for now; each step is idempotent and remembered for this run. */
  async function act(p: PaymentSnapshot): Promise<void> {
    if (p.status === 'INITIATED' && !p.hasSession) {
      await attempt('openPaymentSession', () => effects.openPaymentSession({ paymentId }));
      return;
    }
    if (p.intent === 'DEPOSIT' && !bookingConfirmed && (p.status === 'AUTHORIZED' || isCapturedStatus(p.status))) {
      bookingConfirmed = true;
      await attempt('confirmBookingForPayment', () => effects.confirmBookingForPayment({ paymentId }));
    }
    if (p.status === 'FAILED' && !failureSettled) {
      failureSettled = true;
      await attempt('settlePaymentFailure', () => effects.settlePaymentFailure({ paymentId }));
    } else if (p.intent === 'DEPOSIT' && p.status !== 'INITIATED' && p.status !== 'FAILED' && followedStatus !== p.status) {
      followedStatus = p.status;
      await attempt('followDepositStatus', () => effects.followDepositStatus({ paymentId }));
    }
    if (p.status === 'AUTHORIZED' && p.captureRequested) {
      await attempt('capturePayment', () => effects.capturePayment({ paymentId }));
    } else if (p.status === 'AUTHORIZED' && p.voidRequested) {
      await attempt('voidPayment', () => effects.voidPayment({ paymentId }));
    }
    if (p.lateOutcome && !lateReleased) {
      // the provider took the money after the payment expired here: give it back, and say so
      lateReleased = true;
      await attempt('releaseLatePayment', () => effects.releaseLatePayment({ paymentId }));
      if (messagesOnChannels()) channels.send({ paymentId, kind: 'LATE_PAYMENT', dedupeKey: `LATE_PAYMENT:${paymentId}` });
      else await attempt('sendLatePaymentMessages', () => effects.sendLatePaymentMessages({ paymentId }));
    } else if (p.status === 'EXPIRED' && p.hasSession && !sessionReleased && !p.lateOutcome) {
      // expired here while the checkout may still be open (a cancelled booking): close it there too
      sessionReleased = true;
      await attempt('releaseExpiredSession', () => effects.releaseExpiredSession({ paymentId }));
    }
    if (p.pendingRefunds > 0 && refundsDoneAt !== p.version) {
      refundsDoneAt = p.version;
      await attempt('processRefunds', () => effects.processRefunds({ paymentId }));
      if (messagesOnChannels()) channels.send({ paymentId, kind: 'REFUND', dedupeKey: `REFUNDS:${p.version}` });
      else await attempt('sendRefundSms', () => effects.sendRefundSms({ paymentId }));
    }
  }

  /** Open payments wait for the customer, the provider or their expiry; refunds wait to be paid out; a failed deposit for its retry. */
  function waitsForMore(p: PaymentSnapshot): boolean {
    if (isOpenStatus(p.status) || waitsForRetry(p)) return true;
    return p.pendingRefunds > 0 && refundsDoneAt !== p.version;
  }

  /** A failed deposit below the cap holds its booking's time until expiresAt (runs started before this version do not wait). */
  function waitsForRetry(p: PaymentSnapshot): boolean {
    return !retryWindowClosed && p.intent === 'DEPOSIT' && holdsForRetry(p) && patched(RETRY_WINDOW);
  }

  /** An open checkout at a provider that is polled (p.polled: Vipps) is asked about on a timer: sooner at first, then less often. */
  function pollsProvider(p: PaymentSnapshot): boolean {
    return p.status === 'INITIATED' && p.hasSession && p.polled === true;
  }

  /** The poll's time came before the payment's own deadline. */
  function pollDue(p: PaymentSnapshot): boolean {
    const expiry = p.expiresAt ? Date.parse(p.expiresAt) : Infinity;
    return pollsProvider(p) && nextPollAt !== null && Date.now() >= nextPollAt && Date.now() < expiry;
  }

  function deadlineOf(p: PaymentSnapshot): number | null {
    const expiry = (isOpenStatus(p.status) || waitsForRetry(p)) && p.expiresAt ? Date.parse(p.expiresAt) : null;
    if (!pollsProvider(p)) return expiry;
    nextPollAt ??= Date.now() + pollDelayMs(polls);
    return expiry === null ? nextPollAt : Math.min(expiry, nextPollAt);
  }
}

/** A side effect that ran out of retries (or was refused) is an alert, not a failed timeline. */
async function attempt(name: string, effect: () => Promise<unknown>): Promise<void> {
  try {
    await effect();
  } catch (err) {
    log.error('ALERT: payment side effect given up', { activity: name, error: String(err) });
  }
}
