// The domain's port for telling an entity's workflow that its state changed (docs/rules/consistency.md#signal-before-commit):
// signal-with-start `{type, entityVersion}` to the entity's workflow, with a short deadline, BEFORE
// the database transaction commits. If Temporal cannot be reached the caller rolls back and answers
// 503, so no change exists without its workflow knowing. integrations/temporal implements it; the
// domain calls it through signalEntity (signal-entity.ts), which turns any failure into that 503.

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
