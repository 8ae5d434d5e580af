// Stamps, vouchers and points earned at completion (docs/rules/loyalty.md#stamps), through HTTP and the real worker
// (the booking workflow's completion step).
import chai, { expect } from 'chai';
import chaiAsPromised from 'chai-as-promised';
import { call } from '../../support/http';
import { stack } from '../../support/stack';
import { addService, at, knex, localDay } from '../../support/booking-fixtures';
import { processCompletedBooking } from '../../../domain/loyalty/loyalty-completion.service';
import { issueVoucher } from '../../../domain/loyalty/loyalty-voucher.service';
import { findCard } from '../../../domain/loyalty/loyalty.repository';
import { addCustomer, bookOk, bookingSalon, complete, processed, visitCard, vouchersOf } from '../../support/loyalty';
import { eventually } from '../../support/eventually';
import { rejectsWith } from '../../support/rejections';

chai.use(chaiAsPromised);

describe('loyalty at booking completion', function () {
  this.timeout(120_000);

  it('when a booking with a customer completes then the worker adds one stamp per booking (two services, one stamp) and marks it processed', async () => {
    const s = await bookingSalon();
    const card = await visitCard(s);
    const c = await addCustomer(s);
    const second = await addService(s.tenant.id, { price: 10000 });
    await (await knex())('resource_skills').insert({ tenantId: s.tenant.id, resourceId: s.staff[0].resourceId, serviceId: second.id });
    const created = await call('post', '/bookings', s.owner.token, {
      startTime: at(localDay(-400), '10:00'),
      items: [
        { serviceId: s.serviceId, resourceId: s.staff[0].resourceId },
        { serviceId: second.id, resourceId: s.staff[0].resourceId },
      ],
      customerId: c.customerId,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const b = created.body.data;
    await complete(s, b.id);
    await processed(b.id);
    const res = await call('get', `/loyalty-cards/${card.id}/stamps/${c.tenantCustomerId}`, s.staff[0].user.token);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({
      currentCycle: 1,
      stampsInCycle: 1,
      requiredStamps: 5,
      stampsToNextVoucher: 4,
      vouchersIssued: 0,
      tenantCustomerId: c.tenantCustomerId,
    });
    expect(res.body.data.stamps).to.have.length(1);
    expect(res.body.data.stamps[0]).to.include({ bookingId: b.id, stampNumber: 1, cycleNumber: 1 });
    expect((await call('get', `/bookings/${b.id}`, s.owner.token)).body.data.processedForLoyalty).to.equal(true);
  });

  it('when a completion is processed twice (also concurrently) then it stamps once', async () => {
    const s = await bookingSalon();
    await visitCard(s);
    const c = await addCustomer(s);
    const b = await bookOk(s, c);
    // completed without the worker's step yet: mark COMPLETED directly, then run the step three times
    await (await knex())('bookings').where({ id: b.id }).update({ status: 'COMPLETED' });
    const { signaller } = await stack();
    const db = await knex();
    const outcomes = await Promise.all([1, 2, 3].map(() => db.transaction((trx) => processCompletedBooking(trx, signaller, b.id, new Date()))));
    expect(outcomes.filter((o) => o.claimed)).to.have.length(1);
    const again = await db.transaction((trx) => processCompletedBooking(trx, signaller, b.id, new Date()));
    expect(again).to.include({ claimed: false, stamps: 0 });
    expect(await db('loyalty_stamps').where({ bookingId: b.id })).to.have.length(1);
  });

  it('when ten visits complete on a card of requiredStamps 5 then two vouchers are issued, in cycles 1 and 2, with the reward snapshot and expiry', async () => {
    const s = await bookingSalon();
    const card = await visitCard(s, { requiredStamps: 5, rewardType: 'DISCOUNT_PERCENT', rewardValue: 50, voucherExpiryMonths: 6 });
    const c = await addCustomer(s);
    for (let i = 0; i < 10; i++) {
      const b = await bookOk(s, c);
      await complete(s, b.id);
      await processed(b.id);
    }
    const vouchers = await vouchersOf(c.tenantCustomerId);
    expect(vouchers.map((v) => v.issuedFromCycleNumber)).to.deep.equal([1, 2]);
    for (const v of vouchers) {
      expect(v.code).to.match(/^STAMP-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
      expect(v).to.include({ status: 'ACTIVE', rewardType: 'DISCOUNT_PERCENT', rewardValue: 50, loyaltyCardId: card.id });
      const months = (new Date(v.expiresAt).getTime() - new Date(v.issuedAt).getTime()) / (24 * 3600 * 1000);
      expect(months).to.be.within(180, 185);
    }
    const stamps = await (await knex())('loyalty_stamps').where({ tenantCustomerId: c.tenantCustomerId }).orderBy(['cycleNumber', 'stampNumber']);
    expect(stamps.map((x) => `${x.cycleNumber}.${x.stampNumber}`)).to.deep.equal(['1.1', '1.2', '1.3', '1.4', '1.5', '2.1', '2.2', '2.3', '2.4', '2.5']);
    const progress = await call('get', `/loyalty-cards/customer/${c.tenantCustomerId}`, s.owner.token);
    expect(progress.body.data[0]).to.include({ currentCycle: 3, stampsInCycle: 0, vouchersIssued: 2 });
    // the card's later change does not touch the snapshot
    await call('patch', `/loyalty-cards/${card.id}`, s.owner.token, { rewardValue: 10 });
    expect((await vouchersOf(c.tenantCustomerId)).map((v) => v.rewardValue)).to.deep.equal([50, 50]);
  });

  it('when requiredStamps is lowered below the current count then the next stamp completes the cycle; raised, the cycle goes on', async () => {
    const s = await bookingSalon();
    const card = await visitCard(s, { requiredStamps: 5 });
    const c = await addCustomer(s);
    for (let i = 0; i < 3; i++) {
      const b = await bookOk(s, c);
      await complete(s, b.id);
      await processed(b.id);
    }
    expect((await call('patch', `/loyalty-cards/${card.id}`, s.owner.token, { requiredStamps: 2 })).status).to.equal(200);
    const fourth = await bookOk(s, c);
    await complete(s, fourth.id);
    await processed(fourth.id);
    expect((await vouchersOf(c.tenantCustomerId)).map((v) => v.issuedFromCycleNumber)).to.deep.equal([1]);
    expect((await call('patch', `/loyalty-cards/${card.id}`, s.owner.token, { requiredStamps: 3 })).status).to.equal(200);
    const progress = await call('get', `/loyalty-cards/${card.id}/stamps/${c.tenantCustomerId}`, s.owner.token);
    expect(progress.body.data).to.include({ currentCycle: 2, stampsInCycle: 0, requiredStamps: 3, stampsToNextVoucher: 3 });
  });

  it('when the paid amount is below minBookingValue then no stamp; at the minimum a stamp (null: every booking)', async () => {
    const s = await bookingSalon(); // the service costs 50000
    const above = await visitCard(s, { name: 'over', minBookingValue: 50001 });
    const exact = await visitCard(s, { name: 'exact', minBookingValue: 50000 });
    const any = await visitCard(s, { name: 'any', minBookingValue: null });
    const c = await addCustomer(s);
    const b = await bookOk(s, c);
    await complete(s, b.id);
    await processed(b.id);
    const stamps = await (await knex())('loyalty_stamps').where({ bookingId: b.id });
    expect(stamps.map((x) => x.loyaltyCardId).sort()).to.deep.equal([exact.id, any.id].sort());
    expect(stamps.map((x) => x.loyaltyCardId)).not.to.include(above.id);
  });

  it('when the card is inactive or deleted then it earns nothing; a booking without a customer is not processed', async () => {
    const s = await bookingSalon();
    const inactive = await visitCard(s, { isActive: false });
    const deleted = await visitCard(s);
    expect((await call('delete', `/loyalty-cards/${deleted.id}`, s.owner.token)).status).to.equal(204);
    const c = await addCustomer(s);
    const b = await bookOk(s, c);
    await complete(s, b.id);
    await processed(b.id);
    expect(await (await knex())('loyalty_stamps').whereIn('loyaltyCardId', [inactive.id, deleted.id])).to.have.length(0);
    const anonymous = await bookOk(s, null);
    await complete(s, anonymous.id);
    await eventually(async () => (await (await knex())('bookings').where({ id: anonymous.id }).first()).status === 'COMPLETED', 'completion');
    expect((await (await knex())('bookings').where({ id: anonymous.id }).first()).processedForLoyalty).to.equal(false);
  });

  it('when a points card exists then completion earns earnRate points per whole krone paid, once', async () => {
    const s = await bookingSalon();
    const res = await call('post', '/loyalty-cards', s.owner.token, {
      name: 'Poeng',
      type: 'POINTS_BASED',
      earnRate: 2,
      redeemRate: 50,
      expiryMonths: 12,
      minRedemption: 100,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const c = await addCustomer(s);
    const b = await bookOk(s, c);
    await complete(s, b.id);
    await processed(b.id);
    const points = await call('get', `/loyalty-cards/${res.body.data.id}/points/${c.tenantCustomerId}`, s.staff[0].user.token);
    expect(points.status).to.equal(200);
    expect(points.body.data).to.include({ balance: 1000, balanceValue: 50000, minRedemption: 100 });
    expect(points.body.data.transactions).to.have.length(1);
    expect(points.body.data.transactions[0]).to.include({ type: 'EARN', points: 1000, balanceAfter: 1000, bookingId: b.id });
    expect(points.body.data.transactions[0].expiresAt).to.be.a('string');
  });

  it('when a generated code clashes then it is generated again, at most 5 times, then the issue fails', async () => {
    const s = await bookingSalon();
    const card = await visitCard(s);
    const c = await addCustomer(s);
    const db = await knex();
    const { signaller } = await stack();
    const row = (await findCard(db, s.tenant.id, card.id))!;
    const taken = await db.transaction((trx) =>
      issueVoucher(
        trx,
        signaller,
        { card: row, tenantCustomerId: c.tenantCustomerId, cycleNumber: 1, bookingId: null, now: new Date() },
        () => 'STAMP-AAAA-0001',
      ),
    );
    const codes = ['STAMP-AAAA-0001', 'STAMP-AAAA-0001', 'STAMP-AAAA-0001', 'STAMP-AAAA-0001', 'STAMP-AAAA-0001', 'STAMP-AAAA-0002'];
    const fifthRetry = await db.transaction((trx) =>
      issueVoucher(trx, signaller, { card: row, tenantCustomerId: c.tenantCustomerId, cycleNumber: 2, bookingId: null, now: new Date() }, () => codes.shift()!),
    );
    expect(taken.code).to.equal('STAMP-AAAA-0001');
    expect(fifthRetry.code).to.equal('STAMP-AAAA-0002');
    await rejectsWith(
      db.transaction((trx) =>
        issueVoucher(
          trx,
          signaller,
          { card: row, tenantCustomerId: c.tenantCustomerId, cycleNumber: 3, bookingId: null, now: new Date() },
          () => 'STAMP-AAAA-0001',
        ),
      ),
      { status: 409, code: 'LOYALTY_VOUCHER_CODE_EXHAUSTED' },
    );
  });
});
