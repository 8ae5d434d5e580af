/**
 * One refund paid out at a provider exactly once, however often the activity that asks for it runs
 * (Temporal runs activities at least once; a call may move money and then lose its answer). A
 * provider that takes idempotency keys is asked again with the same key. One that takes none (ePay)
 * is first asked what it has refunded of the transaction so far: what it refunded beyond
 * `paidOutBefore` (the refunds the platform has recorded as paid out) was paid by an earlier attempt
 * of this refund, and only the rest is refunded. The caller holds a lock that keeps two payouts of
 * the same transaction from running at once (payment-workflow.service.ts).
 */
import type { PaymentProvider, ProviderCredentials, ProviderMoneyRequest } from './payment-provider';

export interface RefundPayout {
  /** the provider's refund id, or a reference to the earlier attempt that paid it */
  refundId: string;
  /** what this call refunded; 0 when an earlier attempt had already paid all of it */
  paidNow: number;
}

export async function payOutRefundOnce(
  provider: PaymentProvider,
  credentials: ProviderCredentials,
  request: ProviderMoneyRequest,
  paidOutBefore: number,
): Promise<RefundPayout> {
  if (provider.takesIdempotencyKeys) {
    const { refundId } = await provider.refund(credentials, request);
    return { refundId, paidNow: request.amount };
  }
  const refundedSoFar = await provider.refundedAmount(credentials, request);
  const alreadyPaid = Math.min(request.amount, Math.max(0, refundedSoFar - paidOutBefore));
  if (alreadyPaid === request.amount) return { refundId: `${request.transactionId ?? request.sessionId}:${request.idempotencyKey}`, paidNow: 0 };
  const { refundId } = await provider.refund(credentials, { ...request, amount: request.amount - alreadyPaid });
  return { refundId, paidNow: request.amount - alreadyPaid };
}
