// The deposit a booking will ask for, shown before the customer books. The same rule as the
// platform's (percentage rounded half up to a whole minor unit, a fixed deposit never above the
// payable amount); test/unit/web/deposit.test.ts checks both agree. Pure.
/** The deposit of a visit starting at `start` is requested later, not paid when booking (the platform's depositTiming decides; the page only compares). */
export function depositAsksLater(deposit: { laterAfterMs?: number } | null, start: string | null, now: Date): boolean {
  return !!deposit?.laterAfterMs && !!start && Date.parse(start) - now.getTime() > deposit.laterAfterMs;
}

export function depositFor(payable: number, deposit: { type: 'percentage' | 'fixed'; value: number }): number {
  const amount = Math.max(0, payable);
  if (deposit.type === 'fixed') return Math.min(deposit.value, amount);
  return Math.floor((amount * deposit.value + 50) / 100);
}
