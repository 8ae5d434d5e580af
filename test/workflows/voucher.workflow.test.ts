// The voucher's timeline (docs/rules/loyalty.md#vouchers) on the time-skipping test server and the real database:
// issued (message), expired at expiresAt by a durable timer while ACTIVE, held while RESERVED,
// restored (message, then expired at once when already past its date), forfeited (no message).
import { expect } from 'chai';
import crypto from 'node:crypto';
import type { WorkflowHandleWithSignaledRunId } from '@temporalio/client';
import { stack } from '../support/stack';
import { createSalon, unique } from '../support/factories';
import { createActivities } from '../../activities';
import { FolderMailer } from '../../integrations/mail/mailer';
import { FolderSmsSender } from '../../integrations/sms/sms-sender';
import { voucherWorkflow, voucherEventSignal } from '../../workflows/loyalty/voucher.workflow';
import { voucherContract, type VoucherEvent } from '../../domain/loyalty/voucher-events.rules';
import { platformWorker, withOutboxes, withTimeSkipping } from './support/time-skipping';

type Signal = (voucherId: string, tenantId: string, event: VoucherEvent) => Promise<WorkflowHandleWithSignaledRunId<typeof voucherWorkflow>>;

const DAY = 24 * 60 * 60 * 1000;

describe('voucher workflow (time skipping, real database)', function () {
  this.timeout(120_000);
  const t = withTimeSkipping();
  let sms: FolderSmsSender;
  let mail: FolderMailer;

  withOutboxes('voucher-workflow-test', (o) => ({ sms, mail } = o));

  async function withWorker(scenario: (signal: Signal) => Promise<void>): Promise<void> {
    const { platform } = await stack();
    const taskQueue = unique('voucher-wf');
    const worker = await platformWorker(t, {
      taskQueue,
      activities: createActivities({ knex: platform.knex, mailer: mail, sms }),
    });
    const signal: Signal = (voucherId, tenantId, event) =>
      t.env.client.workflow.signalWithStart(voucherWorkflow, {
        workflowId: voucherContract.workflowId(voucherId),
        taskQueue,
        args: [{ voucherId, tenantId }],
        signal: voucherEventSignal,
        signalArgs: [event],
      });
    await worker.runUntil(scenario(signal));
  }

  /** An ACTIVE voucher of a new salon's customer, expiring `expiresInMs` after the workflow clock's now. */
  async function seedVoucher(expiresInMs: number | null) {
    const { platform } = await stack();
    const knex = platform.knex;
    const { tenant } = await createSalon({ name: 'Klipp & Stell' });
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const [customer] = await knex('customers').insert({ tenantId: tenant.id, name: 'Kari', phone }).returning('*');
    const [tc] = await knex('tenant_customers').insert({ tenantId: tenant.id, customerId: customer.id }).returning('*');
    const [card] = await knex('loyalty_cards')
      .insert({ tenantId: tenant.id, name: 'Stempelkort', type: 'VISIT_BASED', requiredStamps: 5, rewardType: 'DISCOUNT_AMOUNT', rewardValue: 15000 })
      .returning('*');
    const now = await t.env.currentTimeMs();
    const [voucher] = await knex('loyalty_vouchers')
      .insert({
        tenantId: tenant.id,
        loyaltyCardId: card.id,
        tenantCustomerId: tc.id,
        code: `STAMP-${crypto.randomInt(1000, 9999)}-${crypto.randomInt(1000, 9999)}`,
        rewardType: 'DISCOUNT_AMOUNT',
        rewardValue: 15000,
        issuedAt: new Date(now),
        expiresAt: expiresInMs === null ? null : new Date(now + expiresInMs),
        issuedFromCycleNumber: 1,
      })
      .returning('*');
    return { knex, voucher, phone, tenantId: tenant.id };
  }

  async function kinds(phone: string): Promise<string[]> {
    return (await sms.sentTo(phone)).map((m) => String(m.meta?.kind));
  }

  it('when an ACTIVE voucher reaches expiresAt then the durable timer expires it (not a day earlier), after the VoucherIssued message', () =>
    withWorker(async (signal) => {
      const { knex, voucher, phone, tenantId } = await seedVoucher(30 * DAY);
      const handle = await signal(voucher.id, tenantId, { type: 'VoucherIssued', entityVersion: 1 });
      await t.env.sleep(29 * DAY);
      expect((await knex('loyalty_vouchers').where({ id: voucher.id }).first()).status).to.equal('ACTIVE');
      expect(await kinds(phone)).to.deep.equal(['ISSUED']);
      const issued = (await sms.sentTo(phone))[0];
      expect(issued.text).to.contain('Hei Kari!').and.contain(voucher.code).and.contain('150 kr i rabatt').and.contain('Gyldig til');
      await t.env.sleep(2 * DAY);
      await handle.result();
      const row = await knex('loyalty_vouchers').where({ id: voucher.id }).first();
      expect(row).to.include({ status: 'EXPIRED', version: 2 });
      const events = await knex('loyalty_voucher_events').where({ voucherId: voucher.id });
      expect(events.map((e) => e.action)).to.deep.equal(['EXPIRED']);
    }));

  it('when the voucher is RESERVED past its date then it is held; restored afterwards it is told again and expires at once', () =>
    withWorker(async (signal) => {
      const { knex, voucher, phone, tenantId } = await seedVoucher(2 * DAY);
      await signal(voucher.id, tenantId, { type: 'VoucherIssued', entityVersion: 1 });
      const bookingId = crypto.randomUUID();
      await knex('loyalty_vouchers').where({ id: voucher.id }).update({ status: 'RESERVED', reservedBookingId: bookingId, reservedAt: new Date(), version: 2 });
      const handle = await signal(voucher.id, tenantId, { type: 'VoucherReserved', entityVersion: 2 });
      await t.env.sleep(3 * DAY);
      expect((await knex('loyalty_vouchers').where({ id: voucher.id }).first()).status).to.equal('RESERVED');
      await knex('loyalty_vouchers').where({ id: voucher.id }).update({ status: 'ACTIVE', reservedBookingId: null, reservedAt: null, version: 3 });
      await knex('loyalty_voucher_events').insert({
        tenantId,
        voucherId: voucher.id,
        action: 'RESTORED',
        fromStatus: 'RESERVED',
        toStatus: 'ACTIVE',
        bookingId,
        actorRole: 'OWNER',
      });
      await signal(voucher.id, tenantId, { type: 'VoucherRestored', entityVersion: 3 });
      await handle.result();
      expect((await knex('loyalty_vouchers').where({ id: voucher.id }).first()).status).to.equal('EXPIRED');
      expect(await kinds(phone)).to.deep.equal(['ISSUED', 'RESTORED']);
      expect((await sms.sentTo(phone))[1].text).to.contain('kan brukes igjen');
    }));

  it('when the workflow lags behind a reserve, restore and reserve again then the restore is still told once', () =>
    withWorker(async (signal) => {
      const { knex, voucher, phone, tenantId } = await seedVoucher(30 * DAY);
      const first = crypto.randomUUID();
      await knex('loyalty_voucher_events').insert({
        tenantId,
        voucherId: voucher.id,
        action: 'RESTORED',
        fromStatus: 'RESERVED',
        toStatus: 'ACTIVE',
        bookingId: first,
        actorRole: 'OWNER',
      });
      await knex('loyalty_vouchers')
        .where({ id: voucher.id })
        .update({ status: 'RESERVED', reservedBookingId: crypto.randomUUID(), reservedAt: new Date(), version: 4 });
      for (const [type, entityVersion] of [
        ['VoucherIssued', 1],
        ['VoucherReserved', 2],
        ['VoucherRestored', 3],
        ['VoucherReserved', 4],
      ] as const) {
        await signal(voucher.id, tenantId, { type, entityVersion });
      }
      await t.env.sleep(DAY);
      await knex('loyalty_vouchers').where({ id: voucher.id }).update({ status: 'REDEEMED', reservedBookingId: null, version: 5 });
      const handle = await signal(voucher.id, tenantId, { type: 'VoucherRedeemed', entityVersion: 5 });
      await handle.result();
      expect((await kinds(phone)).sort()).to.deep.equal(['ISSUED', 'RESTORED']);
    }));

  it('when a reserved voucher is forfeited then the timeline ends without a message; a voucher without expiry never expires', () =>
    withWorker(async (signal) => {
      const { knex, voucher, phone, tenantId } = await seedVoucher(null);
      await signal(voucher.id, tenantId, { type: 'VoucherIssued', entityVersion: 1 });
      await t.env.sleep(400 * DAY);
      expect((await knex('loyalty_vouchers').where({ id: voucher.id }).first()).status).to.equal('ACTIVE');
      await knex('loyalty_vouchers')
        .where({ id: voucher.id })
        .update({ status: 'RESERVED', reservedBookingId: crypto.randomUUID(), reservedAt: new Date(), version: 2 });
      await signal(voucher.id, tenantId, { type: 'VoucherReserved', entityVersion: 2 });
      await knex('loyalty_vouchers')
        .where({ id: voucher.id })
        .update({ status: 'CANCELLED', reservedBookingId: null, reservedAt: null, cancelledReason: 'BOOKING_FORFEIT', version: 3 });
      const handle = await signal(voucher.id, tenantId, { type: 'VoucherForfeited', entityVersion: 3 });
      await handle.result();
      expect(await kinds(phone)).to.deep.equal(['ISSUED']);
    }));
});
