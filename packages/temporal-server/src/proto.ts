// Access to the Temporal protobuf descriptors shipped in @temporalio/proto, plus the small
// conversions (timestamps, durations, enums, payloads) every other module needs. Messages travel
// through the server as plain objects (int64 as numbers, enums as numbers), which is what
// protobufjs' fromObject/toObject understand; messages.ts types them.
import type { IConversionOptions, Root, Type } from 'protobufjs';
import type { Payload } from './messages';

// The reflection root (not the generated classes) gives us lookupType/lookupService by full name.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const root = require('@temporalio/proto/protos/json-module.js') as Root;

export type ProtoType = Type;

const typeCache = new Map<string, ProtoType>();
export function protoType(fullName: string): ProtoType {
  let t = typeCache.get(fullName);
  if (!t) {
    t = root.lookupType(fullName);
    typeCache.set(fullName, t);
  }
  return t;
}

export const TO_OBJECT_OPTS: IConversionOptions = { longs: Number, enums: Number, defaults: false };

/** Decodes wire bytes into the plain-object shape the server works with. */
export function decodeMessage(type: ProtoType, buf: Uint8Array): object {
  return type.toObject(type.decode(buf), TO_OBJECT_OPTS);
}
/**
 * Encodes a plain object. The server only builds objects in wire shape (numbers for int64 and
 * enums, {seconds, nanos} for times, Buffers for bytes), which protobufjs encodes directly; the
 * fromObject conversion pass is only needed (and used) as a fallback.
 */
export function encodeMessage(type: ProtoType, obj: object | undefined | null): Buffer {
  try {
    return asBuffer(type.encode(obj ?? {}).finish());
  } catch {
    return asBuffer(type.encode(type.fromObject(obj ?? {})).finish());
  }
}
/** protobufjs' writer already hands out Buffers on Node: no second copy. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function enumValues(name: string): Record<string, number> {
  return root.lookupEnum(name).values;
}
/** Enum lookup without the long prefix: enumValue('EventType', 'TIMER_FIRED'). */
function makeEnum(enumName: string, prefix: string) {
  const values = enumValues(`temporal.api.enums.v1.${enumName}`);
  const byShort: Record<string, number> = {};
  const byNumber: Record<number, string> = {};
  for (const [k, v] of Object.entries(values)) {
    const short = k.startsWith(prefix) ? k.slice(prefix.length) : k;
    byShort[short] = v;
    byNumber[v] = short;
  }
  return {
    v(short: string): number {
      const n = byShort[short];
      if (n === undefined) throw new Error(`unknown ${enumName} ${short}`);
      return n;
    },
    name(n: number): string | undefined {
      return byNumber[n];
    },
  };
}

export const EventType = makeEnum('EventType', 'EVENT_TYPE_');
export const CommandType = makeEnum('CommandType', 'COMMAND_TYPE_');
export const ExecStatus = makeEnum('WorkflowExecutionStatus', 'WORKFLOW_EXECUTION_STATUS_');
export const RetryState = makeEnum('RetryState', 'RETRY_STATE_');
export const TimeoutType = makeEnum('TimeoutType', 'TIMEOUT_TYPE_');
export const WftFailedCause = makeEnum('WorkflowTaskFailedCause', 'WORKFLOW_TASK_FAILED_CAUSE_');
export const ReusePolicy = makeEnum('WorkflowIdReusePolicy', 'WORKFLOW_ID_REUSE_POLICY_');
export const ConflictPolicy = makeEnum('WorkflowIdConflictPolicy', 'WORKFLOW_ID_CONFLICT_POLICY_');
export const ParentClosePolicy = makeEnum('ParentClosePolicy', 'PARENT_CLOSE_POLICY_');
export const QueryResultType = makeEnum('QueryResultType', 'QUERY_RESULT_TYPE_');
export const QueryRejectCondition = makeEnum('QueryRejectCondition', 'QUERY_REJECT_CONDITION_');
export const ContinueAsNewInitiator = makeEnum('ContinueAsNewInitiator', 'CONTINUE_AS_NEW_INITIATOR_');
export const StartChildFailedCause = makeEnum('StartChildWorkflowExecutionFailedCause', 'START_CHILD_WORKFLOW_EXECUTION_FAILED_CAUSE_');
export const ExternalFailedCause = makeEnum('SignalExternalWorkflowExecutionFailedCause', 'SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_');
export const CancelExternalFailedCause = makeEnum('CancelExternalWorkflowExecutionFailedCause', 'CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_');
export const HistoryFilter = makeEnum('HistoryEventFilterType', 'HISTORY_EVENT_FILTER_TYPE_');
export const IndexedValueType = makeEnum('IndexedValueType', 'INDEXED_VALUE_TYPE_');
export const WorkerVersioningMode = makeEnum('WorkerVersioningMode', 'WORKER_VERSIONING_MODE_');

