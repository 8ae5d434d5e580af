/**
 * Data access of payments, their events, refunds, configs and the webhook inbox; tenant-scoped
 * (another tenant's payment is 404 PAYMENT_NOT_FOUND). Queries go through the models of db/models
 * with the caller's handle; rows are plain objects (camelCase here), typed with the domain's enums.
 */
import { fn } from 'objection';
import { advisoryTransactionLock } from '../../db/advisory-locks';
import type { Db, Transaction } from '../../db/db-handle';
import { PaymentModel } from '../../db/models/payment.model';
import { PaymentEventModel } from '../../db/models/payment-event.model';
import { PaymentRefundModel } from '../../db/models/payment-refund.model';
import { PaymentConfigModel } from '../../db/models/payment-config.model';
import { PaymentWebhookInboxModel } from '../../db/models/payment-webhook-inbox.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, returnedRows } from '../../db/plain';
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

/** db/ types the enums as strings; the domain's rows narrow them. */
const paymentRow = (model: PaymentModel): PaymentRow => plain(model) as unknown as PaymentRow;
const configRow = (model: PaymentConfigModel): PaymentConfigRow => plain(model) as unknown as PaymentConfigRow;
const configNotFound = () => errors.notFound('paymentConfig', 'payment config not found');

export async function findPayment(db: Db, tenantId: string, id: string): Promise<PaymentRow> {
  const row = await PaymentModel.query(db).findOne({ tenantId, id });
  if (!row) throw errors.notFound('payment');
  return paymentRow(row);
}

/** By id alone: the workflow's activities (the id came from the tenant's own row). */
export async function paymentById(db: Db, id: string): Promise<PaymentRow | undefined> {
  const row = await PaymentModel.query(db).findById(id);
  return row && paymentRow(row);
}

export async function lockPayment(trx: Transaction, tenantId: string, id: string): Promise<PaymentRow> {
  const row = await lockPaymentOfTenant(trx, tenantId, id);
  if (!row) throw errors.notFound('payment');
  return row;
}

/** SELECT ... FOR UPDATE of the tenant's payment, or undefined (a webhook may name an unknown one). */
export async function lockPaymentOfTenant(trx: Transaction, tenantId: string, id: string): Promise<PaymentRow | undefined> {
  const row = await PaymentModel.query(trx).findOne({ tenantId, id }).forUpdate();
  return row && paymentRow(row);
}

export async function lockPaymentById(trx: Transaction, id: string): Promise<PaymentRow | undefined> {
  const row = await PaymentModel.query(trx).findById(id).forUpdate();
  return row && paymentRow(row);
}

export async function paymentsOfBooking(db: Db, tenantId: string, bookingId: string): Promise<PaymentRow[]> {
  return (await PaymentModel.query(db).where({ tenantId, bookingId }).orderBy('createdAt', 'asc').orderBy('id', 'asc')).map(paymentRow);
}

export async function lockPaymentsOfBooking(trx: Transaction, tenantId: string, bookingId: string): Promise<PaymentRow[]> {
  return (await PaymentModel.query(trx).where({ tenantId, bookingId }).orderBy('createdAt', 'asc').orderBy('id', 'asc').forUpdate()).map(paymentRow);
}

export async function insertPaymentRow(trx: Transaction, row: NewPaymentRow & { version: number }): Promise<PaymentRow> {
  return paymentRow(await PaymentModel.query(trx).insert(row).returning('*'));
}

/** Writes `changes` with version + 1 when the row is still at `row.version`; undefined when it moved. */
export async function updatePaymentVersioned(trx: Transaction, row: PaymentRow, changes: Partial<PaymentRow>): Promise<PaymentRow | undefined> {
  const [updated] = await PaymentModel.query(trx)
    .patch({ ...changes, version: row.version + 1, updatedAt: fn.now() })
    .where({ id: row.id, version: row.version })
    .returning('*');
  return updated && paymentRow(updated);
}

export async function pageOfPayments(db: Db, tenantId: string, filter: { status?: string[] }, page: PageQuery): Promise<PageResult<PaymentRow>> {
  const query = PaymentModel.query(db).where({ tenantId });
  if (filter.status?.length) query.whereIn('status', filter.status);
  query.orderBy('createdAt', 'desc').orderBy('id', 'desc');
  return (await paginate(query, page)) as unknown as PageResult<PaymentRow>;
}

// ------------------------------------------------------------------ events

export async function insertPaymentEvent(
  trx: Transaction,
  payment: { id: string; tenantId: string },
  event: {
    type: string;
    fromStatus?: string | null;
    toStatus?: string | null;
    amount?: number | null;
    actorRole: string;
    actorUserId?: string | null;
    data?: Record<string, unknown>;
  },
): Promise<void> {
  await PaymentEventModel.query(trx).insert({
    paymentId: payment.id,
    tenantId: payment.tenantId,
    type: event.type,
    fromStatus: event.fromStatus ?? null,
    toStatus: event.toStatus ?? null,
    amount: event.amount ?? null,
    actorRole: event.actorRole,
    actorUserId: event.actorUserId ?? null,
    data: event.data ?? {},
  });
}

export async function eventsOfPayment(db: Db, paymentId: string): Promise<PaymentEventRow[]> {
  return (await PaymentEventModel.query(db).where({ paymentId }).orderBy('createdAt', 'asc').orderBy('id', 'asc')).map((e) => plain(e) as PaymentEventRow);
}

