// The erasure request's workflow contract (docs/rules/consistency.md#the-entity-contract,
// docs/rules/personal-data.md#erasure): one workflow per request, `personalDataErasureWorkflow` with id
// `personal-data-erasure:<request id>`, started when the request is written (`personalDataErasureEvent`)
// and reading the request as an ErasureSnapshot: ids and states only, never the person.
// Pure: imported by the erasure service, its activities and the workflow.
import { entityContract, type EntityEvent } from '../workflow-signals/entity-contract.rules';

export type ErasureEventType = 'ErasureRequested';
export type ErasureEvent = EntityEvent<ErasureEventType>;

export interface ErasureWorkflowArgs {
  erasureId: string;
}

export interface ErasureSnapshot {
  erasureId: string;
  version: number;
  status: 'REQUESTED' | 'COMPLETED';
  /** a salon's customer record, or a customer account (and every salon record linked to it) */
  subject: 'CUSTOMER' | 'ACCOUNT';
}

export const erasureContract = entityContract<ErasureEventType, ErasureWorkflowArgs, ErasureSnapshot>({
  entity: 'personalDataErasure',
  idPrefix: 'personal-data-erasure',
  errorPrefix: 'ERASURE',
  startArgs: (e) => ({ erasureId: e.id }),
});

/** The cancellation reason an erasure writes on the bookings it cancels (kept: it names no one). */
export const ERASURE_CANCEL_REASON = 'Personal data erased';

/** The salon's retention timer (docs/rules/personal-data.md#retention): `customer-retention:<salon id>`. */
export const RETENTION_WORKFLOW_TYPE = 'customerRetentionWorkflow';
export const retentionWorkflowId = (tenantId: string) => `customer-retention:${tenantId}`;
/** The signal the starter loop sends a salon's timer (signal-with-start: it starts the timer when it is not running). */
export const RETENTION_ENSURED_SIGNAL = 'customerRetentionEnsured';
/** The platform-wide loop that makes sure every active salon has its timer, started by the worker. */
export const RETENTION_STARTER_WORKFLOW_TYPE = 'customerRetentionStarterWorkflow';
export const RETENTION_STARTER_WORKFLOW_ID = 'customer-retention-starter';
/** A sweep a day. */
export const RETENTION_SWEEP_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** Customers pseudonymised, or accounting records removed, per activity call (each customer in its own transaction). */
export const RETENTION_BATCH_SIZE = 50;
/** Salons made sure of per activity call of the starter loop. */
export const RETENTION_STARTER_BATCH_SIZE = 200;
