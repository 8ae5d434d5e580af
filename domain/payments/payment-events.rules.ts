// The payment's workflow contract (docs/rules/consistency.md#the-entity-contract): one workflow per
// payment, `paymentWorkflow` with id `payment:<id>`, told about every committed change of the payment
// row by the signal `paymentEvent` `{type, entityVersion}`, reading the payment as a PaymentSnapshot.
// Pure: imported by the payment services, the activities and the workflow.
import { entityContract, type EntityEvent } from '../workflow-signals/entity-contract.rules';
import type { CaptureMode, FailureKind, PaymentIntent, PaymentStatus } from './payment.rules';

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
  | 'PaymentRefundFailed'
  | 'PaymentConfirmedLate'
  | 'PaymentLateReleased';

export type PaymentEvent = EntityEvent<PaymentEventType>;

export interface PaymentWorkflowArgs {
  paymentId: string;
  tenantId: string;
}

/** The payment as its workflow reads it (the read activity, once the event's version committed). */
export interface PaymentSnapshot {
  paymentId: string;
  tenantId: string;
  bookingId: string;
  status: PaymentStatus;
  version: number;
  intent: PaymentIntent;
  captureMode: CaptureMode;
  /** UTC ISO, or null */
  expiresAt: string | null;
  hasSession: boolean;
  captureRequested: boolean;
  voidRequested: boolean;
  pendingRefunds: number;
  failedCount: number;
  failureKind: FailureKind | null;
  /** the provider confirmed after the payment expired here (null: it did not) */
  lateOutcome: 'AUTHORIZED' | 'CAPTURED' | null;
  /** that late money was voided or refunded at the provider */
  lateReleased: boolean;
  /** its provider is asked how the payment stands when a webhook is late (Vipps); absent in runs read before polling */
  polled?: boolean;
}

export const paymentContract = entityContract<PaymentEventType, PaymentWorkflowArgs, PaymentSnapshot>({
  entity: 'payment',
  startArgs: (p) => ({ paymentId: p.id, tenantId: p.tenantId }),
});
