/**
 * Half-open UTC intervals [start, end) in epoch milliseconds, and set operations over sorted,
 * disjoint interval lists. Pure; every function returns new arrays and never mutates its input.
 *
 * Overlap (docs/rules/availability.md#overlap): `start < otherEnd && end > otherStart`. Touching
 * intervals (one ends exactly when the next starts) do NOT overlap.
 */
export interface Interval {
  start: number;
  end: number;
}

/** `a` and `b` share at least one instant. Touching intervals are not overlapping. */
export function overlaps(a: Interval, b: Interval): boolean {
  return a.start < b.end && a.end > b.start;
}

/** `inner` lies completely within `outer`. */
export function contains(outer: Interval, inner: Interval): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** Sort, drop empty intervals, and merge overlapping OR touching ones into a normalized list. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) {
      if (i.end > last.end) last.end = i.end;
    } else {
      out.push({ start: i.start, end: i.end });
    }
  }
  return out;
}

/** Intersection of two interval sets (inputs need not be normalized). Two-pointer sweep. */
export function intersectIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const x = mergeIntervals(a);
  const y = mergeIntervals(b);
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const start = Math.max(x[i].start, y[j].start);
    const end = Math.min(x[i].end, y[j].end);
    if (start < end) out.push({ start, end });
    if (x[i].end < y[j].end) i++;
    else j++;
  }
  return out;
}

/** `base` minus every interval in `remove` (inputs need not be normalized). */
export function subtractIntervals(base: readonly Interval[], remove: readonly Interval[]): Interval[] {
  const x = mergeIntervals(base);
  const y = mergeIntervals(remove);
  const out: Interval[] = [];
  let j = 0;
  for (const b of x) {
    let cursor = b.start;
    while (j < y.length && y[j].end <= cursor) j++;
    let k = j;
    while (k < y.length && y[k].start < b.end) {
      if (y[k].start > cursor) out.push({ start: cursor, end: y[k].start });
      cursor = Math.max(cursor, y[k].end);
      if (cursor >= b.end) break;
      k++;
    }
    if (cursor < b.end) out.push({ start: cursor, end: b.end });
  }
  return out;
}

/**
 * True when [start, end) fits entirely inside one interval of a NORMALIZED list (sorted, disjoint,
 * as returned by the functions above). Binary search: O(log n).
 */
export function fitsWithin(normalized: readonly Interval[], start: number, end: number): boolean {
  let lo = 0;
  let hi = normalized.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const iv = normalized[mid];
    if (iv.end < end) lo = mid + 1;
    else if (iv.start > start) hi = mid - 1;
    else return true; // iv.start <= start && end <= iv.end
  }
  return false;
}
