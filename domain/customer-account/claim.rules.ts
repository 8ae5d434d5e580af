// The claim window (docs/rules/customers.md#claiming-a-guest-booking): a signed-in customer may claim a guest booking within 60 minutes of
// its creation (60 minutes after creation is still inside; one millisecond later is not).

export const CLAIM_WINDOW_MINUTES = 60;

export function isWithinClaimWindow(createdAt: Date, now: Date): boolean {
  return now.getTime() - createdAt.getTime() <= CLAIM_WINDOW_MINUTES * 60_000;
}
