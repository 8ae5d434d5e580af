// Issue 25 point 4: limits the real server enforces. IDs over 1,000 bytes are INVALID_ARGUMENT on
// start, signal-with-start and update-with-start (where the start operation carries the error and
// the update is aborted, so neither promise hangs); a run admits 10 updates in flight and the
// 11th is RESOURCE_EXHAUSTED, as in the SDK's own update tests.
import { status as grpcStatus } from '@grpc/grpc-js';
import { expect } from 'chai';
import { Client, Connection, isGrpcServiceError, ServiceError, WithStartWorkflowOperation } from '@temporalio/client';
import { uid, useEnv } from './harness';

/** The gRPC error behind a refused call (the SDK wraps it in a ServiceError for starts). */
async function refusal(p: Promise<unknown>): Promise<{ code?: number; details?: string }> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'the call was refused').to.be.instanceOf(Error);
  return (err instanceof ServiceError ? err.cause : err) as { code?: number; details?: string };
}

describe('devserver limits', function () {
  this.timeout(60_000);
  const env = useEnv({});
  const at = (n: number) => 'w'.repeat(n);

  it('when a workflow id is 1,000 bytes it starts; at 1,001 bytes the start is INVALID_ARGUMENT', async () => {
    const tq = uid('tq');
    const ok = await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: at(1000) });
    await ok.terminate();
    expect(await refusal(env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: at(1001) }))).to.include({
      code: grpcStatus.INVALID_ARGUMENT,
      details: 'WorkflowId length exceeds limit.',
    });
    // Bytes, not characters: 500 two-byte characters are 1,000 bytes, 501 are over.
    expect(await refusal(env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: 'é'.repeat(501) }))).to.include({
      code: grpcStatus.INVALID_ARGUMENT,
    });
    expect(await refusal(env.client.workflow.start(at(1001), { taskQueue: tq, workflowId: uid('wf') }))).to.include({
      details: 'WorkflowType length exceeds limit.',
    });
    expect(await refusal(env.client.workflow.start('waitsForever', { taskQueue: at(1001), workflowId: uid('wf') }))).to.include({
      details: 'TaskQueue length exceeds limit.',
    });
    expect(await refusal(env.client.workflow.signalWithStart('waitsForever', { taskQueue: tq, workflowId: uid('wf'), signal: at(1001) }))).to.include({
      details: 'SignalName length exceeds limit.',
    });
  });

  it('when update-with-start names a workflow id over the limit, both the update and the workflow handle fail with INVALID_ARGUMENT', async () => {
    const startOp = new WithStartWorkflowOperation('updatable', { workflowId: at(1001), taskQueue: uid('tq'), workflowIdConflictPolicy: 'FAIL' });
    for (const p of [
      env.client.workflow.startUpdateWithStart('setValue', { args: [1], waitForStage: 'ACCEPTED', startWorkflowOperation: startOp }),
      startOp.workflowHandle(),
    ]) {
      const err = await p.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isGrpcServiceError(err) && err.code === grpcStatus.INVALID_ARGUMENT, String(err)).to.equal(true);
      expect((err as Error).message).to.match(/workflowid.*length/i);
    }
  });

  it('when 10 updates are in flight, the 11th is RESOURCE_EXHAUSTED (by update and by update-with-start)', async () => {
    const tq = uid('tq');
    const workflowId = uid('wf');
    // A client without the SDK's gRPC retries (it retries RESOURCE_EXHAUSTED ten times).
    const connection = await Connection.connect({ address: env.server.address, interceptors: [] });
    const client = new Client({ connection });
    try {
      await env.withWorker(tq, async () => {
        const startOp = () => new WithStartWorkflowOperation('holdsUpdates', { workflowId, taskQueue: tq, workflowIdConflictPolicy: 'USE_EXISTING' });
        for (let i = 0; i < 10; i++) {
          await client.workflow.startUpdateWithStart('neverReturningUpdate', { waitForStage: 'ACCEPTED', startWorkflowOperation: startOp() });
        }
        const op = startOp();
        for (const p of [
          client.workflow.startUpdateWithStart('neverReturningUpdate', { waitForStage: 'ACCEPTED', startWorkflowOperation: op }),
          op.workflowHandle(),
        ]) {
          const err = await p.then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(isGrpcServiceError(err) && err.code === grpcStatus.RESOURCE_EXHAUSTED, String(err)).to.equal(true);
        }
        const direct = await client.workflow
          .getHandle(workflowId)
          .startUpdate('neverReturningUpdate', { waitForStage: 'ACCEPTED' })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(String((direct as { cause?: unknown }).cause ?? direct)).to.match(/limit on number of concurrent in-flight updates has been reached \(10\)/);
        await client.workflow.getHandle(workflowId).terminate();
      });
    } finally {
      await connection.close();
    }
  });
});
