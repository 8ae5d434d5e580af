// Typed views of the temporal.api protobuf messages as they travel through this server. Requests
// are decoded with int64 and enums as numbers and without defaults (proto.ts), and responses are
// built in that same shape, so `Plain<T>` turns a generated protobufjs type into exactly that: Long
// becomes number, null becomes absent, every field is optional. Types only: at run time the
// server uses the reflection root in proto.ts, never the generated classes.
import type { ServerUnaryCall } from '@grpc/grpc-js';
import type Long from 'long';
import type { google, temporal } from '@temporalio/proto';

type Fn = (...args: never[]) => unknown;

/** A generated message type in decoded (plain object) form. */
export type Plain<T> = T extends Long
  ? number
  : T extends Uint8Array
    ? Uint8Array
    : T extends readonly (infer U)[]
      ? Plain<U>[]
      : T extends Fn
        ? never
        : string extends keyof T
          ? { [key: string]: Plain<Exclude<T[string & keyof T], null>> }
          : T extends object
            ? { [K in keyof T as T[K] extends Fn ? never : K]?: Plain<Exclude<T[K], null>> }
            : T;

export type Payload = Plain<temporal.api.common.v1.IPayload>;
export type Payloads = Plain<temporal.api.common.v1.IPayloads>;
export type Header = Plain<temporal.api.common.v1.IHeader>;
export type Memo = Plain<temporal.api.common.v1.IMemo>;
export type SearchAttributes = Plain<temporal.api.common.v1.ISearchAttributes>;
export type RetryPolicy = Plain<temporal.api.common.v1.IRetryPolicy>;
export type WorkflowExecution = Plain<temporal.api.common.v1.IWorkflowExecution>;
export type WorkflowType = Plain<temporal.api.common.v1.IWorkflowType>;
export type Priority = Plain<temporal.api.common.v1.IPriority>;
export type Failure = Plain<temporal.api.failure.v1.IFailure>;
export type Timestamp = Plain<google.protobuf.ITimestamp>;
export type Duration = Plain<google.protobuf.IDuration>;
export type TaskQueue = Plain<temporal.api.taskqueue.v1.ITaskQueue>;
export type Command = Plain<temporal.api.command.v1.ICommand>;
export type ProtocolMessage = Plain<temporal.api.protocol.v1.IMessage>;
export type WorkflowQuery = Plain<temporal.api.query.v1.IWorkflowQuery>;
export type WorkflowQueryResult = Plain<temporal.api.query.v1.IWorkflowQueryResult>;
export type UpdateRequest = Plain<temporal.api.update.v1.IRequest>;
export type UpdateOutcome = Plain<temporal.api.update.v1.IOutcome>;
export type WorkflowExecutionInfo = Plain<temporal.api.workflow.v1.IWorkflowExecutionInfo>;
export type UserMetadata = Plain<temporal.api.sdk.v1.IUserMetadata>;

export type StartWorkflowRequest = Plain<temporal.api.workflowservice.v1.IStartWorkflowExecutionRequest>;
export type SignalWithStartRequest = Plain<temporal.api.workflowservice.v1.ISignalWithStartWorkflowExecutionRequest>;
export type PollWorkflowTaskResponse = Plain<temporal.api.workflowservice.v1.IPollWorkflowTaskQueueResponse>;
export type PollActivityTaskResponse = Plain<temporal.api.workflowservice.v1.IPollActivityTaskQueueResponse>;
export type RespondWorkflowTaskCompletedRequest = Plain<temporal.api.workflowservice.v1.IRespondWorkflowTaskCompletedRequest>;
export type RespondWorkflowTaskCompletedResponse = Plain<temporal.api.workflowservice.v1.IRespondWorkflowTaskCompletedResponse>;
export type RespondWorkflowTaskFailedRequest = Plain<temporal.api.workflowservice.v1.IRespondWorkflowTaskFailedRequest>;
export type QueryWorkflowRequest = Plain<temporal.api.workflowservice.v1.IQueryWorkflowRequest>;
export type QueryWorkflowResponse = Plain<temporal.api.workflowservice.v1.IQueryWorkflowResponse>;
export type UpdateWorkflowRequest = Plain<temporal.api.workflowservice.v1.IUpdateWorkflowExecutionRequest>;
export type UpdateWorkflowResponse = Plain<temporal.api.workflowservice.v1.IUpdateWorkflowExecutionResponse>;
export type PollUpdateRequest = Plain<temporal.api.workflowservice.v1.IPollWorkflowExecutionUpdateRequest>;
export type PollUpdateResponse = Plain<temporal.api.workflowservice.v1.IPollWorkflowExecutionUpdateResponse>;
export type ListWorkflowsRequest = Plain<temporal.api.workflowservice.v1.IListWorkflowExecutionsRequest>;
export type ListWorkflowsResponse = Plain<temporal.api.workflowservice.v1.IListWorkflowExecutionsResponse>;
export type CountWorkflowsRequest = Plain<temporal.api.workflowservice.v1.ICountWorkflowExecutionsRequest>;
export type CountWorkflowsResponse = Plain<temporal.api.workflowservice.v1.ICountWorkflowExecutionsResponse>;
export type StartActivityRequest = Plain<temporal.api.workflowservice.v1.IStartActivityExecutionRequest>;
export type StartActivityResponse = Plain<temporal.api.workflowservice.v1.IStartActivityExecutionResponse>;
export type DescribeActivityRequest = Plain<temporal.api.workflowservice.v1.IDescribeActivityExecutionRequest>;
export type DescribeActivityResponse = Plain<temporal.api.workflowservice.v1.IDescribeActivityExecutionResponse>;
export type ActivityExecutionInfo = Plain<temporal.api.activity.v1.IActivityExecutionInfo>;
export type ActivityExecutionListInfo = Plain<temporal.api.activity.v1.IActivityExecutionListInfo>;
export type ActivityExecutionOutcome = Plain<temporal.api.activity.v1.IActivityExecutionOutcome>;
export type PendingActivityInfo = Plain<temporal.api.workflow.v1.IPendingActivityInfo>;

