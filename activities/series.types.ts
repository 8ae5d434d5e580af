// What the series and rebooking-nudge workflows may ask of the outside world (types only for the
// workflows); activities/series.activities.ts implements them.
import type { SeriesSnapshot } from '../domain/series/series-events.rules';
import type { RebookingNudgeSnapshot } from '../domain/rebooking/rebooking-events.rules';
import type { SeriesMessageKind } from '../domain/notifications/series-messages.rules';
import type { DeliveryOutcome } from './booking.types';

export interface HandledOccurrence {
  index: number;
  status: 'BOOKED' | 'MOVED' | 'SKIPPED' | 'CANCELLED';
  reason: string | null;
}

export interface SeriesStep {
  handled: HandledOccurrence[];
  /** epoch ms: when the next occurrence enters the booking window; null: nothing left to wait for */
  nextDueAt: number | null;
  done: boolean;
}

/** One series message about one occurrence, sent at most once per (occurrence, recipient, channel, kind). */
export interface SeriesMessageRequest {
  seriesId: string;
  index: number;
  kind: SeriesMessageKind;
}

export interface NudgeMessageRequest {
  nudgeId: string;
  visitBookingId: string;
}

export interface SeriesActivities {
  /** Committed state of the series, once it has reached `minVersion`. */
  readSeries(input: { seriesId: string; minVersion: number }): Promise<SeriesSnapshot>;
  /** Books every occurrence that entered the booking window by `at` (epoch ms, the workflow clock); what happened above `after`. */
  bookDueSeriesOccurrences(input: { seriesId: string; at: number; after: number }): Promise<SeriesStep>;
  /** The series ended because its first booking was cancelled by the salon or the platform: its bookings still to come are cancelled (idempotent). */
  cancelSeriesBookings(input: { seriesId: string }): Promise<void>;
  sendSeriesSms(input: SeriesMessageRequest): Promise<DeliveryOutcome>;
  sendSeriesEmail(input: SeriesMessageRequest): Promise<DeliveryOutcome>;
  /** The salon's owners are told by e-mail (a skipped occurrence). */
  sendSeriesSalonEmail(input: SeriesMessageRequest): Promise<DeliveryOutcome[]>;
}

export interface RebookingNudgeActivities {
  readRebookingNudge(input: { nudgeId: string; minVersion: number }): Promise<RebookingNudgeSnapshot>;
  /** Decides, once, whether the due nudge of the visit goes out (at: epoch ms, the workflow clock). */
  decideRebookingNudge(input: { nudgeId: string; visitBookingId: string; at: number }): Promise<string>;
  sendRebookingNudgeSms(input: NudgeMessageRequest): Promise<DeliveryOutcome>;
  sendRebookingNudgeEmail(input: NudgeMessageRequest): Promise<DeliveryOutcome>;
}

export const SeriesActivityErrors = {
  notFound: 'SERIES_NOT_FOUND',
  deliveryFailed: 'SERIES_MESSAGE_DELIVERY_FAILED',
  nudgeNotFound: 'REBOOKING_NUDGE_NOT_FOUND',
  nudgeDeliveryFailed: 'REBOOKING_NUDGE_DELIVERY_FAILED',
} as const;
