// Rebooking nudges (docs/rules/series.md#rebooking-nudges): when a visit's nudge is due. Pure.

/** `services.typicalIntervalWeeks` (docs/rules/limits.md). */
export const TYPICAL_INTERVAL_WEEKS = { min: 1, max: 52 } as const;
/** A booking made within this many days after a nudge went out counts as made from it (the metrics). */
export const NUDGE_ATTRIBUTION_DAYS = 14;

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The weeks after which the visit's nudge is due: the shortest typical interval among its services
 * (the first thing due again), or null when none of them has one.
 */
export function nudgeIntervalWeeks(services: readonly { typicalIntervalWeeks: number | null }[]): number | null {
  const weeks = services.map((s) => s.typicalIntervalWeeks).filter((w): w is number => w !== null && w > 0);
  return weeks.length ? Math.min(...weeks) : null;
}

export function nudgeDueAt(visitedAt: Date, weeks: number): Date {
  return new Date(visitedAt.getTime() + weeks * WEEK_MS);
}
