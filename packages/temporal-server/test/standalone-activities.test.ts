// Issue 25 point 1: standalone activities (SDK 1.24's client.activity), used the way the SDK's own
// tests use them: start, result (a long poll that outlasts the server's), execute, describe by
// handle, id and run id, start delay, cancel, terminate, list and count, the activity's own view
// of itself, id conflict and reuse policies, retries and heartbeats like a workflow's activities,
// asynchronous completion, pause/unpause/reset and delete.
import { expect } from 'chai';
import { activityInfo, Context, CompleteAsyncError } from '@temporalio/activity';
import {
  ActivityCompletionError,
  ActivityExecutionAlreadyStartedError,
  ActivityExecutionFailedError,
  ActivityNotFoundError,
  Client,
  isGrpcCancelledError,
  ServiceError,
  TerminatedFailure,
} from '@temporalio/client';
import { ApplicationFailure, CancelledFailure, TimeoutFailure } from '@temporalio/common';
import { uid, useEnv, waitFor } from './harness';

const LONG_POLL_MS = 1_000;

/** The server's message behind the SDK's ServiceError ("Failed to ..."): its gRPC error's details. */
async function refusal(p: Promise<unknown>): Promise<{ code?: number; details?: string }> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'the call was refused').to.be.instanceOf(ServiceError);
  return (err as ServiceError).cause as { code?: number; details?: string };
}

/** Activities the worker serves; `released` lets a test end a waiting activity. */
const released = new Set<string>();
const started = new Set<string>();
const tokens = new Map<string, Uint8Array>();
const activities = {
  async echo(s: string): Promise<string> {
    return s;
  },
  async throwAnError(message: string): Promise<never> {
    throw ApplicationFailure.nonRetryable(message, 'Expected');
  },
  async waitForRelease(): Promise<string> {
    const id = activityInfo().activityId;
    started.add(id);
    while (!released.has(id)) {
      Context.current().heartbeat();
      await Context.current().sleep(50);
    }
    return 'released';
  },
  async ownInfo() {
    const i = activityInfo();
    return {
      inWorkflow: i.inWorkflow,
      activityRunId: i.activityRunId,
      workflowExecution: i.workflowExecution ?? null,
      workflowType: i.workflowType ?? null,
      attempt: i.attempt,
    };
  },
  async failTwice(): Promise<number> {
    const { attempt } = activityInfo();
    if (attempt < 3) throw ApplicationFailure.retryable(`attempt ${attempt} failed`);
    return attempt;
  },
  async heartbeatThenHang(): Promise<unknown> {
    const { attempt, heartbeatDetails } = activityInfo();
    if (attempt > 1) return heartbeatDetails;
    Context.current().heartbeat({ progress: 'first attempt got this far' });
    await Context.current()
      .sleep(10_000)
      .catch(() => undefined);
    return 'attempt 1 should have timed out';
  },
  async completeAsync(): Promise<never> {
    tokens.set(activityInfo().activityId, activityInfo().taskToken);
    throw new CompleteAsyncError();
  },
};

