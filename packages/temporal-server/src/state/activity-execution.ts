// One standalone activity execution (StartActivityExecution): an activity a client started on its
// own, with no workflow around it. Its attempts are tracked exactly like a workflow activity's
// (`act`); its outcome stays on the execution, where clients read it (PollActivityExecution,
// DescribeActivityExecution) until it is forgotten.
import type { Failure, Payload, Payloads, StartActivityRequest } from '../messages';
import type { ActivityOwner, ActivityState } from './activity-state';

/** ActivityExecutionStatus names (temporal.api.enums.v1), without the prefix. */
export type ActivityExecutionStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELED' | 'TERMINATED' | 'TIMED_OUT';

export interface ActivityOutcome {
  result?: Payloads;
  failure?: Failure;
  retryState?: number;
}

export interface ActivityCancellation {
  requestId?: string;
  reason?: string;
  identity?: string;
}

export class ActivityExecution implements ActivityOwner {
  readonly kind = 'standalone';
  status: ActivityExecutionStatus = 'RUNNING';
  closeTime = 0;
  outcome?: ActivityOutcome;
  cancellation?: ActivityCancellation;
  /** The terminate request's id (the same request again is not an error). */
  terminateRequestId?: string;
  searchAttributes: Record<string, Payload> = {};
  requestIds = new Set<string>();
  /** Bumped on every change: DescribeActivityExecution's long-poll token names the version it saw. */
  version = 0;
  /** Creation order across all executions (the latest one of an activity id is the current one). */
  seq = 0;
  /** Long polls waiting for a change (PollActivityExecution, DescribeActivityExecution). */
  waiters = new Set<() => void>();
  /** Called whenever the state changes (the store writes changed executions). */
  onTouch?: () => void;

  constructor(
    readonly namespace: string,
    readonly activityId: string,
    readonly runId: string,
    /** The start request after validation and defaults (timeouts, retry policy, id policies). */
    readonly request: StartActivityRequest,
    /** When the client started it. */
    readonly scheduleTime: number,
    readonly act: ActivityState,
  ) {}

  get open(): boolean {
    return this.status === 'RUNNING';
  }

  holds(act: ActivityState): boolean {
    return this.open && this.act === act;
  }

  touch(): void {
    this.version++;
    this.onTouch?.();
    if (this.waiters.size) for (const w of [...this.waiters]) w();
  }
}
