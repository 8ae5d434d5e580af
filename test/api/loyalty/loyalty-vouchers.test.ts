// Vouchers (docs/rules/loyalty.md): applied with a staff booking, previewed on the portal, redeemed at
// completion, restored or forfeited at cancellation, revoked by the owner; through HTTP and the worker.
import { expect } from 'chai';
import { call } from '../../support/http';
import { stack } from '../../support/stack';
import { knex, localDay, at } from '../../support/booking-fixtures';
import { issueVoucher, releaseVoucherOnCancellation } from '../../../domain/loyalty/loyalty-voucher.service';
import { findCard } from '../../../domain/loyalty/loyalty.repository';
import { provePhone, signInCustomer } from '../../support/customers';
import {
  addCustomer,
  bookOk,
  bookingSalon,
  complete,
  processed,
  staffBooking,
  visitCard,
  type BookingSalon,
  type LoyaltyCustomer,
} from '../../support/loyalty';
import { eventually } from '../../support/eventually';
import { stackTemporalClient } from '../../support/workflow-barriers';
import { voucherContract } from '../../../domain/loyalty/voucher-events.rules';

async function giveVoucher(s: BookingSalon, c: LoyaltyCustomer, card?: { id: string }, opts: { expiresInMs?: number; cycle?: number } = {}) {
  const db = await knex();
  const { signaller } = await stack();
  const cardRow = (await findCard(db, s.tenant.id, (card ?? (await visitCard(s))).id))!;
  const voucher = await db.transaction((trx) =>
    issueVoucher(trx, signaller, { card: cardRow, tenantCustomerId: c.tenantCustomerId, cycleNumber: opts.cycle ?? 1, bookingId: null, now: new Date() }),
  );
  if (opts.expiresInMs !== undefined)
    await db('loyalty_vouchers')
      .where({ id: voucher.id })
      .update({ expiresAt: new Date(Date.now() + opts.expiresInMs) });
  return voucher;
}

async function voucherRow(id: string) {
  return (await knex())('loyalty_vouchers').where({ id }).first();
}

function sloppy(code: string): string {
  return `  ${code.toLowerCase().replace(/-/g, '')} `;
}