describe('devserver standalone activities', function () {
  this.timeout(60_000);
  // One worker serves the suite's task queue, as in the SDK's own standalone activity tests. Its
  // `after` hook comes first so the worker stops before the environment closes its connection.
  let stopWorker: (() => Promise<void>) | undefined;
  after(async () => {
    await stopWorker?.();
  });
  const env = useEnv({}, { resultLongPollMs: LONG_POLL_MS });
  const taskQueue = uid('standalone');
  const opts = { taskQueue, scheduleToCloseTimeout: '1 minute', idReusePolicy: 'ALLOW_DUPLICATE' } as const;
  const client = () => env.client.activity;
  before(async () => {
    const worker = await env.createWorker(taskQueue, { activities });
    const running = worker.run();
    stopWorker = async () => {
      worker.shutdown();
      await running;
    };
  });

  it('when started, the result is there by the start handle, by id and by id and run id', async () => {
    const id = uid('act');
    const handle = await client().start('echo', { ...opts, id, args: ['hello'] });
    expect(handle.runId).to.be.a('string');
    expect(await handle.result()).to.equal('hello');
    expect(await client().getHandle(id).result()).to.equal('hello');
    expect(await client().getHandle(id, handle.runId).result()).to.equal('hello');
  });

  it('when the activity fails, result() and execute() throw ActivityExecutionFailedError with its failure', async () => {
    const handle = await client().start('throwAnError', { ...opts, id: uid('act'), args: ['failure'] });
    const err = await handle.result().catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ActivityExecutionFailedError);
    expect((err as ActivityExecutionFailedError).cause).to.be.instanceOf(ApplicationFailure);
    expect((err as ActivityExecutionFailedError).cause?.message).to.equal('failure');
    const executed = await client()
      .execute('throwAnError', { ...opts, id: uid('act'), args: ['again'] })
      .catch((e: unknown) => e);
    expect((executed as ActivityExecutionFailedError).cause?.message).to.equal('again');
    expect(await client().execute('echo', { ...opts, id: uid('act'), args: ['executed'] })).to.equal('executed');
  });

  it("when the worker is slower than the server's long poll, result() keeps waiting", async () => {
    const id = uid('act');
    const handle = await client().start('waitForRelease', { ...opts, id });
    setTimeout(() => released.add(id), LONG_POLL_MS * 1.5);
    expect(await handle.result()).to.equal('released');
  });

  it('when the client gives up waiting, its result() call is cancelled, not the activity', async () => {
    const id = uid('act');
    const handle = await client().start('waitForRelease', { ...opts, id, scheduleToCloseTimeout: '5s' });
    const abort = new AbortController();
    setTimeout(() => abort.abort(), LONG_POLL_MS * 0.25);
    const err = await client()
      .withAbortSignal(abort.signal, () => handle.result())
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ServiceError);
    expect(isGrpcCancelledError(err)).to.equal(true);
    expect((await handle.describe()).status).to.equal('RUNNING');
    released.add(id);
    expect(await handle.result()).to.equal('released');
  });

  it('when started with a start delay, the first attempt waits for it', async () => {
    const handle = await client().start('echo', { ...opts, id: uid('act'), args: ['later'], startDelay: 1_000 });
    expect(await handle.result()).to.equal('later');
    const d = await handle.describe();
    expect(d.status).to.equal('COMPLETED');
    expect(d.startDelayMs).to.equal(1_000);
    expect(d.lastStartedTime!.getTime() - d.scheduleTime!.getTime()).to.be.at.least(1_000 - 50);
  });

  it('describes a run by its start handle, the latest run by id, and an older run by id and run id', async () => {
    const id = uid('act');
    const first = await client().start('echo', { ...opts, id, args: ['one'] });
    await first.result();
    const second = await client().start('echo', { ...opts, id, args: ['two'] });
    await second.result();
    expect(second.runId).to.not.equal(first.runId);
    const expected = { activityId: id, activityType: 'echo', attempt: 1, status: 'COMPLETED', taskQueue };
    expect(await first.describe()).to.deep.include({ ...expected, activityRunId: first.runId });
    expect(await client().getHandle(id).describe()).to.deep.include({ ...expected, activityRunId: second.runId });
    const older = await client().getHandle(id, first.runId).describe({ includeInput: true, includeOutcome: true });
    expect(older).to.deep.include({ ...expected, activityRunId: first.runId, hasInput: true, hasResult: true });
    expect(await older.getInput()).to.deep.equal(['one']);
    expect(await older.getResult()).to.equal('one');
    expect(older.scheduleToCloseTimeoutMs).to.equal(60_000);
    expect(older.retryPolicy).to.deep.include({ initialInterval: 1000, backoffCoefficient: 2, maximumInterval: 100_000 });
    await expect(client().getHandle(uid('nobody')).describe()).to.be.rejectedWith(ActivityNotFoundError);
  });

  it('when cancelled while a worker runs it, the activity learns it from its heartbeat and ends CANCELED', async () => {
    const id = uid('act');
    // The SDK throttles heartbeats to 80% of the heartbeat timeout (30 s without one).
    const handle = await client().start('waitForRelease', { ...opts, id, heartbeatTimeout: '1s' });
    await waitFor(async () => started.has(id));
    await handle.cancel('test cancellation');
    const err = await handle.result().catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ActivityExecutionFailedError);
    expect((err as ActivityExecutionFailedError).cause).to.be.instanceOf(CancelledFailure);
    const d = await handle.describe();
    expect(d.status).to.equal('CANCELED');
    expect(d.canceledReason).to.equal('test cancellation');
  });

  it('when cancelled before any worker took it, it is canceled on the spot', async () => {
    const handle = await client().start('echo', { ...opts, id: uid('act'), taskQueue: uid('nobody') });
    await handle.cancel('not needed');
    const err = await handle.result().catch((e: unknown) => e);
    expect((err as ActivityExecutionFailedError).cause).to.be.instanceOf(CancelledFailure);
    expect((await handle.describe()).status).to.equal('CANCELED');
  });

  it('when terminated, result() reports a TerminatedFailure with the reason', async () => {
    const id = uid('act');
    const handle = await client().start('waitForRelease', { ...opts, id });
    await waitFor(async () => started.has(id));
    await handle.terminate('test termination');
    const err = await handle.result().catch((e: unknown) => e);
    expect((err as ActivityExecutionFailedError).cause).to.be.instanceOf(TerminatedFailure);
    expect((err as ActivityExecutionFailedError).cause?.message).to.equal('test termination');
    expect((await handle.describe()).status).to.equal('TERMINATED');
    released.add(id);
  });

  it('counts and lists activities by a visibility query, and groups counts by status', async () => {
    const twice = uid('act');
    const first = await client().start('echo', { ...opts, id: twice, args: ['a'] });
    await first.result();
    const second = await client().start('echo', { ...opts, id: twice, args: ['b'] });
    await second.result();
    const third = uid('act');
    const thirdHandle = await client().start('echo', { ...opts, id: third, args: ['c'] });
    await thirdHandle.result();
    const query = `ActivityId='${twice}' OR ActivityId='${third}'`;
    expect((await client().count(query)).count).to.equal(3);
    const listed: string[] = [];
    for await (const info of client().list(query)) {
      expect(info.activityType).to.equal('echo');
      expect(info.taskQueue).to.equal(taskQueue);
      expect(info.status).to.equal('COMPLETED');
      listed.push(`${info.activityId}/${info.activityRunId}`);
    }
    expect(listed.sort()).to.deep.equal([`${twice}/${first.runId}`, `${twice}/${second.runId}`, `${third}/${thirdHandle.runId}`].sort());

    const running = uid('act');
    await client().start('echo', { ...opts, id: running, taskQueue: uid('nobody') });
    const grouped = await client().count(`(${query} OR ActivityId='${running}') GROUP BY ExecutionStatus`);
    expect(grouped.count).to.equal(4);
    expect(grouped.groups).to.deep.equal([
      { count: 1, groupValues: [['Running']] },
      { count: 3, groupValues: [['Completed']] },
    ]);
    await client().getHandle(running).terminate('done');
  });

  it('gives the activity a standalone view of itself: no workflow, its own run id', async () => {
    const handle = await client().start('ownInfo', { ...opts, id: uid('act') });
    expect(await handle.result()).to.deep.equal({ inWorkflow: false, activityRunId: handle.runId, workflowExecution: null, workflowType: null, attempt: 1 });
  });

  it('applies the id conflict policy: FAIL refuses a running id, USE_EXISTING returns the running run', async () => {
    const id = uid('act');
    const handle = await client().start('waitForRelease', { ...opts, id, idConflictPolicy: 'FAIL' });
    await waitFor(async () => started.has(id));
    const err = await client()
      .start('waitForRelease', { ...opts, id, idConflictPolicy: 'FAIL' })
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ActivityExecutionAlreadyStartedError);
    expect((err as ActivityExecutionAlreadyStartedError).activityId).to.equal(id);
    expect((err as ActivityExecutionAlreadyStartedError).runId).to.equal(handle.runId);
    const existing = await client().start('waitForRelease', { ...opts, id, idConflictPolicy: 'USE_EXISTING' });
    expect(existing.runId).to.equal(handle.runId);
    released.add(id);
    await handle.result();
  });

  it('applies the id reuse policy to a closed id: REJECT_DUPLICATE, ALLOW_DUPLICATE_FAILED_ONLY', async () => {
    const id = uid('act');
    const handle = await client().start('echo', { ...opts, id, args: ['x'], idReusePolicy: 'REJECT_DUPLICATE' });
    await handle.result();
    const rejected = await client()
      .start('echo', { ...opts, id, args: ['x'], idReusePolicy: 'REJECT_DUPLICATE' })
      .catch((e: unknown) => e);
    expect(rejected).to.be.instanceOf(ActivityExecutionAlreadyStartedError);
    expect((rejected as ActivityExecutionAlreadyStartedError).runId).to.equal(handle.runId);
    const afterSuccess = await client()
      .start('echo', { ...opts, id, args: ['x'], idReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY' })
      .catch((e: unknown) => e);
    expect(afterSuccess).to.be.instanceOf(ActivityExecutionAlreadyStartedError);

    const failedId = uid('act');
    await client()
      .execute('throwAnError', { ...opts, id: failedId, args: ['x'] })
      .catch(() => undefined);
    const retried = await client().start('echo', { ...opts, id: failedId, args: ['second'], idReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY' });
    expect(await retried.result()).to.equal('second');
  });

  it('retries failed attempts per the retry policy and times out silent ones, like a workflow activity', async () => {
    expect(await client().execute('failTwice', { ...opts, id: uid('act'), retry: { initialInterval: '50ms' } })).to.equal(3);
    const details = await client().execute('heartbeatThenHang', {
      ...opts,
      id: uid('act'),
      startToCloseTimeout: '10s',
      heartbeatTimeout: '400ms',
      retry: { initialInterval: '10ms' },
    });
    expect(details).to.deep.equal({ progress: 'first attempt got this far' });
    const err = await client()
      .execute('failTwice', { ...opts, id: uid('act'), retry: { initialInterval: '10ms', maximumAttempts: 2 } })
      .catch((e: unknown) => e);
    expect((err as ActivityExecutionFailedError).cause?.message).to.equal('attempt 2 failed');
    const timedOut = await client()
      .execute('echo', { ...opts, id: uid('act'), taskQueue: uid('nobody'), scheduleToCloseTimeout: '300ms' })
      .catch((e: unknown) => e);
    expect((timedOut as ActivityExecutionFailedError).cause).to.be.instanceOf(TimeoutFailure);
    expect(((timedOut as ActivityExecutionFailedError).cause as TimeoutFailure).timeoutType).to.equal('SCHEDULE_TO_CLOSE');
  });

  it('completes asynchronously by task token and by activity id and run id', async () => {
    const byToken = uid('act');
    const h1 = await client().start('completeAsync', { ...opts, id: byToken, retry: { maximumAttempts: 1 } });
    const token = await waitFor(async () => tokens.get(byToken));
    await client().complete(token, 'by token');
    expect(await h1.result()).to.equal('by token');

    const byId = uid('act');
    const h2 = await client().start('completeAsync', { ...opts, id: byId, retry: { maximumAttempts: 1 } });
    await waitFor(async () => tokens.get(byId));
    await client().complete({ activityId: byId, runId: h2.runId }, 'by id');
    expect(await h2.result()).to.equal('by id');
  });

  it('refuses a task token used in another namespace', async () => {
    const id = uid('act');
    const handle = await client().start('completeAsync', { ...opts, id, retry: { maximumAttempts: 1 } });
    const token = await waitFor(async () => tokens.get(id));
    await env.connection.workflowService.registerNamespace({ namespace: 'elsewhere' }).catch(() => undefined);
    const other = new Client({ connection: env.connection, namespace: 'elsewhere' });
    const err = await other.activity.complete(token, 'wrong namespace').catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ActivityCompletionError);
    expect((err as Error).message).to.equal('token does not match namespace');
    await client().complete(token, 'right namespace');
    expect(await handle.result()).to.equal('right namespace');
  });

  it('pauses a waiting activity (PAUSED, no dispatch) and unpauses it; resets a paused one', async () => {
    const idleQueue = uid('later');
    const id = uid('act');
    const handle = await client().start('echo', { ...opts, id, taskQueue: idleQueue, args: ['after pause'] });
    await handle.pause({ reason: 'investigating' });
    const paused = await handle.describe();
    expect(paused.status).to.equal('PAUSED');
    expect(paused.runState).to.equal('PAUSED');
    expect(await refusal(handle.pause())).to.include({ code: 9, details: 'activity is already paused' }); // FAILED_PRECONDITION
    // A worker for the queue gets nothing while the activity is paused: one started after it on the same
    // queue runs, so the worker has polled the queue, and the paused one is still waiting, never handed out.
    await env.withWorker(
      idleQueue,
      async () => {
        const after = await client().start('echo', { ...opts, id: uid('act'), taskQueue: idleQueue, args: ['the later one'] });
        expect(await after.result()).to.equal('the later one');
        const still = await handle.describe();
        expect([still.status, still.runState, still.attempt]).to.deep.equal(['PAUSED', 'PAUSED', 1]);
        await handle.unpause();
        expect(await handle.result()).to.equal('after pause');
      },
      { activities },
    );

    const resetId = uid('act');
    const toReset = await client().start('echo', { ...opts, id: resetId, taskQueue: idleQueue, args: ['after reset'] });
    await toReset.pause();
    await env.connection.workflowService.resetActivityExecution({ namespace: 'default', activityId: resetId, runId: toReset.runId });
    expect((await toReset.describe()).status).to.equal('RUNNING');
    expect(await env.withWorker(idleQueue, () => toReset.result(), { activities })).to.equal('after reset');
  });

  it("changes a waiting activity's options (its task queue, timeouts) and restores the original ones", async () => {
    const id = uid('act');
    const handle = await client().start('echo', { ...opts, id, taskQueue: uid('nobody'), args: ['moved'], startDelay: '1h' });
    const updated = await handle.updateOptions({ taskQueue, startToCloseTimeout: '5s', startDelay: 0 });
    expect(updated).to.deep.include({ taskQueue, startToCloseTimeout: 5_000, scheduleToCloseTimeout: 60_000 });
    // Moved to the suite worker's queue, and no longer delayed: it runs.
    expect(await handle.result()).to.equal('moved');

    const other = await client().start('echo', { ...opts, id: uid('act'), taskQueue: uid('nobody'), args: ['x'] });
    await other.updateOptions({ scheduleToStartTimeout: '10s', retry: { maximumAttempts: 3 } });
    const changed = await other.describe();
    expect(changed.scheduleToStartTimeoutMs).to.equal(10_000);
    expect(changed.retryPolicy?.maximumAttempts).to.equal(3);
    const restored = await other.restoreOriginalOptions();
    expect(restored).to.deep.include({ scheduleToStartTimeout: 60_000 });
    expect((await other.describe()).retryPolicy?.maximumAttempts).to.equal(0);
    await other.terminate('done');
  });

  it('deletes an execution: a running one is terminated first, then it is gone', async () => {
    const id = uid('act');
    const handle = await client().start('echo', { ...opts, id, taskQueue: uid('nobody') });
    await env.connection.workflowService.deleteActivityExecution({ namespace: 'default', activityId: id, runId: handle.runId });
    await expect(handle.describe()).to.be.rejectedWith(ActivityNotFoundError);
    expect((await client().count(`ActivityId='${id}'`)).count).to.equal(0);
  });

  it('refuses what the real server refuses: ids over 1,000 bytes, no timeout, an unknown run', async () => {
    const long = 'a'.repeat(1001);
    expect(await refusal(client().start('echo', { ...opts, id: long }))).to.include({ code: 3, details: 'ActivityId length exceeds limit.' });
    expect(await refusal(client().start(long, { ...opts, id: uid('act') }))).to.include({ code: 3, details: 'ActivityType length exceeds limit.' });
    const noTimeout = await env.connection.workflowService
      .startActivityExecution({
        namespace: 'default',
        activityId: uid('act'),
        activityType: { name: 'echo' },
        taskQueue: { name: taskQueue },
        requestId: uid('r'),
      })
      .catch((e: unknown) => e);
    expect(noTimeout).to.include({ code: 3 });
    await expect(client().getHandle(uid('act'), '00000000-0000-0000-0000-000000000000').describe()).to.be.rejectedWith(ActivityNotFoundError);
  });
});
