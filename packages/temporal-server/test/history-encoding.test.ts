// History events are encoded once and reused: for history_size_bytes, for poll and history
// responses (the events' cached bytes copied after the rest of the response) and for stored runs
// (their base64). These check that every reuse gives the bytes a fresh encoding would.
import { expect } from 'chai';
import * as grpc from '@grpc/grpc-js';
import type { HistoryEvent } from '../src/messages';
import { appendHistoryField, encodedEvent, encodedEventBase64, encodedEventSize } from '../src/history/encoded-events';
import { decodeMessage, encodeMessage, jsonPayload, protoType, TO_OBJECT_OPTS } from '../src/proto';
import { Run } from '../src/state/run';
import { jsonWithBytes, parseJsonWithBytes, storedFromJson, storedToJson, toStored } from '../src/state/run-state';
import { startDevServer, type DevServer } from '../src';

const HistoryEventType = protoType('temporal.api.history.v1.HistoryEvent');
const PollResponse = protoType('temporal.api.workflowservice.v1.PollWorkflowTaskQueueResponse');
const HISTORY_FIELD = PollResponse.fields.history.id;

/** A run whose history has small events and events whose lengths take two and three varint bytes. */
function sampleRun(): Run {
  const run = new Run('default', 'wf', 'run-1', 'run-1', 'Greet', 'tq', { namespace: 'default', workflowId: 'wf' }, 1_700_000_000_000);
  run.append(
    'WORKFLOW_EXECUTION_STARTED',
    { workflowType: { name: 'Greet' }, taskQueue: { name: 'tq', kind: 1 }, input: { payloads: [jsonPayload('x'.repeat(300))] } },
    1_700_000_000_000,
  );
  run.append('WORKFLOW_TASK_SCHEDULED', { taskQueue: { name: 'tq', kind: 1 }, attempt: 1 }, 1_700_000_000_001);
  run.append('WORKFLOW_EXECUTION_SIGNALED', { signalName: 'big', input: { payloads: [jsonPayload('y'.repeat(40_000))] } }, 1_700_000_000_002);
  run.append('TIMER_STARTED', { timerId: '1', startToFireTimeout: { seconds: 10, nanos: 0 } }, 1_700_000_000_003, { summary: jsonPayload('a timer') });
  return run;
}

