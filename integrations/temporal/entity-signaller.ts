// How the API tells an entity's workflow that its state changed (ARCHITECTURE.md section 4):
// signal-with-start `{type, entityVersion}` to the entity's workflow, with a short deadline, BEFORE
// the database transaction commits. If Temporal cannot be reached the caller rolls back and answers
// 503, so no change exists without its workflow knowing.

export interface EntityEvent {
  type: string;
  entityVersion: number;
  [key: string]: unknown;
}

export interface EntityWorkflowRef {
  /** registered workflow function name, e.g. 'bookingWorkflow' */
  workflowType: string;
  /** deterministic id from the entity's helper, e.g. bookingWorkflowId(id) = 'booking:<id>' */
  workflowId: string;
  /** the single argument the workflow starts with when it does not exist yet */
  startArgs: unknown;
}

export interface EntitySignaller {
  signal(ref: EntityWorkflowRef, signalName: string, event: EntityEvent): Promise<void>;
  /** resolves when the workflow engine answers; used by GET /health */
  ping?(): Promise<void>;
}
