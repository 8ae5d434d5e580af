// Workflows used by the dev-server conformance tests (bundled by the worker from this file).
import {
  proxyActivities,
  sleep,
  defineSignal,
  defineQuery,
  setHandler,
  condition,
  continueAsNew,
  workflowInfo,
  patched,
  upsertSearchAttributes,
  startChild,
  executeChild,
  getExternalWorkflowHandle,
  CancellationScope,
  isCancellation,
  ApplicationFailure,
  upsertMemo,
  ParentClosePolicy,
  uuid4,
  defineUpdate,
  ChildWorkflowFailure,
} from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type * as activities from '../activities';

const acts = proxyActivities<typeof activities>({ startToCloseTimeout: '10s', retry: { initialInterval: '50ms', maximumAttempts: 3 } });

export async function greet(name: string): Promise<string> {
  const greeting = await acts.echo(`hello ${name}`);
  await sleep(50);
  return greeting;
}

export async function returnsInput<T>(x: T): Promise<T> {
  return x;
}

export async function failsWith(message: string): Promise<never> {
  throw ApplicationFailure.nonRetryable(message, 'TestFailure');
}

export async function sleeps(ms: number): Promise<number> {
  const start = Date.now();
  await sleep(ms);
  return Date.now() - start;
}

export async function waitsForever(): Promise<void> {
  await condition(() => false);
}

export const addSignal = defineSignal<[number]>('add');
export const doneSignal = defineSignal('done');
export const totalQuery = defineQuery<number>('total');
export const failingQuery = defineQuery<number>('failing');

/** Sums signals until 'done', answering 'total' queries on the way. */
export async function accumulator(): Promise<number> {
  let total = 0;
  let done = false;
  setHandler(addSignal, (n) => {
    total += n;
  });
  setHandler(doneSignal, () => {
    done = true;
  });
  setHandler(totalQuery, () => total);
  setHandler(failingQuery, () => {
    throw new Error('query handler exploded');
  });
  await condition(() => done);
  return total;
}

/** Completes right after its first signal: exercises the buffered-signal / UnhandledCommand path. */
export async function signalRace(): Promise<number[]> {
  const got: number[] = [];
  setHandler(addSignal, (n) => {
    got.push(n);
  });
  await condition(() => got.length > 0);
  return got;
}

export async function countdown(n: number, seen: number[] = []): Promise<number[]> {
  if (n <= 0) return [...seen, workflowInfo().continuedFromExecutionRunId ? 1 : 0];
  await continueAsNew<typeof countdown>(n - 1, [...seen, n]);
  throw new Error('unreachable');
}

export async function patchedWorkflow(): Promise<string> {
  if (patched('my-patch')) return 'patched';
  return 'old';
}

export async function upserts(): Promise<void> {
  upsertSearchAttributes({ CustomKeywordField: ['after'] });
  upsertMemo({ note: 'updated' });
  await sleep(1);
}

export async function parent(childId: string): Promise<string> {
  const child = await startChild(returnsInput, { workflowId: childId, args: ['from child'] });
  const r = await child.result();
  const second = await executeChild(greet, { workflowId: `${childId}-2`, args: ['child'] });
  return `${r}|${second}`;
}

export async function parentAbandonsOrTerminates(childId: string, policy: 'TERMINATE' | 'ABANDON'): Promise<void> {
  await startChild(waitsForever, {
    workflowId: childId,
    parentClosePolicy: policy === 'TERMINATE' ? ParentClosePolicy.PARENT_CLOSE_POLICY_TERMINATE : ParentClosePolicy.PARENT_CLOSE_POLICY_ABANDON,
  });
}

export async function cancelsChild(childId: string): Promise<string> {
  // The child is started inside the scope, so cancelling the scope cancels the child
  // (the SDK sends RequestCancelExternalWorkflowExecution with child_workflow_only).
  try {
    await CancellationScope.cancellable(async () => {
      const child = await startChild(waitsForever, { workflowId: childId });
      const p = child.result();
      await sleep(10);
      CancellationScope.current().cancel();
      await p;
    });
    return 'not cancelled';
  } catch (e) {
    if (isCancellation(e)) return 'cancelled';
    throw e;
  }
}

export async function signalsExternal(targetId: string): Promise<string> {
  await getExternalWorkflowHandle(targetId).signal(addSignal, 5);
  await getExternalWorkflowHandle(targetId).signal(doneSignal);
  try {
    await getExternalWorkflowHandle(`${targetId}-missing`).signal(doneSignal);
    return 'unexpected';
  } catch (e) {
    return `missing target: ${(e as Error).name}`;
  }
}

export async function cancelsExternal(targetId: string): Promise<void> {
  await getExternalWorkflowHandle(targetId).cancel();
}

/** Handles cancellation of itself by cleaning up through an activity and then reporting cancelled. */
export async function cancellable(): Promise<string> {
  try {
    await sleep(60_000);
    return 'not cancelled';
  } catch (e) {
    if (isCancellation(e)) {
      await CancellationScope.nonCancellable(() => acts.echo('cleanup'));
      throw e;
    }
    throw e;
  }
}

/** Timer raced against a signal: exercises CancelTimer and the timer-fired/canceled race. */
export async function timerRace(ms: number): Promise<string> {
  let done = false;
  setHandler(doneSignal, () => {
    done = true;
  });
  const signalled = await condition(() => done, ms);
  return signalled ? 'signal' : 'timeout';
}

export async function randomId(): Promise<string> {
  return uuid4();
}

