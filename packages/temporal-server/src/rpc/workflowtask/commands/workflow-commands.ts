// Commands that only touch the run itself: timers, markers, search attributes, memo and the
// closing commands. Each writes its event in command order.
import type { ExternalEvents } from '../../../history/external-events';
import type { CommandAttributes, Payload } from '../../../messages';
import { durationMs, payloadToJson } from '../../../proto';
import type { Run } from '../../../state/run';
import type { SearchAttributeTypes } from '../../../state/search-attribute-types';
import type { RunCloser } from '../../lifecycle/close-run';
import type { RunFailure } from '../../lifecycle/fail-run';

export interface WorkflowCommandDeps {
  clock: { now(): number };
  timers: Pick<ExternalEvents, 'armUserTimer'>;
  closer: Pick<RunCloser, 'close'>;
  failures: Pick<RunFailure, 'fail'>;
  searchAttributes: Pick<SearchAttributeTypes, 'typed'>;
}

/** A payload that clears the key it is set under (null, or an empty list for keyword lists). */
function clears(p: Payload, emptyListClears: boolean): boolean {
  const decoded = payloadToJson(p);
  return decoded === null || (emptyListClears && Array.isArray(decoded) && decoded.length === 0);
}

export class WorkflowCommands {
  constructor(private readonly deps: WorkflowCommandDeps) {}

  startTimer(run: Run, a: CommandAttributes<'START_TIMER'>, wtc: number): void {
    const now = this.deps.clock.now();
    const timerId = a.timerId ?? '';
    const ev = run.append('TIMER_STARTED', { timerId, startToFireTimeout: a.startToFireTimeout, workflowTaskCompletedEventId: wtc }, now);
    this.deps.timers.armUserTimer(run, timerId, ev.eventId, now + durationMs(a.startToFireTimeout));
  }

  cancelTimer(run: Run, timerId: string, wtc: number, identity: string | undefined): void {
    let startedEventId: number;
    const t = run.timers.get(timerId);
    if (t) {
      t.handle.cancel();
      run.timers.delete(timerId);
      startedEventId = t.startedEventId;
    } else {
      // The timer fired while this task ran: drop the buffered TimerFired (packages/temporal-server/PROTOCOL.md#timers).
      const i = run.buffered.findIndex((b) => b.timerId === timerId);
      startedEventId = run.buffered[i].timerStartedEventId!;
      run.buffered.splice(i, 1);
    }
    run.append('TIMER_CANCELED', { timerId, startedEventId, workflowTaskCompletedEventId: wtc, identity }, this.deps.clock.now());
  }

  complete(run: Run, a: CommandAttributes<'COMPLETE_WORKFLOW_EXECUTION'> | undefined, wtc: number): void {
    run.append('WORKFLOW_EXECUTION_COMPLETED', { result: a?.result, workflowTaskCompletedEventId: wtc }, this.deps.clock.now());
    this.deps.closer.close(run, 'COMPLETED');
  }

  fail(run: Run, a: CommandAttributes<'FAIL_WORKFLOW_EXECUTION'> | undefined, wtc: number): void {
    this.deps.failures.fail(run, a?.failure, wtc);
  }

  cancel(run: Run, a: CommandAttributes<'CANCEL_WORKFLOW_EXECUTION'> | undefined, wtc: number): void {
    run.append('WORKFLOW_EXECUTION_CANCELED', { details: a?.details, workflowTaskCompletedEventId: wtc }, this.deps.clock.now());
    this.deps.closer.close(run, 'CANCELED');
  }

  recordMarker(run: Run, a: CommandAttributes<'RECORD_MARKER'> = {}, wtc: number): void {
    run.append(
      'MARKER_RECORDED',
      { markerName: a.markerName, details: a.details, header: a.header, failure: a.failure, workflowTaskCompletedEventId: wtc },
      this.deps.clock.now(),
    );
  }

  upsertSearchAttributes(run: Run, a: CommandAttributes<'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES'> | undefined, wtc: number): void {
    const sa = this.deps.searchAttributes.typed(a?.searchAttributes) ?? {};
    run.append('UPSERT_WORKFLOW_SEARCH_ATTRIBUTES', { searchAttributes: sa, workflowTaskCompletedEventId: wtc }, this.deps.clock.now());
    for (const [k, v] of Object.entries(sa.indexedFields ?? {})) {
      if (clears(v, true)) delete run.searchAttributes[k];
      else run.searchAttributes[k] = v;
    }
  }

  modifyProperties(run: Run, a: CommandAttributes<'MODIFY_WORKFLOW_PROPERTIES'> | undefined, wtc: number): void {
    const memo = a?.upsertedMemo ?? {};
    run.append('WORKFLOW_PROPERTIES_MODIFIED', { upsertedMemo: memo, workflowTaskCompletedEventId: wtc }, this.deps.clock.now());
    for (const [k, v] of Object.entries(memo.fields ?? {})) {
      if (clears(v, false)) delete run.memo[k];
      else run.memo[k] = v;
    }
  }
}