// Values read on hot paths, looked up once.
const taskQueueKinds = enumValues('temporal.api.enums.v1.TaskQueueKind');
export const TaskQueueKind = { NORMAL: taskQueueKinds.TASK_QUEUE_KIND_NORMAL, STICKY: taskQueueKinds.TASK_QUEUE_KIND_STICKY };
const updateStages = enumValues('temporal.api.enums.v1.UpdateWorkflowExecutionLifecycleStage');
export const UpdateStage = {
  ADMITTED: updateStages.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED,
  ACCEPTED: updateStages.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ACCEPTED,
  COMPLETED: updateStages.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED,
};
const pendingActivityStates = enumValues('temporal.api.enums.v1.PendingActivityState');
export const PendingActivityState = {
  SCHEDULED: pendingActivityStates.PENDING_ACTIVITY_STATE_SCHEDULED,
  STARTED: pendingActivityStates.PENDING_ACTIVITY_STATE_STARTED,
  CANCEL_REQUESTED: pendingActivityStates.PENDING_ACTIVITY_STATE_CANCEL_REQUESTED,
  PAUSED: pendingActivityStates.PENDING_ACTIVITY_STATE_PAUSED,
  PAUSE_REQUESTED: pendingActivityStates.PENDING_ACTIVITY_STATE_PAUSE_REQUESTED,
};
export const ActivityStatus = makeEnum('ActivityExecutionStatus', 'ACTIVITY_EXECUTION_STATUS_');
export const ActivityReusePolicy = makeEnum('ActivityIdReusePolicy', 'ACTIVITY_ID_REUSE_POLICY_');
export const ActivityConflictPolicy = makeEnum('ActivityIdConflictPolicy', 'ACTIVITY_ID_CONFLICT_POLICY_');

/** 'WORKFLOW_EXECUTION_STARTED' -> 'workflowExecutionStartedEventAttributes' */
const attributeKeys = new Map<string, string>();
export function eventAttributesKey(shortType: string): string {
  let key = attributeKeys.get(shortType);
  if (!key) {
    key = `${shortType.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())}EventAttributes`;
    attributeKeys.set(shortType, key);
  }
  return key;
}

export interface Timestamp {
  seconds: number;
  nanos: number;
}
export function timestamp(ms: number): Timestamp {
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: Math.round((ms - seconds * 1000) * 1e6) };
}
export function timestampMs(t: { seconds?: number | null; nanos?: number | null } | undefined | null): number | undefined {
  if (!t) return undefined;
  return Number(t.seconds ?? 0) * 1000 + Math.floor(Number(t.nanos ?? 0) / 1e6);
}
/** Duration objects share the {seconds, nanos} shape. */
export const duration = timestamp;
export function durationMs(d: { seconds?: number | null; nanos?: number | null } | undefined | null): number {
  return timestampMs(d) ?? 0;
}

/** Decodes a json/plain payload (what the default data converter writes); undefined otherwise. */
export function payloadToJson(p: Payload | undefined): unknown {
  if (!p) return undefined;
  const enc = p.metadata?.encoding ? Buffer.from(p.metadata.encoding).toString() : '';
  if (enc === 'binary/null') return null;
  if (enc !== 'json/plain' || !p.data) return undefined;
  try {
    return JSON.parse(Buffer.from(p.data).toString());
  } catch {
    return undefined;
  }
}
export function jsonPayload(value: unknown): Payload {
  return { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from(JSON.stringify(value)) };
}

export const OverlapPolicy = makeEnum('ScheduleOverlapPolicy', 'SCHEDULE_OVERLAP_POLICY_');
