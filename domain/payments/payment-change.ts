/**
 * Every change of a payment goes through the change primitive (docs/rules/consistency.md#the-change-primitive):
 * the payment row gets version + 1, an event row is written, and `payment:<id>` is signalled BEFORE
 * the caller's transaction commits (a failed signal throws 503 WORKFLOW_UNAVAILABLE and rolls
 * everything back).
 */
import type { Db, Transaction } from '../../db/db-handle';
import crypto from 'node:crypto';
import { errors } from '../errors';
import { changeEntity } from '../workflow-signals/entity-change';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import type { Clock } from '../time/clock';
import type { CredentialKeyring } from '../crypto/credential-cipher';
import { paymentContract, type PaymentEventType } from './payment-events.rules';
import { insertPaymentEvent, insertPaymentRow, updatePaymentVersioned, type NewPaymentRow, type PaymentRow } from './payment.repository';
import type { PaymentProviders } from './payment-provider';
import type { BookingHooks } from '../booking/booking-hooks';
import type { LinkKey } from '../crypto/link-key';

/** What the payment services need: the database, the workflow port, the credential keys and the providers. */
export interface PaymentDeps {
  knex: Db;
  signaller: EntitySignaller;
  keyring: CredentialKeyring;
  providers: PaymentProviders;
  /** the manage-link key of booking cancellation tokens (the guest's proof of a booking, docs/rules/security.md#keys) */
  manageLinkKey: LinkKey;
  /** the clock of the payment services (nowOf(deps)); unset: the system clock */
  now?: Clock;
  /** the booking changes payments makes (deposit status, a cancellation) tell the areas above booking (domain/booking/booking-hooks.ts) */
  bookingHooks: BookingHooks;
}

export interface PaymentActor {
  role: 'OWNER' | 'ADMIN' | 'STAFF' | 'CUSTOMER' | 'SYSTEM' | 'PROVIDER';
  userId?: string | null;
}

export const SYSTEM: PaymentActor = { role: 'SYSTEM' };

export function newIdempotencyKey(prefix: string): string {
  return `${prefix}:${crypto.randomUUID()}`;
}

type NewPaymentFields = Pick<
  NewPaymentRow,
  'tenantId' | 'bookingId' | 'configId' | 'provider' | 'intent' | 'captureMode' | 'status' | 'amount' | 'currency' | 'expiresAt'
> &
  Partial<Pick<NewPaymentRow, 'failedCount' | 'failureKind' | 'failureReason'>>;

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
    lateOutcome: null,
    lateAmount: null,
    lateReleasedAt: null,
    lateRelease: null,
    ...fields,
  };
}

/** Inserts a payment at version 1 with its first event; signals its workflow before commit. */
export async function insertPayment(
  signaller: EntitySignaller,
  trx: Transaction,
  row: NewPaymentRow,
  actor: PaymentActor,
  options: { signal?: boolean; data?: Record<string, unknown> } = {},
): Promise<PaymentRow> {
  const inserted = await changeEntity(signaller, paymentContract, {
    write: () => insertPaymentRow(trx, { ...row, version: 1 }),
    record: (p) =>
      insertPaymentEvent(trx, p, {
        type: 'PaymentInitiated',
        toStatus: p.status,
        amount: p.amount,
        actorRole: actor.role,
        actorUserId: actor.userId,
        data: options.data,
      }),
    event: options.signal === false ? null : 'PaymentInitiated',
  });
  return inserted;
}

/** One change of a locked (or compare-and-set) payment row: version + 1, event row, signal. */
export async function changePayment(
  signaller: EntitySignaller,
  trx: Transaction,
  row: PaymentRow,
  changes: Partial<PaymentRow>,
  event: { type: PaymentEventType; actor: PaymentActor; amount?: number | null; data?: Record<string, unknown> },
): Promise<PaymentRow> {
  const updated = await changeEntity(signaller, paymentContract, {
    write: () => updatePaymentVersioned(trx, row, changes),
    record: (written) =>
      insertPaymentEvent(trx, row, {
        type: event.type,
        fromStatus: row.status,
        toStatus: written.status,
        amount: event.amount ?? null,
        actorRole: event.actor.role,
        actorUserId: event.actor.userId,
        data: event.data,
      }),
    event: event.type,
  });
  if (!updated) throw errors.conflict('PAYMENT_CONCURRENT_UPDATE', 'The payment changed at the same time; please try again');
  return updated;
}
