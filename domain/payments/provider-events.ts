/**
 * What a provider told about a payment, applied (docs/rules/payments.md#provider-webhooks): a
 * verified webhook, or what a poll of the provider found when a webhook was late. The event claims
 * its inbox row by the provider's event id (a redelivery is acknowledged and changes nothing), then
 * moves the payment only where the status table allows it (a repeated outcome changes nothing), in
 * the caller's transaction, with the signal before commit. An authorization or capture of a payment
 * that already EXPIRED here is recorded as a late confirmation, which the workflow gives back.
 */
import type { Transaction } from '../../db/db-handle';
import { nowOf } from '../time/clock';
import { failureOutcome, holdExpiry, retryHeldUntil } from './payment.rules';
import { changePayment, type PaymentActor, type PaymentDeps } from './payment-change';
import type { PaymentProvider, ProviderWebhookEvent } from './payment-provider';
import * as repo from './payment.repository';

export type ProviderEventOutcome = 'APPLIED' | 'DUPLICATE' | 'IGNORED' | 'UNKNOWN_PAYMENT';

/** A confirmation that came after the payment expired here: the provider holds money the workflow releases. */
export interface LateConfirmation {
  provider: string;
  outcome: 'AUTHORIZED' | 'CAPTURED';
}

export async function applyProviderEvent(
  deps: PaymentDeps,
  trx: Transaction,
  provider: PaymentProvider,
  tenantId: string,
  verified: ProviderWebhookEvent,
): Promise<{ outcome: ProviderEventOutcome; late?: LateConfirmation }> {
  const payment = await repo.lockPaymentOfTenant(trx, tenantId, verified.paymentId);
  const claimed = await repo.claimWebhook(trx, {
    provider: provider.name,
    providerEventId: verified.providerEventId,
    tenantId,
    paymentId: payment?.id ?? null,
    eventType: verified.outcome,
    payload: { ...verified },
    outcome: payment ? 'RECEIVED' : 'UNKNOWN_PAYMENT',
  });
  if (!claimed) return { outcome: 'DUPLICATE' };
  if (!payment) return { outcome: 'UNKNOWN_PAYMENT' };
  const actor: PaymentActor = { role: 'PROVIDER' };
  const data = { providerEventId: verified.providerEventId };
  const now = nowOf(deps);
  let outcome = verified.outcome;
  let applied = false;
  let late: LateConfirmation | undefined;
  // a provider that captures at authorization (when asked to): an automatic-capture payment is captured
  if (outcome === 'AUTHORIZED' && verified.capturedIfAuto && payment.captureMode === 'AUTO') outcome = 'CAPTURED';
  if (outcome === 'AUTHORIZED' && payment.status === 'INITIATED') {
    // a provider that always reserves (Vipps): an automatic-capture payment is captured by the workflow at once
    const captureNow = provider.reservesBeforeCapture === true && payment.captureMode === 'AUTO';
    await changePayment(
      deps.signaller,
      trx,
      payment,
      {
        status: 'AUTHORIZED',
        authorizedAt: now,
        expiresAt: holdExpiry(now),
        providerTransactionId: verified.transactionId ?? null,
        ...(captureNow ? { captureRequestedAt: now } : {}),
      },
      { type: 'PaymentAuthorized', actor, amount: payment.amount, data: captureNow ? { ...data, captureRequested: true } : data },
    );
    applied = true;
  } else if (outcome === 'CAPTURED' && (payment.status === 'INITIATED' || payment.status === 'AUTHORIZED')) {
    const captured = Math.min(verified.amount ?? payment.amount, payment.amount);
    await changePayment(
      deps.signaller,
      trx,
      payment,
      {
        status: 'CAPTURED',
        capturedAmount: captured,
        capturedAt: now,
        authorizedAt: payment.authorizedAt ?? now,
        providerTransactionId: verified.transactionId ?? payment.providerTransactionId,
      },
      { type: 'PaymentCaptured', actor, amount: captured, data },
    );
    applied = true;
  } else if ((outcome === 'FAILED' || outcome === 'VOIDED') && payment.status === 'INITIATED') {
    // a reservation let go before it was ever made is a failed attempt (Vipps TERMINATED of a CREATED payment)
    const kind = outcome === 'VOIDED' ? 'PERMANENT' : (verified.failureKind ?? 'PERMANENT');
    const reason = outcome === 'VOIDED' ? 'TERMINATED' : (verified.failureReason ?? (kind === 'TRANSIENT' ? 'PROVIDER_UNAVAILABLE' : 'DECLINED'));
    const { failedCount } = failureOutcome(payment.failedCount, kind);
    await changePayment(
      deps.signaller,
      trx,
      payment,
      {
        status: 'FAILED',
        failureKind: kind,
        failureReason: reason.slice(0, 60),
        failedCount,
        // the booking keeps its time for a retry until then (docs/rules/payments.md#failures-and-retry)
        expiresAt: retryHeldUntil(now),
      },
      { type: 'PaymentFailed', actor, data: { ...data, kind } },
    );
    applied = true;
  } else if (outcome === 'VOIDED' && payment.status === 'AUTHORIZED') {
    // the provider let the reservation go (the merchant cancelled it there)
    await changePayment(deps.signaller, trx, payment, { status: 'VOIDED' }, { type: 'PaymentVoided', actor, data });
    applied = true;
  } else if ((outcome === 'AUTHORIZED' || outcome === 'CAPTURED') && payment.status === 'EXPIRED' && !payment.lateOutcome) {
    const amount = verified.amount !== undefined && verified.amount > 0 ? Math.min(verified.amount, payment.amount) : payment.amount;
    await changePayment(
      deps.signaller,
      trx,
      payment,
      { lateOutcome: outcome, lateAmount: amount, providerTransactionId: payment.providerTransactionId ?? verified.transactionId ?? null },
      { type: 'PaymentConfirmedLate', actor, amount, data: { ...data, outcome } },
    );
    late = { provider: provider.name, outcome };
    applied = true;
  }
  const recorded = late ? 'LATE_AFTER_EXPIRED' : applied ? 'APPLIED' : outcome === 'NOTED' ? 'NOTED' : `IGNORED_${payment.status}`;
  await repo.recordWebhookOutcome(trx, provider.name, verified.providerEventId, recorded);
  return { outcome: applied ? 'APPLIED' : 'IGNORED', late };
}
