// Point 8: unsupported and malformed RPCs, pollers that go away, graceful shutdown.
import { expect } from 'chai';
import * as grpc from '@grpc/grpc-js';
import { ActivityNotFoundError, Client, Connection, NamespaceNotFoundError, WorkflowNotFoundError } from '@temporalio/client';
import { startDevServer } from '../src';
import { encodeMessage, protoType } from '../src/proto';
import { uid, useEnv } from './harness';

const WS = '/temporal.api.workflowservice.v1.WorkflowService';

function rawCall(client: grpc.Client, method: string, body: Buffer, deadlineMs = 10_000): { promise: Promise<Buffer>; call: grpc.ClientUnaryCall } {
  let call!: grpc.ClientUnaryCall;
  const promise = new Promise<Buffer>((resolve, reject) => {
    call = client.makeUnaryRequest(
      method,
      (b: Buffer) => b,
      (b: Buffer) => b,
      body,
      { deadline: Date.now() + deadlineMs },
      (err, res) => (err ? reject(err) : resolve(res!)),
    );
  });
  return { promise, call };
}

const pollRequest = (taskQueue: string) =>
  encodeMessage(protoType('temporal.api.workflowservice.v1.PollWorkflowTaskQueueRequest'), {
    namespace: 'default',
    taskQueue: { name: taskQueue, kind: 1 },
    identity: 'raw-poller',
  });

describe('devserver robustness', function () {
  const env = useEnv({});
  let raw: grpc.Client;
  before(() => {
    raw = new grpc.Client(env.server.address, grpc.credentials.createInsecure());
  });
  after(() => raw.close());

  it('answers UNIMPLEMENTED naming an unsupported method or service', async () => {
    const err = await env.connection.workflowService.startBatchOperation({ namespace: 'default', jobId: 'x' }).catch((e) => e);
    expect(err.code).to.equal(grpc.status.UNIMPLEMENTED);
    expect(err.details).to.match(/StartBatchOperation/);
    const err2 = await rawCall(raw, '/no.such.Service/DoThing', Buffer.alloc(0)).promise.catch((e) => e);
    expect(err2.code).to.equal(grpc.status.UNIMPLEMENTED);
    expect(err2.details).to.match(/DoThing/);
  });

  it('answers INVALID_ARGUMENT to malformed requests', async () => {
    const err = await rawCall(raw, `${WS}/StartWorkflowExecution`, Buffer.from([0xff, 0xff, 0xff, 0xff])).promise.catch((e) => e);
    expect(err.code).to.equal(grpc.status.INVALID_ARGUMENT);
    expect(err.details).to.match(/malformed StartWorkflowExecution/);
    // Well-formed protobuf but semantically invalid: still INVALID_ARGUMENT, never UNKNOWN.
    const err2 = await env.connection.workflowService.startWorkflowExecution({ namespace: 'default', workflowId: '' }).catch((e) => e);
    expect(err2.code).to.equal(grpc.status.INVALID_ARGUMENT);
    const err3 = await env.connection.workflowService
      .describeWorkflowExecution({ namespace: 'default', execution: { workflowId: uid('missing') } })
      .catch((e) => e);
    expect(err3.code).to.equal(grpc.status.NOT_FOUND);
    const err4 = await env.connection.workflowService.describeNamespace({ namespace: 'nope' }).catch((e) => e);
    expect(err4.code).to.equal(grpc.status.NOT_FOUND);
  });

  it('carries error details the client maps to typed errors', async () => {
    const other = new Client({ connection: env.connection, namespace: 'no-such-namespace' });
    const err = await other.workflow.start('returnsInput', { taskQueue: uid('tq'), workflowId: uid('wf'), args: [1] }).catch((e) => e);
    expect(err).to.be.instanceOf(NamespaceNotFoundError);
  });

  it('loses no task when a poller disconnects mid-poll', async () => {
    const tq = uid('tq');
    const pending = rawCall(raw, `${WS}/PollWorkflowTaskQueue`, pollRequest(tq));
    await new Promise((r) => setTimeout(r, 200));
    pending.call.cancel();
    await pending.promise.catch(() => undefined);
    const h = await env.client.workflow.start('returnsInput', { taskQueue: tq, workflowId: uid('wf'), args: ['kept'] });
    const started = Date.now();
    // With a lost task the worker would only get it after the 10 s workflow task timeout.
    expect(await env.withWorker(tq, () => h.result())).to.equal('kept');
    expect(Date.now() - started).to.be.lessThan(4000);
  });

  it('completes in-flight long polls on graceful shutdown', async () => {
    const server = await startDevServer({ port: 0 });
    const client = new grpc.Client(server.address, grpc.credentials.createInsecure());
    try {
      const poll = rawCall(client, `${WS}/PollWorkflowTaskQueue`, pollRequest(uid('tq')), 30_000);
      await new Promise((r) => setTimeout(r, 200));
      const t0 = Date.now();
      await server.shutdown();
      const res = await poll.promise;
      expect(res.length, 'empty poll response').to.equal(0);
      expect(Date.now() - t0).to.be.lessThan(2000);
    } finally {
      client.close();
    }
  });

  it("reports 24 h as the namespaces' retention by default", async () => {
    const described = await env.connection.workflowService.describeNamespace({ namespace: 'default' });
    expect(Number(described.config?.workflowExecutionRetentionTtl?.seconds)).to.equal(24 * 3600);
  });

  it('forgets closed runs and standalone activities after the retention period (dev-server mode), and reports that retention', async () => {
    const server = await startDevServer({ port: 0, retentionMs: 200, namespace: 'other' });
    const client = new Client({ connection: await Connection.connect({ address: server.address }) });
    try {
      // What the namespace reports is the retention the server applies.
      const described = await client.connection.workflowService.describeNamespace({ namespace: 'default' });
      expect(described.config?.workflowExecutionRetentionTtl).to.deep.include({ nanos: 200_000_000 });
      expect(Number(described.config?.workflowExecutionRetentionTtl?.seconds ?? 0)).to.equal(0);
      const listed = await client.connection.workflowService.listNamespaces({});
      expect(listed.namespaces.map((n) => [n.namespaceInfo?.name, n.config?.workflowExecutionRetentionTtl?.nanos])).to.deep.equal([
        ['default', 200_000_000],
        ['other', 200_000_000],
      ]);
      const open = await client.workflow.start('waitsForever', { taskQueue: uid('tq'), workflowId: uid('wf') });
      const closed = await client.workflow.start('waitsForever', { taskQueue: uid('tq'), workflowId: uid('wf') });
      await closed.terminate();
      const activityOpts = { taskQueue: uid('tq'), scheduleToCloseTimeout: '1 minute' } as const;
      const openActivity = await client.activity.start('echo', { ...activityOpts, id: uid('act') });
      const closedActivity = await client.activity.start('echo', { ...activityOpts, id: uid('act') });
      await closedActivity.terminate('done');
      await new Promise((r) => setTimeout(r, 400));
      await expect(closed.describe()).to.be.rejectedWith(WorkflowNotFoundError);
      expect((await open.describe()).status.name).to.equal('RUNNING');
      await expect(closedActivity.describe()).to.be.rejectedWith(ActivityNotFoundError);
      expect((await openActivity.describe()).status).to.equal('RUNNING');
    } finally {
      await client.connection.close();
      await server.shutdown();
    }
  });
});
