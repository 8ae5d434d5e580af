// One schedule's state: what the client gave (spec compiled, action, policies, state), the
// counters and recent actions Describe reports, the workflows it started that are still running,
// starts waiting for them (the overlap buffer) and how far its nominal times have been processed.
// Plain data, so it can be stored as JSON.
import type { Memo, Schedule, ScheduleActionResult, SearchAttributes } from '../../messages';

export interface PendingStart {
  nominal: number;
  actual: number;
  overlap: number;
  /** Triggered or backfilled: does not use up remaining actions. */
  manual: boolean;
}

export interface ScheduleState {
  namespace: string;
  scheduleId: string;
  schedule: Schedule;
  memo?: Memo;
  searchAttributes?: SearchAttributes;
  createTime: number;
  updateTime?: number;
  actionCount: number;
  missedCatchupWindow: number;
  overlapSkipped: number;
  bufferDropped: number;
  recentActions: ScheduleActionResult[];
  /** Workflow id and first run id of each started workflow not known to be closed. */
  running: { workflowId: string; runId: string }[];
  buffer: PendingStart[];
  /** Nominal times up to here have been acted on (or skipped). */
  processedUntil: number;
  conflictToken: number;
}

export const RECENT_ACTIONS = 10;
export const MAX_BUFFER = 1000;
/** The real server's default catch-up window (one year). */
export const DEFAULT_CATCHUP_MS = 365 * 24 * 3600 * 1000;