describe('loyalty vouchers', function () {
  this.timeout(120_000);

  describe('applied to a staff booking (POST /bookings voucherCode)', () => {
    it('when the customer applies their code (lowercase, no dashes, spaces) then the booking gets the discount and the voucher is RESERVED for it', async () => {
      const s = await bookingSalon();
      const c = await addCustomer(s);
      const v = await giveVoucher(s, c); // DISCOUNT_AMOUNT 20000
      const b = await bookOk(s, c, { voucherCode: sloppy(v.code), daysAhead: 3 });
      expect(b).to.include({ totalAmount: 50000, discountAmount: 20000, appliedVoucherId: v.id });
      const row = await voucherRow(v.id);
      expect(row).to.include({ status: 'RESERVED', reservedBookingId: b.id });
      expect(row.reservedAt).to.be.instanceOf(Date);
      // the prefix is optional too
      const c2 = await addCustomer(s);
      const v2 = await giveVoucher(s, c2);
      expect((await bookOk(s, c2, { voucherCode: v2.code.slice(6), daysAhead: 3, time: '12:00' })).appliedVoucherId).to.equal(v2.id);
    });

    it('when the code has characters outside the alphabet (I, L, O, U, symbols) or the wrong length then 400 VALIDATION_ERROR naming voucherCode', async () => {
      const s = await bookingSalon();
      const c = await addCustomer(s);
      for (const code of ['STAMP-ABCD-EFGI', 'STAMP-0000-000O', 'STAMP-LLLL-UUUU', 'STAMP-AB*D-EFGH', 'STAMP-ABCD-EFG', 'STAMP-ABCD-EFGHJ']) {
        const res = await staffBooking(s, c, { voucherCode: code, daysAhead: 3 });
        expect(res.status, code).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(res.body.error.details[0].field).to.equal('voucherCode');
      }
    });

    it("when the code is unknown, another customer's, expired, revoked or reserved for another booking then the voucher codes answer and nothing is written", async () => {
      const s = await bookingSalon();
      const owner = await addCustomer(s);
      const other = await addCustomer(s);
      const v = await giveVoucher(s, owner);
      const expect409or = async (customer: LoyaltyCustomer | null, code: string, status: number, errorCode: string) => {
        const res = await staffBooking(s, customer, { voucherCode: code, daysAhead: 4 });
        expect(res.status, JSON.stringify(res.body)).to.equal(status);
        expect(res.body.error.code).to.equal(errorCode);
      };
      await expect409or(owner, 'STAMP-ZZZZ-ZZZZ', 404, 'LOYALTY_VOUCHER_NOT_FOUND');
      await expect409or(other, v.code, 422, 'LOYALTY_VOUCHER_NOT_OWNED');
      await expect409or(null, v.code, 422, 'LOYALTY_VOUCHER_NOT_OWNED');
      const expired = await giveVoucher(s, owner, undefined, { expiresInMs: -1000 });
      await expect409or(owner, expired.code, 422, 'LOYALTY_VOUCHER_EXPIRED');
      const revoked = await giveVoucher(s, owner);
      expect((await call('post', `/loyalty-vouchers/${revoked.id}/cancel`, s.owner.token, { reason: 'gitt ved en feil' })).status).to.equal(200);
      await expect409or(owner, revoked.code, 409, 'LOYALTY_VOUCHER_ALREADY_USED');
      await bookOk(s, owner, { voucherCode: v.code, daysAhead: 3 });
      await expect409or(owner, v.code, 409, 'LOYALTY_VOUCHER_RESERVED_OTHER');
      // another salon does not know the code
      const s2 = await bookingSalon();
      const c2 = await addCustomer(s2);
      const res = await staffBooking(s2, c2, { voucherCode: v.code, daysAhead: 3 });
      expect(res.body.error.code).to.equal('LOYALTY_VOUCHER_NOT_FOUND');
      expect(await (await knex())('bookings').where({ tenantId: s.tenant.id }).whereNotNull('appliedVoucherId')).to.have.length(1);
    });

    it('when five bookings race for one voucher then exactly one wins and the others are refused with 409', async () => {
      const s = await bookingSalon();
      const c = await addCustomer(s);
      const v = await giveVoucher(s, c);
      const results = await Promise.all(
        ['09:00', '10:00', '11:00', '12:00', '13:00'].map((time) => staffBooking(s, c, { voucherCode: v.code, daysAhead: 5, time })),
      );
      const won = results.filter((r) => r.status === 201);
      expect(won).to.have.length(1);
      for (const lost of results.filter((r) => r.status !== 201)) {
        expect(lost.status).to.equal(409);
        expect(['LOYALTY_VOUCHER_ALREADY_USED', 'LOYALTY_VOUCHER_RESERVED_OTHER']).to.include(lost.body.error.code);
      }
      expect(await (await knex())('bookings').where({ appliedVoucherId: v.id })).to.have.length(1);
      expect(await voucherRow(v.id)).to.include({ status: 'RESERVED', reservedBookingId: won[0].body.data.id });
    });
  });

  describe('completion and cancellation', () => {
    it('when the booking completes then the voucher is REDEEMED with discountApplied = min(reward, total): the excess is forfeited', async () => {
      const s = await bookingSalon();
      const c = await addCustomer(s);
      const card = await visitCard(s, { rewardType: 'DISCOUNT_AMOUNT', rewardValue: 80000 });
      const v = await giveVoucher(s, c, card);
      const b = await bookOk(s, c, { voucherCode: v.code });
      expect(b.discountAmount).to.equal(50000);
      await complete(s, b.id);
      await processed(b.id);
      const row = await voucherRow(v.id);
      expect(row).to.include({ status: 'REDEEMED', redeemedBookingId: b.id, discountApplied: 50000, reservedBookingId: null });
      expect(row.redeemedAt).to.be.instanceOf(Date);
      const detail = await call('get', `/loyalty-vouchers/${v.id}`, s.owner.token);
      expect(detail.body.data.timeline.map((e: { action: string }) => e.action)).to.deep.equal(['ISSUED', 'RESERVED', 'REDEEMED']);
      // terminal: the owner can no longer revoke it
      expect((await call('post', `/loyalty-vouchers/${v.id}/cancel`, s.owner.token, { reason: 'x' })).body.error.code).to.equal('LOYALTY_VOUCHER_ALREADY_USED');
      // terminal: a later forced cancellation of the completed booking leaves the redeemed voucher as it is
      const forced = await call('post', `/bookings/${b.id}/status/CANCELLED`, s.owner.token, { force: true, reason: 'refundert delvis' });
      expect(forced.status, JSON.stringify(forced.body)).to.equal(200);
      expect(await voucherRow(v.id)).to.include({ status: 'REDEEMED', discountApplied: 50000, redeemedBookingId: b.id });
    });

    it('when the booking is cancelled with nothing paid then the voucher is ACTIVE again, released from the booking, usable again, and the customer is told in Norwegian', async () => {
      const s = await bookingSalon();
      const c = await addCustomer(s);
      const v = await giveVoucher(s, c);
      const { sms } = await stack();
      await eventually(async () => (await sms.sentTo(c.phone)).find((m) => m.meta?.kind === 'ISSUED'), 'the VoucherIssued SMS');
      const b = await bookOk(s, c, { voucherCode: v.code, daysAhead: 6 });
      const cancelled = await call('post', `/bookings/${b.id}/cancel`, s.owner.token, { bySalon: true, reason: 'syk' });
      expect(cancelled.status).to.equal(200);
      expect(cancelled.body.data).to.include({ status: 'CANCELLED', appliedVoucherId: null, discountAmount: 0 });
      expect(await voucherRow(v.id)).to.include({ status: 'ACTIVE', reservedBookingId: null, reservedAt: null });
      const restored = await eventually(async () => (await sms.sentTo(c.phone)).find((m) => m.meta?.kind === 'RESTORED'), 'the VoucherRestored SMS');
      expect(restored.text).to.contain(v.code).and.to.contain('kan brukes igjen');
      const again = await bookOk(s, c, { voucherCode: v.code, daysAhead: 7 });
      expect(again.appliedVoucherId).to.equal(v.id);
    });

    it('when a captured payment is kept at cancellation then the voucher is CANCELLED with BOOKING_FORFEIT and no message is sent', async () => {
      const s = await bookingSalon();
      const c = await addCustomer(s);
      const v = await giveVoucher(s, c);
      const { signaller, sms } = await stack();
      // the customer has been told the code before it is used (a voucher its workflow first reads as
      // already forfeited is never announced)
      await eventually(async () => (await sms.sentTo(c.phone)).find((m) => m.meta?.voucherId === v.id && m.meta?.kind === 'ISSUED'), 'the ISSUED SMS');
      const b = await bookOk(s, c, { voucherCode: v.code, daysAhead: 6 });
      const changes = await (
        await knex()
      ).transaction((trx) =>
        releaseVoucherOnCancellation(
          trx,
          signaller,
          { id: b.id, tenantId: s.tenant.id, appliedVoucherId: v.id },
          true,
          { userId: null, role: 'SYSTEM' },
          new Date(),
        ),
      );
      expect(changes).to.deep.equal({});
      expect(await voucherRow(v.id)).to.include({ status: 'CANCELLED', cancelledReason: 'BOOKING_FORFEIT' });
      expect((await call('get', `/loyalty-vouchers/${v.id}`, s.owner.token)).body.data.timeline.map((e: { action: string }) => e.action)).to.deep.equal([
        'ISSUED',
        'RESERVED',
        'FORFEITED',
      ]);
      // a forfeited voucher's timeline ends: once its workflow has ended, every message it was going to send is out
      await (await stackTemporalClient()).workflow.getHandle(voucherContract.workflowId(v.id)).result();
      const aboutTheVoucher = (await sms.sentTo(c.phone)).filter((m) => m.meta?.voucherId === v.id);
      expect(
        aboutTheVoucher.map((m) => m.meta?.kind),
        'the code when it was issued, nothing at the forfeit',
      ).to.deep.equal(['ISSUED']);
    });
  });

  describe('owner routes', () => {
    it('when the owner revokes an ACTIVE voucher with a reason then it is CANCELLED and the timeline shows who and why; STAFF gets 403; a blank reason 400', async () => {
      const s = await bookingSalon();
      const c = await addCustomer(s);
      const v = await giveVoucher(s, c);
      expect((await call('post', `/loyalty-vouchers/${v.id}/cancel`, s.staff[0].user.token, { reason: 'x' })).status).to.equal(403);
      expect((await call('post', `/loyalty-vouchers/${v.id}/cancel`, s.owner.token, { reason: '   ' })).status).to.equal(400);
      const res = await call('post', `/loyalty-vouchers/${v.id}/cancel`, s.owner.token, { reason: 'misbruk' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ status: 'CANCELLED', cancelledReason: 'misbruk' });
      expect(res.body.data.timeline.at(-1)).to.include({
        action: 'CANCELLED',
        fromStatus: 'ACTIVE',
        toStatus: 'CANCELLED',
        actorUserId: s.owner.id,
        actorRole: 'OWNER',
        reason: 'misbruk',
      });
    });

    it('when a voucher is RESERVED then the owner cannot revoke it (409 LOYALTY_VOUCHER_RESERVED_OTHER)', async () => {
      const s = await bookingSalon();
      const c = await addCustomer(s);
      const v = await giveVoucher(s, c);
      await bookOk(s, c, { voucherCode: v.code, daysAhead: 3 });
      const res = await call('post', `/loyalty-vouchers/${v.id}/cancel`, s.owner.token, { reason: 'x' });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('LOYALTY_VOUCHER_RESERVED_OTHER');
    });

    it('when the owner lists vouchers then status and customer filters apply, other salons are invisible, and STAFF gets 403', async () => {
      const s = await bookingSalon();
      const a = await addCustomer(s);
      const b = await addCustomer(s);
      const card = await visitCard(s);
      const va = await giveVoucher(s, a, card);
      const vb = await giveVoucher(s, b, card);
      await bookOk(s, b, { voucherCode: vb.code, daysAhead: 3 });
      const other = await bookingSalon();
      await giveVoucher(other, await addCustomer(other));
      const all = await call('get', '/loyalty-vouchers', s.owner.token);
      expect(all.status).to.equal(200);
      expect(all.body.meta).to.deep.equal({ total: 2, page: 1, limit: 20, totalPages: 1 });
      const active = await call('get', '/loyalty-vouchers?status=ACTIVE', s.owner.token);
      expect(active.body.data.map((v: { id: string }) => v.id)).to.deep.equal([va.id]);
      const both = await call('get', '/loyalty-vouchers?status=ACTIVE,RESERVED&limit=1&page=2', s.owner.token);
      expect(both.body.meta).to.deep.equal({ total: 2, page: 2, limit: 1, totalPages: 2 });
      // spaces around the statuses are the client's layout, as the contract's pattern allows
      expect((await call('get', '/loyalty-vouchers?status=%20ACTIVE%20,%20RESERVED', s.owner.token)).body.meta.total).to.equal(2);
      const byCustomer = await call('get', `/loyalty-vouchers?customerId=${b.customerId}`, s.owner.token);
      expect(byCustomer.body.data.map((v: { id: string }) => v.id)).to.deep.equal([vb.id]);
      expect((await call('get', '/loyalty-vouchers?status=USED', s.owner.token)).status).to.equal(400);
      expect((await call('get', '/loyalty-vouchers?limit=100', s.owner.token)).status).to.equal(200);
      expect((await call('get', '/loyalty-vouchers?limit=101', s.owner.token)).status).to.equal(400);
      expect((await call('get', '/loyalty-vouchers', s.staff[0].user.token)).status).to.equal(403);
      expect((await call('get', `/loyalty-vouchers/${va.id}`, other.owner.token)).status).to.equal(404);
    });

    it("when staff read a customer's loyalty then they see stamp progress and every voucher", async () => {
      const s = await bookingSalon();
      const c = await addCustomer(s);
      const card = await visitCard(s, { requiredStamps: 3 });
      const v = await giveVoucher(s, c, card);
      const b = await bookOk(s, c);
      await complete(s, b.id);
      await processed(b.id);
      const res = await call('get', `/customers/${c.tenantCustomerId}/loyalty`, s.staff[0].user.token);
      expect(res.status).to.equal(200);
      expect(res.body.data.cards).to.have.length(1);
      // the voucher given by hand counts as cycle 1: this visit is the first stamp of cycle 2
      expect(res.body.data.cards[0]).to.include({ currentCycle: 2, stampsInCycle: 1, stampsToNextVoucher: 2, vouchersIssued: 1 });
      expect(res.body.data.vouchers.map((x: { id: string }) => x.id)).to.deep.equal([v.id]);
      const other = await bookingSalon();
      expect((await call('get', `/customers/${c.tenantCustomerId}/loyalty`, other.owner.token)).status).to.equal(404);
    });
  });

  describe('POST /public/tenants/:slug/vouchers/preview and public bookings', () => {
    it('when a code is previewed then discountApplied and payable are computed and nothing is reserved', async () => {
      const s = await bookingSalon();
      const c = await addCustomer(s);
      const percent = await visitCard(s, { rewardType: 'DISCOUNT_PERCENT', rewardValue: 15 });
      const v = await giveVoucher(s, c, percent);
      const res = await call('post', `/public/tenants/${s.tenant.slug}/vouchers/preview`, undefined, {
        code: sloppy(v.code),
        items: [{ serviceId: s.serviceId }, { serviceId: s.serviceId }],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.include({ voucherId: v.id, code: v.code, totalAmount: 100000, discountApplied: 15000, payable: 85000 });
      expect(await voucherRow(v.id)).to.include({ status: 'ACTIVE', reservedBookingId: null });
      const bad = await call('post', `/public/tenants/${s.tenant.slug}/vouchers/preview`, undefined, {
        code: 'STAMP-ABCD-EFGI',
        items: [{ serviceId: s.serviceId }],
      });
      expect(bad.status).to.equal(400);
      const unknown = await call('post', `/public/tenants/${s.tenant.slug}/vouchers/preview`, undefined, {
        code: 'STAMP-ZZZZ-ZZZ0',
        items: [{ serviceId: s.serviceId }],
      });
      expect(unknown.body.error.code).to.equal('LOYALTY_VOUCHER_NOT_FOUND');
    });

    it('when a guest books with a voucher then 422 LOYALTY_VOUCHER_GUEST_NOT_ALLOWED and nothing is written', async () => {
      const s = await bookingSalon();
      const c = await addCustomer(s);
      const v = await giveVoucher(s, c);
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
        startTime: at(localDay(3), '10:00'),
        items: [{ serviceId: s.serviceId }],
        customer: { name: 'Kari', phone: c.phone },
        voucherCode: v.code,
      });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('LOYALTY_VOUCHER_GUEST_NOT_ALLOWED');
      expect(await (await knex())('bookings').where({ tenantId: s.tenant.id })).to.have.length(0);
      expect(await voucherRow(v.id)).to.include({ status: 'ACTIVE' });
    });

    it('when a signed-in customer books on the portal with their voucher then it is reserved with the booking', async () => {
      const s = await bookingSalon();
      const c = await addCustomer(s);
      const v = await giveVoucher(s, c);
      const account = await signInCustomer();
      // the salon knows the customer by phone; the account proves that phone, so the signed-in booking links the record (docs/rules/customers.md#linking-an-account)
      await provePhone(account, c.phone);
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, account.accessToken, {
        startTime: at(localDay(3), '10:00'),
        items: [{ serviceId: s.serviceId }],
        customer: { name: 'Kari', phone: c.phone },
        voucherCode: v.code.toLowerCase().replace(/-/g, ''),
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const row = await (await knex())('bookings').where({ id: res.body.data.id }).first();
      expect(row).to.include({ customerId: c.customerId, customerAccountId: account.accountId, appliedVoucherId: v.id, discountAmount: 20000 });
      expect(await voucherRow(v.id)).to.include({ status: 'RESERVED', reservedBookingId: res.body.data.id });
    });
  });
});
