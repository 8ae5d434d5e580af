import { expect } from 'chai';
import { Worker, NativeConnection } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { startDevServer } from '../src';
import * as activities from './activities';

describe('devserver smoke', () => {
  it('runs a workflow with an activity and a timer', async () => {
    const server = await startDevServer({ port: 0 });
    const nc = await NativeConnection.connect({ address: server.address });
    const conn = await Connection.connect({ address: server.address });
    const client = new Client({ connection: conn });
    const worker = await Worker.create({ connection: nc, taskQueue: 'smoke', workflowsPath: require.resolve('./workflows'), activities });
    const r = await worker.runUntil(client.workflow.execute('greet', { taskQueue: 'smoke', workflowId: 'smoke-1', args: ['x'] }));
    expect(r).to.equal('hello x');
    await conn.close();
    await nc.close();
    await server.shutdown();
  });
});
