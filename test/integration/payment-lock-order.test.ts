// Row locks in one order (docs/rules/consistency.md#row-locks-in-one-order), on the real database: while a
// transaction that starts from the booking (a status change, a retry, a requested deposit's attempt)
// holds the booking's row, the payment workflow's steps that start from the payment wait for it
// without taking the payment first, so the booking's transaction can still lock its payments. In
// the other order the two deadlock and one of them fails with 40P01 (the customer saw 409, or a
// 500 where the route's contract has no 409).
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { stack } from '../support/stack';
import { eventually } from '../support/eventually';
import { bookOnline, bookingRow, depositSalon, paymentRows } from '../support/payments';
import { bookingHooks } from '../../composition/domain-hooks';
import { closeRetryWindow, expirePayment, followDepositStatus } from '../../domain/payments/payment-workflow.service';
import type { PaymentDeps } from '../../domain/payments/payment-change';
import type { EntitySignaller } from '../../domain/workflow-signals/entity-signaller';

const quiet: EntitySignaller = { signal: async () => undefined };

describe('payment steps against a booking transaction: row locks in one order (real database)', () => {
  let db: Knex;
  let deps: PaymentDeps;
  before(async () => {
    const { platform, config } = await stack();
    db = knexFactory({ ...platform.knex.client.config, pool: { min: 0, max: 4 }, ...knexSnakeCaseMappers() });
    deps = {
      knex: db,
      signaller: quiet,
      keyring: config.credentialKeys,
      providers: platform.deps.paymentProviders!,
      manageLinkKey: config.keys.manageLink,
      bookingHooks,
    };
  });
  after(async () => {
    await db?.destroy();
  });

  /** A booking with one deposit payment, set to `status` (and the booking's depositStatus) as rows. */
  async function depositBooking(status: string, depositStatus: string) {
    const salon = await depositSalon();
    const booking = await bookOnline(salon);
    const [payment] = await paymentRows(booking.id);
    await db('payments').where({ id: payment.id }).update({ status });
    await db('bookings').where({ id: booking.id }).update({ depositStatus });
    return { bookingId: booking.id, paymentId: payment.id as string };
  }

  /**
   * Runs `step` while a booking-first transaction holds the booking's row, waits until the step waits
   * on a lock, then lets the transaction lock the booking's payments (as a status change's capture
   * request does) and commit.
   */
  async function beside<T>(bookingId: string, step: () => Promise<T>): Promise<T> {
    const first = await db.transaction();
    try {
      await first.raw('SELECT id FROM bookings WHERE id = ? FOR UPDATE', [bookingId]);
      const running = step();
      running.catch(() => undefined);
      await eventually(async () => {
        const { rows } = await db.raw(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%for update%' AND query NOT ILIKE '%pg_stat_activity%'`,
        );
        return rows.length > 0;
      }, 'the payment step waiting on a lock');
      await first.raw('SELECT id FROM payments WHERE booking_id = ? FOR UPDATE', [bookingId]);
      await first.commit();
      return await running;
    } catch (err) {
      await first.rollback().catch(() => undefined);
      throw err;
    }
  }

  it('when a failed deposit is followed while the booking is locked then both commit and the booking is RETRY_PENDING', async function () {
    this.timeout(30_000);
    const { bookingId, paymentId } = await depositBooking('FAILED', 'PENDING');
    expect(await beside(bookingId, () => followDepositStatus(deps, paymentId))).to.equal('RETRY_PENDING');
    expect((await bookingRow(bookingId)).depositStatus).to.equal('RETRY_PENDING');
  });

  it('when a retry window closes while the booking is locked then both commit and the booking is cancelled PAYMENT_NOT_RETRIED', async function () {
    this.timeout(30_000);
    const { bookingId, paymentId } = await depositBooking('FAILED', 'RETRY_PENDING');
    expect(await beside(bookingId, () => closeRetryWindow(deps, paymentId))).to.equal('CANCELLED');
    expect(await bookingRow(bookingId)).to.include({ status: 'CANCELLED', cancelReason: 'PAYMENT_NOT_RETRIED' });
  });

  it('when an open attempt expires while the booking is locked then both commit, the payment is EXPIRED and the booking cancelled', async function () {
    this.timeout(30_000);
    const { bookingId, paymentId } = await depositBooking('INITIATED', 'PENDING');
    expect(await beside(bookingId, () => expirePayment(deps, paymentId))).to.equal('EXPIRED');
    expect((await bookingRow(bookingId)).status).to.equal('CANCELLED');
    expect((await paymentRows(bookingId))[0].status).to.equal('EXPIRED');
  });
});
