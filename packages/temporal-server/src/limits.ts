// Limits the real server enforces on what clients send (its frontend's defaults), so a call that
// would be refused in production is refused here too, with the same INVALID_ARGUMENT message.
import { invalidArgument } from './errors';

/** IDs and names (workflow id and type, task queue, request id, signal name, ...), in bytes. */
export const MAX_ID_LENGTH = 1000;

/** Throws INVALID_ARGUMENT "<what> length exceeds limit." for a value longer than MAX_ID_LENGTH bytes. */
export function checkIdLength(what: string, value: string | undefined): void {
  if (value && Buffer.byteLength(value) > MAX_ID_LENGTH) throw invalidArgument(`${what} length exceeds limit.`);
}

/** The checks the real server makes on a workflow start before it looks at any state. */
export function checkStartRequestIds(req: { workflowId?: string; workflowType?: { name?: string }; taskQueue?: { name?: string }; requestId?: string }): void {
  checkIdLength('WorkflowId', req.workflowId);
  checkIdLength('WorkflowType', req.workflowType?.name);
  checkIdLength('TaskQueue', req.taskQueue?.name);
  checkIdLength('RequestId', req.requestId);
}
