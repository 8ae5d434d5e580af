/**
 * Data access of payments, their events, refunds, configs and the webhook inbox; tenant-scoped
 * (another tenant's payment is 404 PAYMENT_NOT_FOUND). Rows are plain objects (camelCase here).
 */
import type { Knex } from 'knex';
import type { Db } from '../../db/db-handle';
import { errors } from '../errors';
import type { CaptureMode, FailureKind, PaymentIntent, PaymentStatus } from './payment.rules';

export interface PaymentRow {
  id: string;
  tenantId: string;
  bookingId: string;
  configId: string | null;
  provider: string | null;
  intent: PaymentIntent;
  captureMode: CaptureMode;
  status: PaymentStatus;
  amount: number;
  capturedAmount: number;
  refundedAmount: number;
  currency: string;
  idempotencyKey: string;
  providerSessionId: string | null;
  providerTransactionId: string | null;
  redirectUrl: string | null;
  expiresAt: Date | null;
  failedCount: number;
  failureKind: FailureKind | null;
  failureReason: string | null;
  captureRequestedAt: Date | null;
  voidRequestedAt: Date | null;
  authorizedAt: Date | null;
  capturedAt: Date | null;
  /** the provider confirmed after the payment expired here: what it holds, until released */
  lateOutcome: 'AUTHORIZED' | 'CAPTURED' | null;
  lateAmount: number | null;
  lateReleasedAt: Date | null;
  lateRelease: 'VOIDED' | 'REFUNDED' | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A payment before the database gives it an id, a version and its timestamps. */
export type NewPaymentRow = Omit<PaymentRow, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

export interface PaymentEventRow {
  id: string;
  paymentId: string;
  type: string;
  fromStatus: string | null;
  toStatus: string | null;
  amount: number | null;
  actorRole: string;
  actorUserId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

export interface RefundRow {
  id: string;
  paymentId: string;
  tenantId: string;
  amount: number;
  reason: string | null;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  idempotencyKey: string;
  providerRefundId: string | null;
  completedAt: Date | null;
  createdAt: Date;
}

export interface PaymentConfigRow {
  id: string;
  tenantId: string;
  provider: string;
  displayName: string;
  isTest: boolean;
  isActive: boolean;
  captureMode: CaptureMode;
  credentialsSealed: string;
  keyVersion: number;
  lastHealthCheckAt: Date | null;
  lastHealthCheckStatus: string | null;
  createdAt: Date;
  updatedAt: Date;
}

// ------------------------------------------------------------------ payments

export async function findPayment(db: Db, tenantId: string, id: string): Promise<PaymentRow> {
  const row = await db('payments').where({ tenantId, id }).first();
  if (!row) throw errors.notFound('payment');
  return row as PaymentRow;
}

/** By id alone: the workflow's activities (the id came from the tenant's own row). */
export async function paymentById(db: Db, id: string): Promise<PaymentRow | undefined> {
  return (await db('payments').where({ id }).first()) as PaymentRow | undefined;
}

export async function lockPayment(trx: Knex.Transaction, tenantId: string, id: string): Promise<PaymentRow> {
  const row = await trx('payments').where({ tenantId, id }).forUpdate().first();
  if (!row) throw errors.notFound('payment');
  return row as PaymentRow;
}

export async function lockPaymentById(trx: Knex.Transaction, id: string): Promise<PaymentRow | undefined> {
  return (await trx('payments').where({ id }).forUpdate().first()) as PaymentRow | undefined;
}

export async function paymentsOfBooking(db: Db, tenantId: string, bookingId: string): Promise<PaymentRow[]> {
  return (await db('payments').where({ tenantId, bookingId }).orderBy('createdAt', 'asc').orderBy('id', 'asc')) as PaymentRow[];
}

export async function lockPaymentsOfBooking(trx: Knex.Transaction, tenantId: string, bookingId: string): Promise<PaymentRow[]> {
  return (await trx('payments').where({ tenantId, bookingId }).orderBy('createdAt', 'asc').orderBy('id', 'asc').forUpdate()) as PaymentRow[];
}

export async function latestDepositOfBooking(db: Db, tenantId: string, bookingId: string): Promise<PaymentRow | undefined> {
  return (await db('payments').where({ tenantId, bookingId, intent: 'DEPOSIT' }).orderBy('createdAt', 'desc').orderBy('id', 'desc').first()) as PaymentRow | undefined;
}

export async function insertPaymentRow(trx: Knex.Transaction, row: NewPaymentRow & { version: number }): Promise<PaymentRow> {
  const [inserted] = await trx('payments').insert(row).returning('*');
  return inserted as PaymentRow;
}

/** Writes `changes` with version + 1 when the row is still at `row.version`; undefined when it moved. */
export async function updatePaymentVersioned(trx: Knex.Transaction, row: PaymentRow, changes: Partial<PaymentRow>): Promise<PaymentRow | undefined> {
  const [updated] = await trx('payments')
    .where({ id: row.id, version: row.version })
    .update({ ...changes, version: row.version + 1, updatedAt: trx.fn.now() })
    .returning('*');
  return updated as PaymentRow | undefined;
}

export async function pageOfPayments(db: Db, tenantId: string, filter: { status?: string[] }, page: { page: number; limit: number }): Promise<{ rows: PaymentRow[]; total: number }> {
  const base = db('payments').where({ tenantId });
  if (filter.status?.length) base.whereIn('status', filter.status);
  const [{ count }] = await base.clone().count({ count: '*' });
  const rows = await base.clone().orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(page.limit).offset((page.page - 1) * page.limit);
  return { rows: rows as PaymentRow[], total: Number(count) };
}

// ------------------------------------------------------------------ events

export async function insertPaymentEvent(
  trx: Knex.Transaction,
  payment: { id: string; tenantId: string },
  event: { type: string; fromStatus?: string | null; toStatus?: string | null; amount?: number | null; actorRole: string; actorUserId?: string | null; data?: Record<string, unknown> },
): Promise<void> {
  await trx('payment_events').insert({
    paymentId: payment.id,
    tenantId: payment.tenantId,
    type: event.type,
    fromStatus: event.fromStatus ?? null,
    toStatus: event.toStatus ?? null,
    amount: event.amount ?? null,
    actorRole: event.actorRole,
    actorUserId: event.actorUserId ?? null,
    data: JSON.stringify(event.data ?? {}),
  });
}

export async function eventsOfPayment(db: Db, paymentId: string): Promise<PaymentEventRow[]> {
  return (await db('payment_events').where({ paymentId }).orderBy('createdAt', 'asc').orderBy('id', 'asc')) as PaymentEventRow[];
}

// ------------------------------------------------------------------ refunds

export async function insertRefund(trx: Knex.Transaction, refund: { paymentId: string; tenantId: string; amount: number; reason: string | null; idempotencyKey: string }): Promise<RefundRow> {
  const [row] = await trx('payment_refunds').insert(refund).returning('*');
  return row as RefundRow;
}

export async function refundsOfPayment(db: Db, paymentId: string): Promise<RefundRow[]> {
  return (await db('payment_refunds').where({ paymentId }).orderBy('createdAt', 'asc').orderBy('id', 'asc')) as RefundRow[];
}

export async function pendingRefundCount(db: Db, paymentId: string): Promise<number> {
  const [{ count }] = await db('payment_refunds').where({ paymentId, status: 'PENDING' }).count({ count: '*' });
  return Number(count);
}

/**
 * Serialises the money a payment's transaction pays back (refunds, a late payment's release) until
 * the caller's transaction ends: a provider without idempotency keys is read, then paid, by one
 * caller at a time.
 */
export async function lockPayouts(trx: Knex.Transaction, paymentId: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`payment-payouts:${paymentId}`]);
}

