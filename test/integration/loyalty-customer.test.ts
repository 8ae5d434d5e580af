// The signed-in customer's loyalty queries (/customer/me/loyalty, /customer/loyalty/vouchers,
// /customer/loyalty/stamps/:tenantSlug). The customer-accounts module resolves the signed-in account
// to its customer rows (one per salon) and passes them here; these tests call the queries directly.
import chai, { expect } from 'chai';
import chaiAsPromised from 'chai-as-promised';
import { stack } from '../support/stack';
import { knex } from '../support/booking-fixtures';
import { customerLoyaltyOverview, customerStampsAt, customerVouchers } from '../../domain/loyalty/loyalty-customer.service';
import { issueVoucher } from '../../domain/loyalty/loyalty-voucher.service';
import { findCard } from '../../domain/loyalty/loyalty.repository';
import { addCustomer, bookOk, bookingSalon, complete, processed, visitCard, type BookingSalon, type LoyaltyCustomer } from '../support/loyalty';
import { rejectsWith } from '../support/rejections';

chai.use(chaiAsPromised);

async function voucherFor(s: BookingSalon, c: LoyaltyCustomer, cardId: string, cycle: number, status = 'ACTIVE') {
  const db = await knex();
  const { signaller } = await stack();
  const card = (await findCard(db, s.tenant.id, cardId))!;
  const v = await db.transaction((trx) =>
    issueVoucher(trx, signaller, { card, tenantCustomerId: c.tenantCustomerId, cycleNumber: cycle, bookingId: null, now: new Date() }),
  );
  if (status !== 'ACTIVE')
    await db('loyalty_vouchers')
      .where({ id: v.id })
      .update({ status, ...(status === 'RESERVED' ? { reservedBookingId: v.id } : {}) });
  return v;
}

describe('customer loyalty queries', function () {
  this.timeout(60_000);

  it("when a customer has vouchers in two salons then the voucher list holds their ACTIVE and RESERVED ones across salons, and nobody else's", async () => {
    const a = await bookingSalon();
    const b = await bookingSalon();
    const inA = await addCustomer(a);
    const inB = await addCustomer(b);
    const stranger = await addCustomer(a);
    const cardA = await visitCard(a);
    const cardB = await visitCard(b);
    const active = await voucherFor(a, inA, cardA.id, 1);
    const reserved = await voucherFor(b, inB, cardB.id, 1, 'RESERVED');
    await voucherFor(b, inB, cardB.id, 2, 'REDEEMED');
    await voucherFor(a, stranger, cardA.id, 1);
    const list = await customerVouchers(await knex(), [inA.customerId, inB.customerId]);
    expect(list.map((v) => v.id).sort()).to.deep.equal([active.id, reserved.id].sort());
    expect(list.find((v) => v.id === reserved.id)).to.include({ status: 'RESERVED', tenantSlug: b.tenant.slug, tenantName: b.tenant.name });
    expect(await customerVouchers(await knex(), [])).to.deep.equal([]);
  });

  it('when the customer asks for stamps in one salon then they get their progress there; a salon where they have no record is 404', async () => {
    const a = await bookingSalon();
    const c = await addCustomer(a);
    await visitCard(a, { requiredStamps: 4 });
    const bk = await bookOk(a, c);
    await complete(a, bk.id);
    await processed(bk.id);
    const stamps = await customerStampsAt(await knex(), [c.customerId], a.tenant.slug, new Date());
    expect(stamps).to.include({ tenantSlug: a.tenant.slug });
    expect(stamps.cards[0]).to.include({ stampsInCycle: 1, requiredStamps: 4, stampsToNextVoucher: 3 });
    const other = await bookingSalon();
    await rejectsWith(customerStampsAt(await knex(), [c.customerId], other.tenant.slug, new Date()), { status: 404, code: 'TENANT_NOT_FOUND' });
  });

  it('when the overview is read then each salon with cards or vouchers lists the progress and usable vouchers', async () => {
    const a = await bookingSalon();
    const b = await bookingSalon();
    const inA = await addCustomer(a);
    const inB = await addCustomer(b);
    const cardA = await visitCard(a);
    const v = await voucherFor(a, inA, cardA.id, 1);
    const overview = await customerLoyaltyOverview(await knex(), [inA.customerId, inB.customerId], new Date());
    expect(overview.map((o) => o.tenantSlug)).to.deep.equal([a.tenant.slug]);
    expect(overview[0].cards[0]).to.include({ currentCycle: 2, vouchersIssued: 1 });
    expect(overview[0].vouchers.map((x) => x.id)).to.deep.equal([v.id]);
  });
});
