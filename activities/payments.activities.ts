// Side effects of the payment workflow (docs/rules/payments.md). Each one re-reads committed state and is
// idempotent (row locks, compare-and-set, provider idempotency keys). Provider failures cross the
// Temporal boundary typed: TRANSIENT ones are retried, PERMANENT ones are not.
import type { Db } from '../db/db-handle';
import type { Clock } from '../domain/time/clock';
import { ApplicationFailure } from '@temporalio/activity';
import type { EntitySignaller } from '../domain/workflow-signals/entity-signaller';
import { smsRecipient } from '../domain/phone/phone.rules';
import type { SmsSender } from '../domain/notifications/sms-sender';
import type { Mailer } from '../domain/notifications/mailer';
import type { CredentialKeyring } from '../domain/crypto/credential-cipher';
import { ProviderError, type PaymentProviders } from '../domain/payments/payment-provider';
import type { PaymentDeps } from '../domain/payments/payment-change';
import type { BookingHooks } from '../domain/booking/booking-hooks';
import * as flows from '../domain/payments/payment-workflow.service';
import { paymentContract } from '../domain/payments/payment-events.rules';
import { PaymentActivityErrors, type PaymentActivities } from './payments.types';
import { committedAt } from './read-committed';

export interface PaymentActivityDeps {
  knex: Db;
  sms: SmsSender;
  mailer: Mailer;
  /** unset: the system clock */
  now?: Clock;
  /** what payment activities need beyond the database; absent in workers that run no payments */
  payments?: { signaller: EntitySignaller; providers: PaymentProviders; keyring: CredentialKeyring; secret: string; bookingHooks: BookingHooks };
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

  return {
    readPayment: async ({ paymentId, minVersion }) => committedAt(paymentContract, paymentId, minVersion, await flows.paymentSnapshot(knex, paymentId)),
    openPaymentSession: ({ paymentId }) => run(() => flows.openSession(deps(), paymentId)),
    confirmBookingForPayment: ({ paymentId }) => run(() => flows.confirmBookingForPayment(deps(), paymentId)),
    followDepositStatus: ({ paymentId }) => run(() => flows.followDepositStatus(deps(), paymentId)),
    settlePaymentFailure: ({ paymentId }) => run(() => flows.settleFailure(deps(), paymentId)),
    capturePayment: ({ paymentId }) => run(() => flows.capturePayment(deps(), paymentId)),
    voidPayment: ({ paymentId }) => run(() => flows.voidPayment(deps(), paymentId)),
    processRefunds: ({ paymentId }) => run(() => flows.processRefunds(deps(), paymentId)),
    expirePayment: ({ paymentId }) => run(() => flows.expirePayment(deps(), paymentId)),
    closeRetryWindow: ({ paymentId }) => run(() => flows.closeRetryWindow(deps(), paymentId)),
    releaseExpiredSession: ({ paymentId }) => run(() => flows.releaseExpiredSession(deps(), paymentId)),
    sendRefundSms: ({ paymentId }) => flows.sendRefundMessages(deps(), paymentId, (to, text, meta) => sms.send({ to: smsRecipient(to), text, meta })),
    releaseLatePayment: ({ paymentId }) => run(() => flows.releaseLatePayment(deps(), paymentId)),
    sendLatePaymentMessages: ({ paymentId }) =>
      flows.sendLatePaymentMessages(deps(), paymentId, {
        sms: (to, text, meta) => sms.send({ to: smsRecipient(to), text, meta }),
        email: (to, subject, text, meta) => mailer.send({ to, subject, text, meta }),
      }),
  };
}