// ------------------------------------------------------------------ refunds

export async function insertRefund(
  trx: Transaction,
  refund: { paymentId: string; tenantId: string; amount: number; reason: string | null; idempotencyKey: string },
): Promise<RefundRow> {
  return plain(await PaymentRefundModel.query(trx).insert(refund).returning('*'));
}

export async function refundsOfPayment(db: Db, paymentId: string): Promise<RefundRow[]> {
  return (await PaymentRefundModel.query(db).where({ paymentId }).orderBy('createdAt', 'asc').orderBy('id', 'asc')).map(plain);
}

export async function pendingRefundCount(db: Db, paymentId: string): Promise<number> {
  return PaymentRefundModel.query(db).where({ paymentId, status: 'PENDING' }).resultSize();
}

/**
 * Serialises the money a payment's transaction pays back (refunds, a late payment's release) until
 * the caller's transaction ends: a provider without idempotency keys is read, then paid, by one
 * caller at a time.
 */
export async function lockPayouts(trx: Transaction, paymentId: string): Promise<void> {
  await advisoryTransactionLock(trx, `payment-payouts:${paymentId}`);
}

/** Compare-and-set PENDING -> status (stamped with the database's clock); true when this call made the change. */
export async function settleRefund(trx: Db, refundId: string, status: 'SUCCEEDED' | 'FAILED', providerRefundId: string | null): Promise<boolean> {
  const n = await PaymentRefundModel.query(trx).patch({ status, providerRefundId, completedAt: fn.now() }).where({ id: refundId, status: 'PENDING' });
  return n === 1;
}

// ------------------------------------------------------------------ configs

export async function findConfig(db: Db, tenantId: string, id: string): Promise<PaymentConfigRow> {
  const row = await PaymentConfigModel.query(db).findOne({ tenantId, id });
  if (!row) throw configNotFound();
  return configRow(row);
}

export async function configById(db: Db, id: string): Promise<PaymentConfigRow | undefined> {
  const row = await PaymentConfigModel.query(db).findById(id);
  return row && configRow(row);
}

/** Locks every config row of the tenant (serialises changes to which one is active). */
export async function lockConfigsOfTenant(trx: Transaction, tenantId: string): Promise<void> {
  await PaymentConfigModel.query(trx).select('id').where({ tenantId }).forUpdate();
}

export async function activeConfig(db: Db, tenantId: string): Promise<PaymentConfigRow | undefined> {
  const row = await PaymentConfigModel.query(db).findOne({ tenantId, isActive: true });
  return row && configRow(row);
}

export async function configsOfTenant(db: Db, tenantId: string): Promise<PaymentConfigRow[]> {
  return (await PaymentConfigModel.query(db).where({ tenantId }).orderBy('createdAt', 'asc').orderBy('id', 'asc')).map(configRow);
}

/** Ids of the configs whose sealed credentials do not start with `prefix` (sealed before the format that has it). */
export async function configsSealedBefore(db: Db, prefix: string): Promise<{ id: string; tenantId: string }[]> {
  return (await PaymentConfigModel.query(db).select('id', 'tenantId').whereNot('credentialsSealed', 'like', `${prefix}%`)).map((r) => ({
    id: r.id,
    tenantId: r.tenantId,
  }));
}

export async function lockConfig(db: Db, tenantId: string, id: string): Promise<PaymentConfigRow | undefined> {
  const row = await PaymentConfigModel.query(db).findOne({ tenantId, id }).forUpdate();
  return row ? configRow(row) : undefined;
}

export async function insertConfig(trx: Db, row: Partial<PaymentConfigRow>): Promise<PaymentConfigRow> {
  return configRow(await PaymentConfigModel.query(trx).insert(row).returning('*'));
}

export async function updateConfig(trx: Db, tenantId: string, id: string, changes: Partial<PaymentConfigRow>): Promise<PaymentConfigRow> {
  const [row] = await PaymentConfigModel.query(trx)
    .patch({ ...changes, updatedAt: fn.now() })
    .where({ tenantId, id })
    .returning('*');
  if (!row) throw configNotFound();
  return configRow(row);
}

export async function deactivateConfigs(trx: Db, tenantId: string): Promise<void> {
  await PaymentConfigModel.query(trx).patch({ isActive: false, updatedAt: fn.now() }).where({ tenantId, isActive: true });
}

export async function deleteConfig(trx: Db, tenantId: string, id: string): Promise<void> {
  const n = await PaymentConfigModel.query(trx).delete().where({ tenantId, id });
  if (n === 0) throw configNotFound();
}

// ------------------------------------------------------------------ webhook inbox

/** Claims the provider event id; false when it was seen before (a redelivery). */
export async function claimWebhook(
  trx: Db,
  row: {
    provider: string;
    providerEventId: string;
    tenantId: string;
    paymentId: string | null;
    eventType: string;
    payload: Record<string, unknown>;
    outcome: string;
  },
): Promise<boolean> {
  const inserted = await returnedRows(PaymentWebhookInboxModel.query(trx).insert(row).onConflict(['provider', 'providerEventId']).ignore().returning('id'));
  return inserted.length === 1;
}

/** What came of a claimed event (APPLIED, IGNORED_<status>...). */
export async function recordWebhookOutcome(trx: Db, provider: string, providerEventId: string, outcome: string): Promise<void> {
  await PaymentWebhookInboxModel.query(trx).patch({ outcome }).where({ provider, providerEventId });
}