/** Compare-and-set PENDING -> status; true when this call made the change. */
export async function settleRefund(trx: Db, refundId: string, status: 'SUCCEEDED' | 'FAILED', providerRefundId: string | null): Promise<boolean> {
  const n = await trx('payment_refunds').where({ id: refundId, status: 'PENDING' }).update({ status, providerRefundId, completedAt: trx.fn.now() });
  return n === 1;
}

// ------------------------------------------------------------------ configs

export async function findConfig(db: Db, tenantId: string, id: string): Promise<PaymentConfigRow> {
  const row = await db('payment_configs').where({ tenantId, id }).first();
  if (!row) throw errors.notFound('paymentConfig', 'payment config not found');
  return row as PaymentConfigRow;
}

export async function configById(db: Db, id: string): Promise<PaymentConfigRow | undefined> {
  return (await db('payment_configs').where({ id }).first()) as PaymentConfigRow | undefined;
}

export async function lockConfig(trx: Knex.Transaction, tenantId: string, id: string): Promise<PaymentConfigRow> {
  const row = await trx('payment_configs').where({ tenantId, id }).forUpdate().first();
  if (!row) throw errors.notFound('paymentConfig', 'payment config not found');
  return row as PaymentConfigRow;
}

export async function activeConfig(db: Db, tenantId: string): Promise<PaymentConfigRow | undefined> {
  return (await db('payment_configs').where({ tenantId, isActive: true }).first()) as PaymentConfigRow | undefined;
}

export async function configsOfTenant(db: Db, tenantId: string): Promise<PaymentConfigRow[]> {
  return (await db('payment_configs').where({ tenantId }).orderBy('createdAt', 'asc').orderBy('id', 'asc')) as PaymentConfigRow[];
}

export async function insertConfig(trx: Db, row: Partial<PaymentConfigRow>): Promise<PaymentConfigRow> {
  const [inserted] = await trx('payment_configs').insert(row).returning('*');
  return inserted as PaymentConfigRow;
}

export async function updateConfig(trx: Db, tenantId: string, id: string, changes: Partial<PaymentConfigRow>): Promise<PaymentConfigRow> {
  const [row] = await trx('payment_configs').where({ tenantId, id }).update({ ...changes, updatedAt: trx.fn.now() }).returning('*');
  if (!row) throw errors.notFound('paymentConfig', 'payment config not found');
  return row as PaymentConfigRow;
}

export async function deactivateConfigs(trx: Db, tenantId: string): Promise<void> {
  await trx('payment_configs').where({ tenantId, isActive: true }).update({ isActive: false, updatedAt: trx.fn.now() });
}

export async function deleteConfig(trx: Db, tenantId: string, id: string): Promise<void> {
  const n = await trx('payment_configs').where({ tenantId, id }).delete();
  if (n === 0) throw errors.notFound('paymentConfig', 'payment config not found');
}

// ------------------------------------------------------------------ webhook inbox

/** Claims the provider event id; false when it was seen before (a redelivery). */
export async function claimWebhook(
  trx: Db,
  row: { provider: string; providerEventId: string; tenantId: string; paymentId: string | null; eventType: string; payload: Record<string, unknown>; outcome: string },
): Promise<boolean> {
  const inserted = await trx('payment_webhook_inbox')
    .insert({ ...row, payload: JSON.stringify(row.payload) })
    .onConflict(['provider', 'provider_event_id'])
    .ignore()
    .returning('id');
  return inserted.length === 1;
}
