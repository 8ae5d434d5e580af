// A series as the API shows it (docs/rules/series.md): its plan, what happened to each occurrence it
// handled, and its next dates (booked ones still to come, then planned ones not yet booked).
import { toIso } from '../time/iso';
import type { BookingStatus } from '../booking/booking-status.rules';
import { isTerminalStatus } from '../booking/booking-status.rules';
import { SERIES_NEXT_DATES, isInSeries, plannedStartOf, type OccurrenceStatus } from './series.rules';
import type { OccurrenceRow, SeriesRow } from './series.repository';

export interface SeriesOccurrenceDto {
  index: number;
  status: OccurrenceStatus;
  plannedStart: string;
  startTime: string | null;
  bookingId: string | null;
  bookingStatus: BookingStatus | null;
  reason: string | null;
}

export interface SeriesDto {
  id: string;
  tenantId: string;
  customerId: string;
  resourceId: string;
  serviceIds: string[];
  intervalWeeks: number;
  occurrenceCount: number | null;
  untilDate: string | null;
  status: SeriesRow['status'];
  firstBookingId: string;
  createdVia: string;
  occurrences: SeriesOccurrenceDto[];
  /** UTC ISO: the coming occurrences, booked or planned, at most five */
  nextDates: string[];
  createdAt: string;
  endedAt: string | null;
  /** FIRST_BOOKING_CANCELLED when the booking it was made from was cancelled by the salon or the platform; else null */
  endReason: SeriesRow['endReason'];
}

export function seriesDto(row: SeriesRow, occurrences: OccurrenceRow[], bookingStatuses: Map<string, BookingStatus>, timezone: string, now: Date): SeriesDto {
  const sorted = [...occurrences].sort((a, b) => a.occurrenceIndex - b.occurrenceIndex);
  const next: Date[] = [];
  for (const o of sorted) {
    const status = o.bookingId ? bookingStatuses.get(o.bookingId) : undefined;
    if (o.startTime && new Date(o.startTime) > now && status && !isTerminalStatus(status)) next.push(new Date(o.startTime));
  }
  if (row.status === 'ACTIVE') {
    const handled = new Set(sorted.map((o) => o.occurrenceIndex));
    for (let index = 1; next.length < SERIES_NEXT_DATES && index <= 200; index++) {
      if (handled.has(index)) continue;
      const planned = plannedStartOf(row, index, timezone);
      if (!isInSeries(row, index, planned, timezone)) break;
      if (planned > now) next.push(planned);
    }
  }
  return {
    id: row.id,
    tenantId: row.tenantId,
    customerId: row.customerId,
    resourceId: row.resourceId,
    serviceIds: row.serviceIds,
    intervalWeeks: row.intervalWeeks,
    occurrenceCount: row.occurrenceCount,
    untilDate: row.untilDate,
    status: row.status,
    firstBookingId: row.firstBookingId,
    createdVia: row.createdVia,
    occurrences: sorted.map((o) => ({
      index: o.occurrenceIndex,
      status: o.status,
      plannedStart: toIso(o.plannedStart),
      startTime: o.startTime ? toIso(o.startTime) : null,
      bookingId: o.bookingId,
      bookingStatus: o.bookingId ? (bookingStatuses.get(o.bookingId) ?? null) : null,
      reason: o.reason,
    })),
    nextDates: next.slice(0, SERIES_NEXT_DATES).map(toIso),
    createdAt: toIso(row.createdAt),
    endedAt: row.endedAt ? toIso(row.endedAt) : null,
    endReason: row.endReason ?? null,
  };
}