/** Runs one activity by name with the given options; used by the activity tests. */
export async function runActivity(name: string, args: unknown[], options: Parameters<typeof proxyActivities>[0]): Promise<unknown> {
  const fns = proxyActivities<Record<string, (...a: unknown[]) => Promise<unknown>>>(options);
  return fns[name](...args);
}

/** Starts a heartbeating activity and cancels it after `ms`. */
export async function cancelActivityAfter(key: string, ms: number): Promise<string> {
  const { waitForCancel } = proxyActivities<typeof activities>({
    startToCloseTimeout: '30s',
    heartbeatTimeout: '2s',
    cancellationType: 'WAIT_CANCELLATION_COMPLETED',
  });
  try {
    await CancellationScope.cancellable(async () => {
      const p = waitForCancel(key);
      await sleep(ms);
      CancellationScope.current().cancel();
      await p;
    });
    return 'completed';
  } catch (e) {
    return isCancellation(e) ? 'cancelled' : `error: ${(e as Error).message}`;
  }
}

/** Sleeps 14 days, then runs an activity: the time-skipping showcase. */
export async function fortnight(): Promise<{ slept: number; activity: string }> {
  const start = Date.now();
  await sleep('14 days');
  const slept = Date.now() - start;
  return { slept, activity: await acts.echo('after two weeks') };
}

/** An activity that takes real time under a 2 s start-to-close timeout, then a long timer. */
export async function slowActivityThenTimer(ms: number): Promise<string> {
  const { sleepMs } = proxyActivities<typeof activities>({ startToCloseTimeout: '2s', retry: { maximumAttempts: 1 } });
  await sleepMs(ms);
  await sleep('3 days');
  return 'done';
}

/** Fails (retryably) until its workflow attempt reaches `n`; used with a workflow retry policy. */
export async function failsUntilAttempt(n: number): Promise<number> {
  const { attempt } = workflowInfo();
  if (attempt < n) throw ApplicationFailure.retryable(`attempt ${attempt} fails`, 'Flaky');
  return attempt;
}

export const setValue = defineUpdate<number, [number]>('setValue');

/** Holds a value that updates set (validator rejects 13, handler fails on negatives). */
export async function updatable(): Promise<number> {
  let value = 0;
  let done = false;
  setHandler(
    setValue,
    async (v) => {
      if (v < 0) throw ApplicationFailure.nonRetryable('negative values are not allowed', 'BadValue');
      await sleep(10);
      value = v;
      return v * 2;
    },
    {
      validator: (v) => {
        if (v === 13) throw new Error('unlucky number');
      },
    },
  );
  setHandler(doneSignal, () => {
    done = true;
  });
  setHandler(totalQuery, () => value);
  await condition(() => done);
  return value;
}

/** What the workflow sees of its own history (size and continue-as-new suggestion come from the server). */
export async function historyInfo(): Promise<{ size: number; length: number; suggested: boolean }> {
  await sleep(1);
  const info = workflowInfo();
  return { size: info.historySize, length: info.historyLength, suggested: info.continueAsNewSuggested };
}

/** What the workflow sees of its typed search attributes; upserts a typed Double on the way. */
export async function typedAttributes(): Promise<{ datetime?: string; isDate: boolean; int?: number; keywords?: string[] }> {
  upsertSearchAttributes([{ key: defineSearchAttributeKey('CustomDoubleField', SearchAttributeType.DOUBLE), value: 2.5 }]);
  await sleep(1);
  const sa = workflowInfo().typedSearchAttributes;
  const datetime = sa.get(defineSearchAttributeKey('CustomDatetimeField', SearchAttributeType.DATETIME));
  return {
    datetime: datetime instanceof Date ? datetime.toISOString() : undefined,
    isDate: datetime instanceof Date,
    int: sa.get(defineSearchAttributeKey('CustomIntField', SearchAttributeType.INT)),
    keywords: sa.get(defineSearchAttributeKey('Tags', SearchAttributeType.KEYWORD_LIST)),
  };
}

/** Runs a child that times out; returns the retry state the parent sees. */
export async function childTimesOut(childId: string): Promise<string> {
  try {
    await executeChild(waitsForever, {
      workflowId: childId,
      workflowExecutionTimeout: '300ms',
      staticSummary: 'child summary',
      staticDetails: 'child details',
    });
    return 'completed';
  } catch (e) {
    if (e instanceof ChildWorkflowFailure) return String(e.retryState);
    throw e;
  }
}

/** A one-day timer and an activity taking `ms` of real time under a 10 s start-to-close, side by side. */
export async function timerAndSlowActivity(ms: number): Promise<string> {
  const { sleepMs } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s', retry: { maximumAttempts: 1 } });
  await Promise.all([sleep('1 day'), sleepMs(ms)]);
  return 'done';
}

/**
 * A one-day timer and an activity on `activityQueue` side by side; with no worker on that queue
 * both stay pending (the web UI test). The other arguments only show up in the start event.
 */
export async function timerAndActivityElsewhere(activityQueue: string, _details: unknown, _blob: Uint8Array): Promise<string> {
  const { echo } = proxyActivities<typeof activities>({ taskQueue: activityQueue, startToCloseTimeout: '1 minute' });
  await Promise.all([sleep('1 day'), echo('nobody polls this queue')]);
  return 'done';
}

export const neverReturningUpdate = defineUpdate<void, []>('neverReturningUpdate');

/** Accepts every update and never finishes one (the in-flight update limit). */
export async function holdsUpdates(): Promise<void> {
  setHandler(neverReturningUpdate, () => new Promise<void>(() => undefined));
  await condition(() => false);
}

/** What the first workflow task tells the workflow about its history. */
export async function firstTaskHistorySize(): Promise<number> {
  return workflowInfo().historySize;
}
