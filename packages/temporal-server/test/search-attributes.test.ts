// Issue 16 point 3: search attributes keep their type end to end (start, upsert, describe, list,
// the workflow's own view), and counts group by execution status.
import { expect } from 'chai';
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { CACHE_MODES, uid, useEnv } from './harness';

const DATETIME = defineSearchAttributeKey('CustomDatetimeField', SearchAttributeType.DATETIME);
const INT = defineSearchAttributeKey('CustomIntField', SearchAttributeType.INT);
const DOUBLE = defineSearchAttributeKey('CustomDoubleField', SearchAttributeType.DOUBLE);
const BOOL = defineSearchAttributeKey('CustomBoolField', SearchAttributeType.BOOL);
const KEYWORD = defineSearchAttributeKey('CustomKeywordField', SearchAttributeType.KEYWORD);
const TEXT = defineSearchAttributeKey('CustomTextField', SearchAttributeType.TEXT);
const TAGS = defineSearchAttributeKey('Tags', SearchAttributeType.KEYWORD_LIST);

function metadataTypes(sa: temporal.api.common.v1.ISearchAttributes | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(sa?.indexedFields ?? {}).map(([k, p]) => [k, Buffer.from(p.metadata?.type ?? []).toString()]));
}

for (const mode of CACHE_MODES) {
  describe(`devserver typed search attributes (${mode.name})`, function () {
    const env = useEnv(mode);

    before(async () => {
      // A custom attribute registered the way the SDK's test environments do it.
      await env.connection.operatorService.addSearchAttributes({
        namespace: 'default',
        searchAttributes: { Tags: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST },
      });
    });

    it('when values are set without a type then they come back typed: describe, start event and the workflow itself', async () => {
      const tq = uid('tq');
      const when = new Date('2026-03-29T01:30:00.000Z');
      const h = await env.client.workflow.start('typedAttributes', {
        taskQueue: tq,
        workflowId: uid('wf'),
        searchAttributes: { CustomDatetimeField: [when], CustomIntField: [7], Tags: ['a', 'b'] },
      });
      const seen = await env.withWorker(tq, () => h.result(), { buildId: 'salon-build-1' });
      expect(seen).to.deep.equal({ datetime: when.toISOString(), isDate: true, int: 7, keywords: ['a', 'b'] });

      const d = await h.describe();
      expect(d.searchAttributes.CustomDatetimeField).to.deep.equal([when]);
      expect(d.typedSearchAttributes.get(DATETIME)).to.deep.equal(when);
      expect(d.typedSearchAttributes.get(INT)).to.equal(7);
      expect(d.typedSearchAttributes.get(DOUBLE)).to.equal(2.5);
      expect(d.typedSearchAttributes.get(TAGS)).to.deep.equal(['a', 'b']);
      // The server keeps BuildIds: the workflow is unversioned and this build worked on it.
      expect(d.searchAttributes.BuildIds).to.deep.equal(['unversioned', 'unversioned:salon-build-1']);

      const history = await h.fetchHistory();
      const started = history.events?.[0].workflowExecutionStartedEventAttributes;
      expect(metadataTypes(started?.searchAttributes)).to.deep.equal({ CustomDatetimeField: 'Datetime', CustomIntField: 'Int', Tags: 'KeywordList' });
      const upserted = history.events?.find((e) => e.upsertWorkflowSearchAttributesEventAttributes)?.upsertWorkflowSearchAttributesEventAttributes;
      expect(metadataTypes(upserted?.searchAttributes)).to.deep.equal({ CustomDoubleField: 'Double' });
    });

    it('when every type is set as a typed search attribute then describe and list return the same values', async () => {
      const tq = uid('tq');
      const workflowId = uid('wf');
      const typed = new TypedSearchAttributes([
        { key: DATETIME, value: new Date('2026-01-02T03:04:05.000Z') },
        { key: INT, value: 42 },
        { key: DOUBLE, value: 1.25 },
        { key: BOOL, value: true },
        { key: KEYWORD, value: 'gold' },
        { key: TEXT, value: 'a long note' },
        { key: TAGS, value: ['x', 'y'] },
      ]);
      const h = await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId, typedSearchAttributes: typed });
      try {
        const d = await h.describe();
        for (const { key, value } of typed.getAll()) expect(d.typedSearchAttributes.get(key), key.name).to.deep.equal(value);
        const listed = [];
        for await (const w of env.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) listed.push(w);
        expect(listed).to.have.length(1);
        expect(listed[0].typedSearchAttributes.get(DATETIME)).to.deep.equal(new Date('2026-01-02T03:04:05.000Z'));
        expect(listed[0].typedSearchAttributes.get(TAGS)).to.deep.equal(['x', 'y']);
      } finally {
        await h.terminate();
      }
    });
  });
}

describe('devserver counts grouped by execution status', function () {
  const env = useEnv({});

  it("when counting with GROUP BY ExecutionStatus then each status has its own count, in the real server's status order", async () => {
    const tq = uid('tq');
    await env.withWorker(tq, async () => {
      for (let i = 0; i < 3; i++) await env.client.workflow.execute('returnsInput', { taskQueue: tq, workflowId: uid('wf'), args: [i] });
      await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: uid('wf') });
      await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: uid('wf') });
    });
    const counted = await env.client.workflow.count(`TaskQueue = '${tq}' GROUP BY ExecutionStatus`);
    expect(counted.count).to.equal(5);
    // Running before Completed although fewer run: groups come in status order, not by size.
    expect(counted.groups).to.deep.equal([
      { count: 2, groupValues: [['Running']] },
      { count: 3, groupValues: [['Completed']] },
    ]);
    expect((await env.client.workflow.count(`TaskQueue = '${tq}'`)).groups).to.deep.equal([]);
    const refused = (await env.client.workflow.count(`TaskQueue = '${tq}' GROUP BY WorkflowType`).catch((e: unknown) => e)) as Error & {
      cause?: { details?: string };
    };
    expect(String(refused.cause?.details)).to.match(/GROUP BY WorkflowType is not supported/);
  });
});
