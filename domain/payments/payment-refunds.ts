/**
 * Refund reservation (docs/rules/payments.md#refunds): under the payment's row lock the amount is checked against
 * captured - refunded and reserved at once (refunded_amount grows, status REFUNDED or
 * PARTIALLY_REFUNDED), and a refund row with its own provider idempotency key is written; the
 * payment workflow then calls the provider for each pending refund. Concurrent refunds queue on the
 * lock, so together they never exceed the captured amount (and the table's CHECK backs that up).
 */
import type { Db, Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { checkRefund } from './payment.rules';
import { changePayment, newIdempotencyKey, type PaymentActor } from './payment-change';
import { insertRefund, type PaymentRow, type RefundRow } from './payment.repository';

export async function reserveRefund(
  signaller: EntitySignaller,
  trx: Transaction,
  locked: PaymentRow,
  amount: number,
  reason: string | null,
  actor: PaymentActor,
): Promise<{ payment: PaymentRow; refund: RefundRow }> {
  const check = checkRefund(locked, amount);
  if (!check.ok) {
    if (check.reason === 'NOT_CAPTURED') throw errors.conflict('PAYMENT_NOT_CAPTURED', `A ${locked.status} payment cannot be refunded`);
    if (check.reason === 'AMOUNT_INVALID')
      throw errors.validation('Request validation failed', [{ field: 'amount', message: 'must be a positive integer (minor units)' }]);
    throw errors.unprocessable('PAYMENT_REFUND_EXCEEDS_CAPTURED', `At most ${locked.capturedAmount - locked.refundedAmount} can be refunded`, [
      { field: 'amount', message: `must be at most ${locked.capturedAmount - locked.refundedAmount}` },
    ]);
  }
  const refund = await insertRefund(trx, { paymentId: locked.id, tenantId: locked.tenantId, amount, reason, idempotencyKey: newIdempotencyKey('refund') });
  const payment = await changePayment(
    signaller,
    trx,
    locked,
    { refundedAmount: check.refundedAfter, status: check.statusAfter },
    { type: check.statusAfter === 'REFUNDED' ? 'PaymentRefunded' : 'PaymentPartiallyRefunded', actor, amount, data: { refundId: refund.id, reason } },
  );
  return { payment, refund };
}
