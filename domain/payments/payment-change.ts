/**
 * The write side every payment state change shares (docs/rules/consistency.md#the-change-primitive): the payment row gets
 * version + 1, an event row is written, and `payment:<id>` is signalled BEFORE the caller's
 * transaction commits (a failed signal throws 503 WORKFLOW_UNAVAILABLE and rolls everything back).
 */
import type { Knex } from 'knex';
import crypto from 'node:crypto';
import { errors } from '../errors';
import { signalEntity } from '../workflow-signals/signal-entity';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import type { CredentialKeyring } from '../crypto/credential-cipher';
import { PAYMENT_EVENT_SIGNAL, PAYMENT_WORKFLOW_TYPE, paymentWorkflowId, type PaymentEventType } from './payment-events.rules';
import { insertPaymentEvent, insertPaymentRow, updatePaymentVersioned, type NewPaymentRow, type PaymentRow } from './payment.repository';
import type { PaymentProviders } from './payment-provider';

/** What the payment services need: the database, the workflow port, the credential keys and the providers. */
export interface PaymentDeps {
  knex: Knex;
  signaller: EntitySignaller;
  keyring: CredentialKeyring;
  providers: PaymentProviders;
  /** HMAC key of booking cancellation tokens (the guest's proof of a booking) */
  secret: string;
  now?: () => Date;
}

export const nowOfPayments = (deps: { now?: () => Date }): Date => deps.now?.() ?? new Date();

export interface PaymentActor {
  role: 'OWNER' | 'ADMIN' | 'STAFF' | 'CUSTOMER' | 'SYSTEM' | 'PROVIDER';
  userId?: string | null;
}

export const SYSTEM: PaymentActor = { role: 'SYSTEM' };

export async function signalPayment(signaller: EntitySignaller, p: { id: string; tenantId: string }, type: PaymentEventType, entityVersion: number): Promise<void> {
  await signalEntity(
    signaller,
    'payment',
    { workflowType: PAYMENT_WORKFLOW_TYPE, workflowId: paymentWorkflowId(p.id), startArgs: { paymentId: p.id, tenantId: p.tenantId } },
    PAYMENT_EVENT_SIGNAL,
    { type, entityVersion },
  );
}

export function newIdempotencyKey(prefix: string): string {
  return `${prefix}:${crypto.randomUUID()}`;
}

type NewPaymentFields = Pick<NewPaymentRow, 'tenantId' | 'bookingId' | 'configId' | 'provider' | 'intent' | 'captureMode' | 'status' | 'amount' | 'currency' | 'expiresAt'>
  & Partial<Pick<NewPaymentRow, 'failedCount' | 'failureKind' | 'failureReason'>>;

/** A payment as every new one starts: its own idempotency key, nothing captured, refunded or requested. */
export function newPaymentRow(fields: NewPaymentFields): NewPaymentRow {
  return {
    capturedAmount: 0,
    refundedAmount: 0,
    idempotencyKey: newIdempotencyKey('pay'),
    providerSessionId: null,
    providerTransactionId: null,
    redirectUrl: null,
    failedCount: 0,
    failureKind: null,
    failureReason: null,
    captureRequestedAt: null,
    voidRequestedAt: null,
    authorizedAt: null,
    capturedAt: null,
    ...fields,
  };
}

/** Inserts a payment at version 1 with its first event; signals its workflow before commit. */
export async function insertPayment(
  signaller: EntitySignaller,
  trx: Knex.Transaction,
  row: NewPaymentRow,
  actor: PaymentActor,
  options: { signal?: boolean; data?: Record<string, unknown> } = {},
): Promise<PaymentRow> {
  const inserted = await insertPaymentRow(trx, { ...row, version: 1 });
  await insertPaymentEvent(trx, inserted, { type: 'PaymentInitiated', toStatus: inserted.status, amount: inserted.amount, actorRole: actor.role, actorUserId: actor.userId, data: options.data });
  if (options.signal !== false) await signalPayment(signaller, inserted, 'PaymentInitiated', 1);
  return inserted;
}

/** One change of a locked (or compare-and-set) payment row: version + 1, event row, signal. */
export async function changePayment(
  signaller: EntitySignaller,
  trx: Knex.Transaction,
  row: PaymentRow,
  changes: Partial<PaymentRow>,
  event: { type: PaymentEventType; actor: PaymentActor; amount?: number | null; data?: Record<string, unknown> },
): Promise<PaymentRow> {
  const updated = await updatePaymentVersioned(trx, row, changes);
  if (!updated) throw errors.conflict('PAYMENT_CONCURRENT_UPDATE', 'The payment changed at the same time; please try again');
  await insertPaymentEvent(trx, row, {
    type: event.type,
    fromStatus: row.status,
    toStatus: updated.status,
    amount: event.amount ?? null,
    actorRole: event.actor.role,
    actorUserId: event.actor.userId,
    data: event.data,
  });
  await signalPayment(signaller, row, event.type, updated.version);
  return updated;
}
