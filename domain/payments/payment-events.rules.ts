// The payment's workflow contract (docs/rules/consistency.md#one-workflow-per-entity): one workflow per payment with id
// `payment:<id>`, told about every committed change of the payment row by `{type, entityVersion}`.
// Pure: imported by the payment services, the activities and the workflow.

export type PaymentEventType =
  | 'PaymentInitiated'
  | 'PaymentSessionCreated'
  | 'PaymentAuthorized'
  | 'PaymentCaptured'
  | 'PaymentFailed'
  | 'PaymentExpired'
  | 'PaymentVoided'
  | 'PaymentRefundRequested'
  | 'PaymentRefunded'
  | 'PaymentPartiallyRefunded'
  | 'PaymentCaptureRequested'
  | 'PaymentVoidRequested'
  | 'PaymentRefundFailed';

export interface PaymentEvent {
  type: PaymentEventType;
  /** the payment row's `version` after the change */
  entityVersion: number;
}

export interface PaymentWorkflowArgs {
  paymentId: string;
  tenantId: string;
}

export const PAYMENT_WORKFLOW_TYPE = 'paymentWorkflow';
export const PAYMENT_EVENT_SIGNAL = 'paymentEvent';

export function paymentWorkflowId(paymentId: string): string {
  return `payment:${paymentId}`;
}