// ---------------------------------------------------------------- history events and commands

type HistoryEventFields = Plain<temporal.api.history.v1.IHistoryEvent>;
/** A written history event: id, time and type are always set. */
export type HistoryEvent = HistoryEventFields & { eventId: number; eventType: number; eventTime: Timestamp; taskId: number };

type StripPrefix<T, P extends string> = T extends `${P}${infer S}` ? S : never;
/** 'WORKFLOW_EXECUTION_STARTED' -> 'workflowExecutionStarted' (the proto field naming). */
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${Lowercase<H>}${Capitalize<Camel<T>>}` : Lowercase<S>;

/** Event type names without the EVENT_TYPE_ prefix, as proto.ts's EventType helper takes them. */
export type EventName = Exclude<StripPrefix<keyof typeof temporal.api.enums.v1.EventType, 'EVENT_TYPE_'>, 'UNSPECIFIED'>;
/** The attributes message of one event type, e.g. EventAttributes<'TIMER_FIRED'>. */
export type EventAttributes<E extends EventName> = NonNullable<HistoryEventFields[`${Camel<E>}EventAttributes` & keyof HistoryEventFields]>;
/** One event to write, type and attributes matching. */
export type NewEvent = { [E in EventName]: { type: E; attrs: EventAttributes<E> } }[EventName];

export type CommandName = Exclude<StripPrefix<keyof typeof temporal.api.enums.v1.CommandType, 'COMMAND_TYPE_'>, 'UNSPECIFIED'>;
export type CommandAttributes<C extends CommandName> = NonNullable<Command[`${Camel<C>}CommandAttributes` & keyof Command]>;

// ---------------------------------------------------------------- gRPC handler tables

export type Call = ServerUnaryCall<unknown, unknown>;
type Methods<S> = { [K in keyof S as S[K] extends { readonly name: infer N extends string; readonly requestType: string } ? N : never]: S[K] };
type RequestOf<M> = M extends { (request: infer Req): Promise<unknown> } ? Req : never;
type ResponseOf<M> = M extends { (request: never): Promise<infer Res> } ? Res : never;
/** Handlers of a generated service, keyed by RPC name, each typed by its request and response. */
export type ServiceHandlers<S> = {
  [N in keyof Methods<S>]?: (req: Plain<RequestOf<Methods<S>[N]>>, call: Call) => Plain<ResponseOf<Methods<S>[N]>> | Promise<Plain<ResponseOf<Methods<S>[N]>>>;
};
export type WorkflowServiceHandlers = ServiceHandlers<temporal.api.workflowservice.v1.WorkflowService>;
export type OperatorServiceHandlers = ServiceHandlers<temporal.api.operatorservice.v1.OperatorService>;
export type TestServiceHandlers = ServiceHandlers<temporal.api.testservice.v1.TestService>;

// ---------------------------------------------------------------- schedules

export type Schedule = Plain<temporal.api.schedule.v1.ISchedule>;
export type ScheduleSpec = Plain<temporal.api.schedule.v1.IScheduleSpec>;
export type StructuredCalendarSpec = Plain<temporal.api.schedule.v1.IStructuredCalendarSpec>;
export type CalendarRange = Plain<temporal.api.schedule.v1.IRange>;
export type ScheduleInfo = Plain<temporal.api.schedule.v1.IScheduleInfo>;
export type SchedulePatch = Plain<temporal.api.schedule.v1.ISchedulePatch>;
export type ScheduleActionResult = Plain<temporal.api.schedule.v1.IScheduleActionResult>;
export type ScheduleListEntry = Plain<temporal.api.schedule.v1.IScheduleListEntry>;
export type NewWorkflowExecutionInfo = Plain<temporal.api.workflow.v1.INewWorkflowExecutionInfo>;
