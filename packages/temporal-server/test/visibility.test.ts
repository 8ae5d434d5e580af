// Point 5: ListWorkflowExecutions / CountWorkflowExecutions through the real client.
import { expect } from 'chai';
import { uid, useEnv } from './harness';

describe('devserver visibility', function () {
  const env = useEnv({});

  it('lists and counts with the operator query subset', async () => {
    const tq = uid('tq');
    const prefix = uid('vis');
    const before = new Date(Date.now() - 1000).toISOString();
    await env.withWorker(tq, async () => {
      await env.client.workflow.execute('returnsInput', {
        taskQueue: tq,
        workflowId: `${prefix}-done`,
        args: [1],
        searchAttributes: { CustomKeywordField: ['gold'] },
      });
      await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: `${prefix}-open-1`, searchAttributes: { CustomKeywordField: ['gold'] } });
      await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: `${prefix}-open-2`, searchAttributes: { CustomKeywordField: ['silver'] } });
    });
    const list = async (query: string) => {
      const ids: string[] = [];
      for await (const w of env.client.workflow.list({ query })) if (w.workflowId.startsWith(prefix)) ids.push(w.workflowId);
      return ids;
    };
    expect(await list(`WorkflowId = '${prefix}-done'`)).to.deep.equal([`${prefix}-done`]);
    expect((await list(`WorkflowType = 'waitsForever' AND TaskQueue = '${tq}'`)).sort()).to.deep.equal([`${prefix}-open-1`, `${prefix}-open-2`]);
    expect(await list(`ExecutionStatus = 'Completed' AND TaskQueue = '${tq}'`)).to.deep.equal([`${prefix}-done`]);
    expect((await list(`CustomKeywordField = 'gold' AND TaskQueue = '${tq}'`)).sort()).to.deep.equal([`${prefix}-done`, `${prefix}-open-1`]);
    expect((await list(`TaskQueue = '${tq}' AND (CustomKeywordField = 'silver' OR ExecutionStatus = 'Completed')`)).sort()).to.deep.equal([
      `${prefix}-done`,
      `${prefix}-open-2`,
    ]);
    expect(await list(`TaskQueue = '${tq}' AND StartTime > '${before}' ORDER BY StartTime`)).to.deep.equal([
      `${prefix}-done`,
      `${prefix}-open-1`,
      `${prefix}-open-2`,
    ]);
    expect(await list(`TaskQueue = '${tq}' ORDER BY StartTime DESC`)).to.deep.equal([`${prefix}-open-2`, `${prefix}-open-1`, `${prefix}-done`]);
    expect(await list(`TaskQueue = '${tq}' AND CloseTime > '${before}'`)).to.deep.equal([`${prefix}-done`]);
    expect(await list(`TaskQueue = '${tq}' AND StartTime < '${before}'`)).to.deep.equal([]);
    expect((await env.client.workflow.count(`TaskQueue = '${tq}' AND ExecutionStatus = 'Running'`)).count).to.equal(2);
    expect((await env.client.workflow.count(`TaskQueue = '${tq}'`)).count).to.equal(3);
    // Paging through the raw RPC.
    const page1 = await env.connection.workflowService.listWorkflowExecutions({ namespace: 'default', query: `TaskQueue = '${tq}'`, pageSize: 2 });
    expect(page1.executions).to.have.length(2);
    const page2 = await env.connection.workflowService.listWorkflowExecutions({
      namespace: 'default',
      query: `TaskQueue = '${tq}'`,
      pageSize: 2,
      nextPageToken: page1.nextPageToken,
    });
    expect(page2.executions).to.have.length(1);
    // Unsupported syntax is INVALID_ARGUMENT, not "match everything".
    const err = await env.connection.workflowService.countWorkflowExecutions({ namespace: 'default', query: 'WorkflowId LIKE x' }).catch((e) => e);
    expect(err.code).to.equal(3);
    for (const id of [`${prefix}-open-1`, `${prefix}-open-2`]) await env.client.workflow.getHandle(id).terminate();
  });
});
