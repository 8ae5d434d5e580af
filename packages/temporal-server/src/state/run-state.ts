// Conversion between a live Run and the plain record stored by a RunStore. Timer handles, task
// queue entries, waiters and queries are runtime-only: they are re-created on restore.
//
// The history is stored as each event's protobuf encoding in base64, the bytes already cached for
// poll responses: a run is rewritten on every change, and JSON-walking its events with the bytes
// replacer cost several times more CPU and twice the row size. Rows written before this (events
// as JSON in `history`) still load.
import type { HistoryEvent, Payload } from '../messages';
import { encodedEventBase64 } from '../history/encoded-events';
import { decodeMessage, protoType } from '../proto';
import { ActivityState, ChildState, Run, RunStartRequest, UpdateState } from './run';

type StoredActivity = Omit<ActivityState, 'attemptTimers' | 'scheduleToCloseTimer' | 'retryTimer'>;
type StoredUpdate = Omit<UpdateState, 'waiters'>;

export interface StoredRun {
  v: 1;
  seq: number;
  namespace: string;
  workflowId: string;
  runId: string;
  firstRunId: string;
  workflowType: string;
  taskQueue: string;
  startRequest: RunStartRequest;
  startTime: number;
  /** Each event's protobuf encoding, base64. */
  encodedHistory?: string[];
  /** Events as JSON (rows written before encodedHistory). */
  history?: HistoryEvent[];
  status: number;
  closeTime: number;
  executionTime: number;
  memo: Record<string, Payload>;
  searchAttributes: Record<string, Payload>;
  wft: { state: Run['wft']['state']; scheduledEventId: number; startedEventId: number; attempt: number; scheduledTime: number; startedTime: number };
  lastCompletedStartedId: number;
  buffered: Run['buffered'];
  activities: StoredActivity[];
  timers: [string, { startedEventId: number; due: number }][];
  children: ChildState[];
  requestIds: string[];
  cancelRequested: boolean;
  startDelayPending: boolean;
  parent?: Run['parent'];
  parentClosePolicy: number;
  updates?: StoredUpdate[];
}

export function toStored(run: Run): StoredRun {
  const { wft } = run;
  return {
    v: 1,
    seq: run.seq,
    namespace: run.namespace,
    workflowId: run.workflowId,
    runId: run.runId,
    firstRunId: run.firstRunId,
    workflowType: run.workflowType,
    taskQueue: run.taskQueue,
    startRequest: run.startRequest,
    startTime: run.startTime,
    encodedHistory: run.history.map(encodedEventBase64),
    status: run.status,
    closeTime: run.closeTime,
    executionTime: run.executionTime,
    memo: run.memo,
    searchAttributes: run.searchAttributes,
    wft: {
      state: wft.state,
      scheduledEventId: wft.scheduledEventId,
      startedEventId: wft.startedEventId,
      attempt: wft.attempt,
      scheduledTime: wft.scheduledTime,
      startedTime: wft.startedTime,
    },
    lastCompletedStartedId: run.lastCompletedStartedId,
    buffered: run.buffered,
    activities: [...run.activities.values()].map(({ attemptTimers: _a, scheduleToCloseTimer: _s, retryTimer: _r, ...data }) => data),
    timers: [...run.timers.entries()].map(([id, t]) => [id, { startedEventId: t.startedEventId, due: t.due }]),
    children: [...run.children.values()],
    requestIds: [...run.requestIds],
    cancelRequested: run.cancelRequested,
    startDelayPending: run.startDelayPending,
    parent: run.parent,
    parentClosePolicy: run.parentClosePolicy,
    updates: [...run.updates.values()].map(({ waiters: _w, ...data }) => data),
  };
}

/** Rebuilds the data part of a run; the caller re-arms timers and re-queues tasks. */
export function fromStored(s: StoredRun): Run {
  const run = new Run(s.namespace, s.workflowId, s.runId, s.firstRunId, s.workflowType, s.taskQueue, s.startRequest, s.startTime);
  run.seq = s.seq;
  run.history = s.encodedHistory ? s.encodedHistory.map(decodeEvent) : (s.history ?? []);
  run.status = s.status;
  run.closeTime = s.closeTime;
  run.executionTime = s.executionTime;
  run.memo = s.memo;
  run.searchAttributes = s.searchAttributes;
  run.wft = { ...s.wft, queries: new Map() };
  run.lastCompletedStartedId = s.lastCompletedStartedId;
  run.buffered = s.buffered;
  for (const a of s.activities) run.activities.set(a.scheduledEventId, { ...a, attemptTimers: [] });
  // Timers are re-armed on resume (that needs the clock); keep the data for it.
  run.timers = new Map(s.timers.map(([id, t]) => [id, { ...t, handle: { cancel() {} } }]));
  for (const c of s.children) run.children.set(c.initiatedEventId, c);
  run.requestIds = new Set(s.requestIds);
  run.cancelRequested = s.cancelRequested;
  run.startDelayPending = s.startDelayPending;
  run.parent = s.parent;
  run.parentClosePolicy = s.parentClosePolicy;
  for (const u of s.updates ?? []) run.updates.set(u.updateId, { ...u, waiters: new Set() });
  return run;
}

function decodeEvent(base64: string): HistoryEvent {
  return decodeMessage(protoType('temporal.api.history.v1.HistoryEvent'), Buffer.from(base64, 'base64')) as HistoryEvent;
}

/** A Buffer as JSON.stringify hands it to a replacer (after Buffer.prototype.toJSON). */
function isSerialisedBuffer(v: unknown): v is { type: 'Buffer'; data: number[] } {
  return typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'Buffer' && Array.isArray((v as { data?: unknown }).data);
}

function isEncodedBytes(v: unknown): v is { $b: string } {
  return typeof v === 'object' && v !== null && typeof (v as { $b?: unknown }).$b === 'string' && Object.keys(v).length === 1;
}

/** JSON with byte fields (payload data) kept as base64 (runs and schedules). */
export function jsonWithBytes(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v instanceof Uint8Array) return { $b: Buffer.from(v).toString('base64') };
    if (isSerialisedBuffer(v)) return { $b: Buffer.from(v.data).toString('base64') };
    return v;
  });
}

export function parseJsonWithBytes(text: string): unknown {
  return JSON.parse(text, (_k, v: unknown) => (isEncodedBytes(v) ? Buffer.from(v.$b, 'base64') : v));
}

export function storedToJson(s: StoredRun): string {
  // The history (most of a row) is base64 strings, which need neither the bytes replacer nor
  // escaping: it is joined on after the rest went through the replacer.
  const { encodedHistory, ...rest } = s;
  const head = jsonWithBytes(rest);
  if (!encodedHistory) return head;
  return `${head.slice(0, -1)},"encodedHistory":${JSON.stringify(encodedHistory)}}`;
}

export function storedFromJson(text: string): StoredRun {
  return parseJsonWithBytes(text) as StoredRun;
}
