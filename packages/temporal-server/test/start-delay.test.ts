// Issue 16 point 4: a start delay is cut short by signal-with-start and by an update, as the real
// server does (a plain signal waits for the delay: lifecycle.test.ts).
import { expect } from 'chai';
import { CACHE_MODES, uid, useEnv, waitFor } from './harness';

for (const mode of CACHE_MODES) {
  describe(`devserver start delay cut short (${mode.name})`, function () {
    const env = useEnv(mode);

    it('when signal-with-start reaches a workflow waiting out its start delay then it starts at once', async () => {
      const tq = uid('tq');
      const workflowId = uid('wf');
      const h = await env.client.workflow.start('accumulator', { taskQueue: tq, workflowId, startDelay: '1 hour' });
      await env.withWorker(tq, async () => {
        await env.client.workflow.signalWithStart('accumulator', { taskQueue: tq, workflowId, signal: 'add', signalArgs: [3] });
        // Until its first workflow task completes the workflow cannot be queried.
        await waitFor(async () => (await h.query<number>('total').catch(() => undefined)) === 3);
        await h.signal('done');
        expect(await h.result()).to.equal(3);
      });
    });

    it('when an update reaches a workflow waiting out its start delay then it starts at once and answers', async () => {
      const tq = uid('tq');
      const h = await env.client.workflow.start('updatable', { taskQueue: tq, workflowId: uid('wf'), startDelay: '1 hour' });
      await env.withWorker(tq, async () => {
        expect(await h.executeUpdate('setValue', { args: [4] })).to.equal(8);
        await h.signal('done');
        expect(await h.result()).to.equal(4);
      });
    });
  });
}
