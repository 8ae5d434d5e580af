// Side effects of the payment workflow (docs/rules/payments.md). The payment's read and its messages are
// here, as every area's are; the payment's changes are domain/payments/payment-workflow.service.ts's.
// Each one re-reads committed state and is idempotent (row locks, compare-and-set, provider
// idempotency keys, a claimed notification row per message). Provider failures cross the Temporal
// boundary typed: TRANSIENT ones are retried, PERMANENT ones are not.
import type { Db } from '../db/db-handle';
import type { Clock } from '../domain/time/clock';
import { ApplicationFailure } from '@temporalio/activity';
import type { EntitySignaller } from '../domain/workflow-signals/entity-signaller';
import type { SmsSender } from '../domain/notifications/sms-sender';
import type { Mailer } from '../domain/notifications/mailer';
import type { CredentialKeyring } from '../domain/crypto/credential-cipher';
import { ProviderError, type PaymentProviders } from '../domain/payments/payment-provider';
import type { PaymentDeps } from '../domain/payments/payment-change';
import type { BookingHooks } from '../domain/booking/booking-hooks';
import * as flows from '../domain/payments/payment-workflow.service';
import { cancelUnpaidDeposit, requestDeposit } from '../domain/payments/deposit-request.service';
import { paymentById, pendingRefundCount, refundsOfPayment, type PaymentRow } from '../domain/payments/payment.repository';
import { paymentContract, type PaymentSnapshot } from '../domain/payments/payment-events.rules';
import { latePaymentReleasedMessage, refundSmsText } from '../domain/notifications/payment-messages.rules';
import { bookingById } from '../domain/booking/booking-timeline.repository';
import { messagePartiesOf } from '../domain/booking/booking-message.repository';
import { claimBookingNotification, markBookingNotificationSent } from '../domain/booking/booking-notification.repository';
import type { LinkKey } from '../domain/crypto/link-key';
import type { Language } from '../domain/language/language.rules';
import { PaymentActivityErrors, type PaymentActivities, type PaymentMessageRequest } from './payments.types';
import type { DeliveryOutcome } from './booking.types';
import { committedAt } from './read-committed';
import { deliverOnce, type Channel } from './message-delivery';
import { bookingRecipient } from './booking-recipient';

export interface PaymentActivityDeps {
  knex: Db;
  sms: SmsSender;
  mailer: Mailer;
  /** unset: the system clock */
  now?: Clock;
  /** what payment activities need beyond the database; absent in workers that run no payments */
  payments?: { signaller: EntitySignaller; providers: PaymentProviders; keyring: CredentialKeyring; manageLinkKey: LinkKey; bookingHooks: BookingHooks };
}

/** The payment as its workflow reads it. */
async function paymentSnapshot(db: Db, paymentId: string, providers?: PaymentProviders): Promise<PaymentSnapshot | undefined> {
  const p = await paymentById(db, paymentId);
  if (!p) return undefined;
  return {
    paymentId: p.id,
    tenantId: p.tenantId,
    bookingId: p.bookingId,
    status: p.status,
    version: p.version,
    intent: p.intent,
    captureMode: p.captureMode,
    expiresAt: p.expiresAt ? new Date(p.expiresAt).toISOString() : null,
    hasSession: p.providerSessionId !== null,
    captureRequested: p.captureRequestedAt !== null,
    voidRequested: p.voidRequestedAt !== null,
    pendingRefunds: await pendingRefundCount(db, p.id),
    failedCount: p.failedCount,
    failureKind: p.failureKind,
    lateOutcome: p.lateOutcome ?? null,
    lateReleased: p.lateReleasedAt != null,
    polled: p.provider !== null && providers?.get(p.provider)?.pollPayment !== undefined,
  };
}