describe('devserver history encoding', function () {
  it('encodes each event to the bytes protobufjs writes for it', () => {
    const run = sampleRun();
    const odd: HistoryEvent[] = [
      // Field numbers past 15 and 300 (two-byte tags), repeated links, zeros and a 2^40 id.
      {
        ...run.history[1],
        eventId: 2 ** 40,
        version: 0,
        taskId: 0,
        workerMayIgnore: true,
        links: [{ workflowEvent: { namespace: 'default', workflowId: 'a' } }, { batchJob: { jobId: 'b' } }],
        userMetadata: { summary: jsonPayload('s') },
      } as HistoryEvent,
      // Not an event field: ignored, as protobufjs ignores it; false and empty lists not written.
      { ...run.history[3], notAField: 'x', workerMayIgnore: false, links: [] } as HistoryEvent,
      // An int64 given as a string: written by protobufjs itself.
      { ...run.history[2], eventId: '7' } as unknown as HistoryEvent,
    ];
    for (const ev of [...run.history, ...odd]) {
      expect(encodedEvent(ev).equals(encodeMessage(HistoryEventType, ev)), `event ${JSON.stringify(ev).slice(0, 80)}`).to.equal(true);
    }
  });

  it('appends the cached events to a response exactly as encoding the whole response would', () => {
    const run = sampleRun();
    const rest = { taskToken: Buffer.from('token'), workflowExecution: run.execution, startedEventId: 3, attempt: 1 };
    const whole = encodeMessage(PollResponse, { ...rest, history: { events: run.history } });
    const assembled = appendHistoryField(encodeMessage(PollResponse, rest), HISTORY_FIELD, run.history);
    expect(decodeMessage(PollResponse, assembled)).to.deep.equal(decodeMessage(PollResponse, whole));
    // Twice: the second time every event comes from the cache.
    expect(appendHistoryField(encodeMessage(PollResponse, rest), HISTORY_FIELD, run.history).equals(assembled)).to.equal(true);
    expect(decodeMessage(PollResponse, appendHistoryField(Buffer.alloc(0), HISTORY_FIELD, []))).to.deep.equal({ history: {} });
  });

  it("keeps history_size_bytes as the sum of the events' encoded sizes while the history grows", () => {
    const run = sampleRun();
    const fresh = (events: HistoryEvent[]) => events.reduce((n, ev) => n + encodeMessage(HistoryEventType, ev).length, 0);
    expect(run.historySizeBytes()).to.equal(fresh(run.history)).and.to.be.greaterThan(40_000);
    run.append('TIMER_FIRED', { timerId: '1', startedEventId: 4 }, 1_700_000_000_004);
    expect(run.historySizeBytes()).to.equal(fresh(run.history));
    expect(encodedEventSize(run.history[4])).to.equal(encodeMessage(HistoryEventType, run.history[4]).length);
  });

  it("stores a run with its events' cached base64 and restores the same history", () => {
    const run = sampleRun();
    run.memo = { note: jsonPayload('memo') };
    const json = storedToJson(toStored(run));
    // The same document the bytes replacer writes for the whole record.
    expect(parseJsonWithBytes(json)).to.deep.equal(parseJsonWithBytes(jsonWithBytes(toStored(run))));
    const stored = storedFromJson(json);
    expect(stored.encodedHistory).to.deep.equal(run.history.map((ev) => encodeMessage(HistoryEventType, ev).toString('base64')));
    expect(stored.encodedHistory![2]).to.equal(encodedEventBase64(run.history[2]));
    expect(stored.memo.note.data).to.deep.equal(Buffer.from('"memo"'));
    const restored = stored.encodedHistory!.map((b) => HistoryEventType.toObject(HistoryEventType.decode(Buffer.from(b, 'base64')), TO_OBJECT_OPTS));
    expect(restored).to.deep.equal(run.history.map((ev) => decodeMessage(HistoryEventType, encodeMessage(HistoryEventType, ev))));
  });

  describe('compressed requests', () => {
    let server: DevServer;
    before(async () => {
      server = await startDevServer({ port: 0, log: () => undefined });
    });
    after(() => server.shutdown());

    it('refuses only a compressed GetSystemInfo (sdk-core then reconnects uncompressed); other compressed calls work', async () => {
      const call = (client: grpc.Client, method: string, body: object, reqType: string) =>
        new Promise<unknown>((resolve, reject) => {
          client.makeUnaryRequest(
            `/temporal.api.workflowservice.v1.WorkflowService/${method}`,
            (o: object) => encodeMessage(protoType(reqType), o),
            (b: Buffer) => b,
            body,
            (err, res) => (err ? reject(err) : resolve(res)),
          );
        });
      const gzip = new grpc.Client(server.address, grpc.credentials.createInsecure(), {
        'grpc.default_compression_algorithm': grpc.compressionAlgorithms.gzip,
      });
      const plain = new grpc.Client(server.address, grpc.credentials.createInsecure());
      try {
        const refused = await call(gzip, 'GetSystemInfo', {}, 'temporal.api.workflowservice.v1.GetSystemInfoRequest').catch((e: grpc.ServiceError) => e);
        expect((refused as grpc.ServiceError).code).to.equal(grpc.status.UNIMPLEMENTED);
        expect((refused as grpc.ServiceError).details).to.match(/compressor/);
        await call(plain, 'GetSystemInfo', {}, 'temporal.api.workflowservice.v1.GetSystemInfoRequest');
        await call(gzip, 'DescribeNamespace', { namespace: 'default' }, 'temporal.api.workflowservice.v1.DescribeNamespaceRequest');
      } finally {
        gzip.close();
        plain.close();
      }
    });
  });
});
