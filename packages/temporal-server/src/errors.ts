// Errors the RPC layer turns into gRPC statuses. Semantic rejections must never surface as UNKNOWN
// or INTERNAL: both SDK clients retry those with backoff, which turns a clear "no" into a storm.
import { status as Status, Metadata } from '@grpc/grpc-js';
import { encodeMessage, protoType } from './proto';

export class RpcError extends Error {
  constructor(
    readonly code: Status,
    message: string,
    readonly details?: { typeUrl: string; value: Buffer },
  ) {
    super(message);
  }

  /** Metadata carrying a google.rpc.Status with one detail, the way Temporal's server sends failures. */
  metadata(): Metadata | undefined {
    if (!this.details) return undefined;
    const md = new Metadata();
    const statusBytes = encodeMessage(protoType('google.rpc.Status'), {
      code: this.code,
      message: this.message,
      details: [{ type_url: this.details.typeUrl, value: this.details.value }],
    });
    md.set('grpc-status-details-bin', statusBytes);
    return md;
  }
}

function detail(typeName: string, obj: object) {
  return { typeUrl: `type.googleapis.com/${typeName}`, value: encodeMessage(protoType(typeName), obj) };
}

export const notFound = (msg: string) => new RpcError(Status.NOT_FOUND, msg);
export const invalidArgument = (msg: string) => new RpcError(Status.INVALID_ARGUMENT, msg);
export const failedPrecondition = (msg: string) => new RpcError(Status.FAILED_PRECONDITION, msg);

export function namespaceNotFound(namespace: string) {
  return new RpcError(Status.NOT_FOUND, `Namespace ${namespace} is not found.`, detail('temporal.api.errordetails.v1.NamespaceNotFoundFailure', { namespace }));
}

export function alreadyStarted(workflowId: string, startRequestId: string, runId: string) {
  return new RpcError(
    Status.ALREADY_EXISTS,
    `Workflow execution is already running. WorkflowId: ${workflowId}, RunId: ${runId}.`,
    detail('temporal.api.errordetails.v1.WorkflowExecutionAlreadyStartedFailure', { startRequestId, runId }),
  );
}

export function activityAlreadyStarted(startRequestId: string, runId: string) {
  return new RpcError(
    Status.ALREADY_EXISTS,
    'activity execution already started',
    detail('temporal.api.errordetails.v1.ActivityExecutionAlreadyStartedFailure', { startRequestId, runId }),
  );
}

/** Marks an operation aborted because another one failed (clients skip these to find the real error). */
const ABORTED_DETAIL = detail('temporal.api.failure.v1.MultiOperationExecutionAborted', {});

/**
 * A failed operation of ExecuteMultiOperation: the error keeps the failed operation's code, and a
 * MultiOperationExecutionFailure detail gives each operation its status (the others aborted).
 */
export function multiOperationFailed(err: RpcError, index: number, count: number) {
  const statuses = Array.from({ length: count }, (_, i) =>
    i === index
      ? { code: err.code, message: err.message, details: err.details ? [{ type_url: err.details.typeUrl, value: err.details.value }] : [] }
      : { code: Status.ABORTED, message: 'Operation was aborted.', details: [{ type_url: ABORTED_DETAIL.typeUrl, value: ABORTED_DETAIL.value }] },
  );
  return new RpcError(err.code, err.message, detail('temporal.api.errordetails.v1.MultiOperationExecutionFailure', { statuses }));
}

/** RESOURCE_EXHAUSTED with the ResourceExhaustedFailure detail (cause CONCURRENT_LIMIT, namespace scope). */
export function concurrentLimitReached(message: string) {
  return new RpcError(
    Status.RESOURCE_EXHAUSTED,
    message,
    detail('temporal.api.errordetails.v1.ResourceExhaustedFailure', { cause: RESOURCE_EXHAUSTED_CONCURRENT_LIMIT, scope: RESOURCE_EXHAUSTED_SCOPE_NAMESPACE }),
  );
}
const RESOURCE_EXHAUSTED_CONCURRENT_LIMIT = 2;
const RESOURCE_EXHAUSTED_SCOPE_NAMESPACE = 1;

export function queryFailed(message: string, failure?: object) {
  return new RpcError(Status.INVALID_ARGUMENT, message, detail('temporal.api.errordetails.v1.QueryFailedFailure', failure ? { failure } : {}));
}