export function createPaymentActivities({ knex, sms, mailer, now, payments }: PaymentActivityDeps): PaymentActivities {
  function deps(): PaymentDeps {
    if (!payments) throw ApplicationFailure.nonRetryable('this worker has no payment providers configured', PaymentActivityErrors.notConfigured);
    return { knex, now, ...payments };
  }

  /** Runs a side effect with provider errors typed for the retry policy. */
  async function run<T>(effect: () => Promise<T>): Promise<T> {
    try {
      return await effect();
    } catch (err) {
      if (err instanceof ProviderError) {
        if (err.kind === 'TRANSIENT') throw ApplicationFailure.retryable(err.message, PaymentActivityErrors.providerTransient);
        throw ApplicationFailure.nonRetryable(err.message, PaymentActivityErrors.providerPermanent);
      }
      throw err;
    }
  }

  /** The payment's messages on one channel, each at most once (activities/message-delivery.ts), to the booking's customer in its language. */
  async function deliver(channel: Channel, { paymentId, kind }: PaymentMessageRequest): Promise<DeliveryOutcome> {
    const p = await paymentById(knex, paymentId);
    if (!p) throw ApplicationFailure.nonRetryable(`payment ${paymentId} not found`, PaymentActivityErrors.notFound);
    const booking = await bookingById(knex, p.bookingId);
    if (!booking) throw ApplicationFailure.nonRetryable(`booking ${p.bookingId} of payment ${paymentId} not found`, PaymentActivityErrors.notFound);
    const { salon, customer } = await messagePartiesOf(knex, booking);
    const { name, contact } = bookingRecipient(booking, { customer, salon });
    const facts = { customerName: name, salonName: salon.name, currency: p.currency, language: booking.language };
    const once = (dedupeKey: string, message: { subject: string; text: string }) =>
      deliverOnce(
        channel,
        { mailer, sms },
        {
          label: `payment ${paymentId} (${dedupeKey})`,
          failureType: PaymentActivityErrors.deliveryFailed,
          meta: { bookingId: p.bookingId, kind, paymentId },
          claim: () => claimBookingNotification(knex, { bookingId: p.bookingId, channel, dedupeKey }, { tenantId: p.tenantId, kind }),
          compose: async () => ({ contact, message }),
          markSent: (id, sent) => markBookingNotificationSent(knex, id, sent),
        },
      );
    if (kind === 'LATE_PAYMENT') return lateMessage(p, facts, once);
    // a refund is told by SMS, one message per refund paid out (docs/rules/payments.md#refunds)
    if (channel !== 'SMS') return 'NOTHING_TO_SEND';
    const outcomes: DeliveryOutcome[] = [];
    for (const refund of (await refundsOfPayment(knex, paymentId)).filter((r) => r.status === 'SUCCEEDED')) {
      outcomes.push(await once(`REFUND:${refund.id}`, { subject: '', text: refundSmsText({ ...facts, amount: refund.amount }) }));
    }
    return outcomes.includes('SENT') ? 'SENT' : (outcomes[0] ?? 'ALREADY_SENT');
  }

  return {
    readPayment: async ({ paymentId, minVersion }) =>
      committedAt(paymentContract, paymentId, minVersion, await paymentSnapshot(knex, paymentId, payments?.providers)),
    openPaymentSession: ({ paymentId }) => run(() => flows.openSession(deps(), paymentId)),
    confirmBookingForPayment: ({ paymentId }) => run(() => flows.confirmBookingForPayment(deps(), paymentId)),
    followDepositStatus: ({ paymentId }) => run(() => flows.followDepositStatus(deps(), paymentId)),
    settlePaymentFailure: ({ paymentId }) => run(() => flows.settleFailure(deps(), paymentId)),
    capturePayment: ({ paymentId }) => run(() => flows.capturePayment(deps(), paymentId)),
    voidPayment: ({ paymentId }) => run(() => flows.voidPayment(deps(), paymentId)),
    processRefunds: ({ paymentId }) => run(() => flows.processRefunds(deps(), paymentId)),
    pollPayment: ({ paymentId }) => run(() => flows.pollProvider(deps(), paymentId)),
    requestDeposit: ({ bookingId }) => run(() => requestDeposit(deps(), bookingId)),
    cancelUnpaidDeposit: ({ bookingId }) => run(() => cancelUnpaidDeposit(deps(), bookingId)),
    expirePayment: ({ paymentId }) => run(() => flows.expirePayment(deps(), paymentId)),
    closeRetryWindow: ({ paymentId }) => run(() => flows.closeRetryWindow(deps(), paymentId)),
    releaseExpiredSession: ({ paymentId }) => run(() => flows.releaseExpiredSession(deps(), paymentId)),
    releaseLatePayment: ({ paymentId }) => run(() => flows.releaseLatePayment(deps(), paymentId)),
    sendPaymentSms: (request) => deliver('SMS', request),
    sendPaymentEmail: (request) => deliver('EMAIL', request),
    // the same deliveries under the names runs started before the message channels scheduled
    sendRefundSms: ({ paymentId }) => deliver('SMS', { paymentId, kind: 'REFUND', dedupeKey: 'REFUNDS' }),
    sendLatePaymentMessages: async ({ paymentId }) => {
      const request: PaymentMessageRequest = { paymentId, kind: 'LATE_PAYMENT', dedupeKey: `LATE_PAYMENT:${paymentId}` };
      return [await deliver('SMS', request), await deliver('EMAIL', request)];
    },
  };
}

/** A released late payment (docs/rules/payments.md#a-confirmation-after-the-expiry): one message per channel; nothing before its release. */
async function lateMessage(
  p: PaymentRow,
  facts: { customerName: string; salonName: string; currency: string; language: Language },
  once: (dedupeKey: string, message: { subject: string; text: string }) => Promise<DeliveryOutcome>,
): Promise<DeliveryOutcome> {
  if (!p.lateRelease) return 'NOTHING_TO_SEND';
  return once(`LATE_PAYMENT:${p.id}`, latePaymentReleasedMessage({ ...facts, amount: p.lateAmount!, release: p.lateRelease }));
}
