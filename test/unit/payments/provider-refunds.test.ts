// A refund paid out once at a provider, whether or not the provider takes idempotency keys
// (domain/payments/provider-refunds.ts), against an in-memory provider that keeps what it refunded.
import { expect } from 'chai';
import { payOutRefundOnce } from '../../../domain/payments/provider-refunds';
import type { PaymentProvider } from '../../../domain/payments/payment-provider';

function providerThatRefunded(refundedSoFar: number, takesIdempotencyKeys: boolean) {
  const calls: number[] = [];
  const provider = {
    takesIdempotencyKeys,
    refundedAmount: async () => refundedSoFar,
    refund: async (_c: unknown, r: { amount: number }) => {
      calls.push(r.amount);
      refundedSoFar += r.amount;
      return { refundId: `re_${calls.length}` };
    },
  } as unknown as PaymentProvider;
  return { provider, calls };
}

const request = { sessionId: 's1', transactionId: 't1', amount: 5000, currency: 'NOK', idempotencyKey: 'refund:1' };

describe('payOutRefundOnce', () => {
  const cases: { name: string; refundedSoFar: number; paidOutBefore: number; refunded: number[]; paidNow: number }[] = [
    { name: 'nothing refunded yet: the whole amount', refundedSoFar: 0, paidOutBefore: 0, refunded: [5000], paidNow: 5000 },
    { name: 'an earlier attempt paid it (answer lost): nothing', refundedSoFar: 5000, paidOutBefore: 0, refunded: [], paidNow: 0 },
    { name: 'earlier refunds recorded, this one not paid: the whole amount', refundedSoFar: 3000, paidOutBefore: 3000, refunded: [5000], paidNow: 5000 },
    { name: 'earlier refunds recorded, this one paid: nothing', refundedSoFar: 8000, paidOutBefore: 3000, refunded: [], paidNow: 0 },
    { name: 'part of it paid: only the rest', refundedSoFar: 2000, paidOutBefore: 0, refunded: [3000], paidNow: 3000 },
  ];
  for (const c of cases) {
    it(`when the provider takes no idempotency key and ${c.name}`, async () => {
      const { provider, calls } = providerThatRefunded(c.refundedSoFar, false);
      const payout = await payOutRefundOnce(provider, {}, request, c.paidOutBefore);
      expect(calls).to.deep.equal(c.refunded);
      expect(payout.paidNow).to.equal(c.paidNow);
    });
  }

  it('when the provider takes idempotency keys then it is asked again with the same key, without reading what it refunded', async () => {
    const { provider, calls } = providerThatRefunded(5000, true);
    expect(await payOutRefundOnce(provider, {}, request, 0)).to.deep.equal({ refundId: 're_1', paidNow: 5000 });
    expect(calls).to.deep.equal([5000]);
  });
});
