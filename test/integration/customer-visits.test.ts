// The functions the booking workflow uses: findOrCreateCustomerByPhone and recordCompletedVisit,
// each run inside a caller's transaction like the booking service will.
import chai, { expect } from 'chai';
import chaiAsPromised from 'chai-as-promised';
import crypto from 'node:crypto';
import { stack } from '../support/stack';
import { createSalon } from '../support/factories';
import { findOrCreateCustomerByPhone, createCustomer, getCustomer } from '../../domain/customer/customer.service';
import { recordCompletedVisit } from '../../domain/customer/tenant-customer.service';
import { CustomerModel } from '../../db/models/customer.model';
import { TenantCustomerModel } from '../../db/models/tenant-customer.model';
import { rejectsWith, rejectsWithItself } from '../support/rejections';

chai.use(chaiAsPromised);

async function knex() {
  return (await stack()).platform.deps.knex;
}

describe('findOrCreateCustomerByPhone', () => {
  it('when the phone is new then the customer and its tenant customer are created with the phone in E.164 and the e-mail lower-cased', async () => {
    const { tenant } = await createSalon();
    const result = await (
      await knex()
    ).transaction((trx) => findOrCreateCustomerByPhone(trx, tenant.id, { name: 'Kari', phone: '+47 912 00 001', email: 'Kari@Example.no' }, 'NO'));
    expect(result.created).to.equal(true);
    expect(await getCustomer(await knex(), tenant.id, result.id)).to.include({ name: 'Kari', phone: '+4791200001', email: 'kari@example.no' });
    const tenantCustomers = await TenantCustomerModel.query().where({ tenantId: tenant.id });
    expect(tenantCustomers).to.have.length(1);
    expect(tenantCustomers[0]).to.include({ customerId: result.id, visitCount: 0, totalSpent: 0 });
  });

  it('when the phone matches (written differently) then the existing customer is returned unchanged', async () => {
    const { tenant } = await createSalon();
    const existing = await createCustomer(await knex(), tenant.id, { name: 'Kari Nordmann', phone: '+4791200002', email: 'kari@example.no' });
    const result = await (
      await knex()
    ).transaction((trx) => findOrCreateCustomerByPhone(trx, tenant.id, { name: 'K. Nordmann', phone: '+47 912 00 002', email: 'other@example.no' }, 'NO'));
    expect(result.created).to.equal(false);
    expect(await getCustomer(await knex(), tenant.id, result.id)).to.deep.equal(existing);
    expect(await TenantCustomerModel.query().where({ tenantId: tenant.id, customerId: existing.id })).to.have.length(1);
    expect(await CustomerModel.query().where({ tenantId: tenant.id })).to.have.length(1);
  });

  it('when the same phone exists in another salon then this salon gets its own customer', async () => {
    const a = await createSalon();
    const b = await createSalon();
    await createCustomer(await knex(), a.tenant.id, { name: 'A', phone: '+4791200003' });
    const result = await (await knex()).transaction((trx) => findOrCreateCustomerByPhone(trx, b.tenant.id, { name: 'B', phone: '+4791200003' }, 'NO'));
    expect(result.created).to.equal(true);
    expect((await CustomerModel.query().findById(result.id))?.tenantId).to.equal(b.tenant.id);
  });

  it('when the e-mail belongs to another customer then the new customer is stored without it and the transaction stays usable', async () => {
    const { tenant } = await createSalon();
    await createCustomer(await knex(), tenant.id, { name: 'Owner of mail', phone: '+4791200004', email: 'shared@example.no' });
    const result = await (
      await knex()
    ).transaction(async (trx) => {
      const found = await findOrCreateCustomerByPhone(trx, tenant.id, { name: 'New', phone: '+4791200005', email: 'SHARED@example.no' }, 'NO');
      await trx.raw('select 1'); // the caller's transaction was not aborted by a unique violation
      return found;
    });
    expect(result.created).to.equal(true);
    expect(await getCustomer(await knex(), tenant.id, result.id)).to.include({ phone: '+4791200005', email: null });
  });

  it('when ten bookings race for the same new phone then exactly one customer and one tenant customer exist', async () => {
    const { tenant } = await createSalon();
    const k = await knex();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        k.transaction((trx) => findOrCreateCustomerByPhone(trx, tenant.id, { name: `racer ${i}`, phone: '+47 912 00 006' }, 'NO')),
      ),
    );
    expect(new Set(results.map((r) => r.id)).size).to.equal(1);
    expect(results.filter((r) => r.created)).to.have.length(1);
    expect(await CustomerModel.query().where({ tenantId: tenant.id })).to.have.length(1);
    expect(await TenantCustomerModel.query().where({ tenantId: tenant.id })).to.have.length(1);
  });

  it('when the phone is blank then it is rejected with VALIDATION_ERROR', async () => {
    const { tenant } = await createSalon();
    await rejectsWith(
      (await knex()).transaction((trx) => findOrCreateCustomerByPhone(trx, tenant.id, { name: 'x', phone: '  ' }, 'NO')),
      { status: 400, code: 'VALIDATION_ERROR' },
    );
  });
});

describe('recordCompletedVisit', () => {
  it('when a booking completes then visitCount, totalSpent, firstVisit and lastVisit move', async () => {
    const { tenant } = await createSalon();
    const c = await createCustomer(await knex(), tenant.id, { name: 'Kari', phone: '+4791300001' });
    const k = await knex();
    const first = await k.transaction((trx) =>
      recordCompletedVisit(trx, {
        tenantId: tenant.id,
        customerId: c.id,
        bookingId: crypto.randomUUID(),
        amount: 59900,
        visitedAt: new Date('2026-03-01T10:00:00Z'),
      }),
    );
    expect(first.recorded).to.equal(true);
    expect(first.tenantCustomer).to.include({
      visitCount: 1,
      totalSpent: 59900,
      firstVisit: '2026-03-01T10:00:00.000Z',
      lastVisit: '2026-03-01T10:00:00.000Z',
    });
    // an older booking completing later does not move lastVisit back, but moves firstVisit
    const second = await k.transaction((trx) =>
      recordCompletedVisit(trx, {
        tenantId: tenant.id,
        customerId: c.id,
        bookingId: crypto.randomUUID(),
        amount: 100,
        visitedAt: new Date('2026-02-01T09:00:00Z'),
      }),
    );
    expect(second.tenantCustomer).to.include({
      visitCount: 2,
      totalSpent: 60000,
      firstVisit: '2026-02-01T09:00:00.000Z',
      lastVisit: '2026-03-01T10:00:00.000Z',
    });
  });

  it('when the same booking is recorded twice (retry, repeated COMPLETED) then it counts once', async () => {
    const { tenant } = await createSalon();
    const c = await createCustomer(await knex(), tenant.id, { name: 'Kari', phone: '+4791300002' });
    const k = await knex();
    const visit = { tenantId: tenant.id, customerId: c.id, bookingId: crypto.randomUUID(), amount: 50000, visitedAt: new Date('2026-03-01T10:00:00Z') };
    const results = await Promise.all([1, 2, 3].map(() => k.transaction((trx) => recordCompletedVisit(trx, visit))));
    expect(results.filter((r) => r.recorded)).to.have.length(1);
    const again = await k.transaction((trx) => recordCompletedVisit(trx, visit));
    expect(again.recorded).to.equal(false);
    expect(again.tenantCustomer).to.include({ visitCount: 1, totalSpent: 50000 });
  });

  it('when the caller rolls back then nothing is counted and the booking can be recorded later', async () => {
    const { tenant } = await createSalon();
    const c = await createCustomer(await knex(), tenant.id, { name: 'Kari', phone: '+4791300003' });
    const k = await knex();
    const visit = { tenantId: tenant.id, customerId: c.id, bookingId: crypto.randomUUID(), amount: 100, visitedAt: new Date() };
    const failure = new Error('booking completion failed');
    const rolledBack = k.transaction(async (trx) => {
      expect((await recordCompletedVisit(trx, visit)).recorded).to.equal(true);
      throw failure;
    });
    await rejectsWithItself(rolledBack, failure);
    expect(await TenantCustomerModel.query().findOne({ customerId: c.id })).to.include({ visitCount: 0, totalSpent: 0 });
    const later = await k.transaction((trx) => recordCompletedVisit(trx, visit));
    expect(later.recorded).to.equal(true);
  });

  it("when the customer has no tenant-customer row yet then it is created; another salon's customer is CUSTOMER_NOT_FOUND", async () => {
    const { tenant } = await createSalon();
    const other = await createSalon();
    const bare = await CustomerModel.query().insert({ tenantId: tenant.id, name: 'No row', phone: '+4791300004' });
    const k = await knex();
    const res = await k.transaction((trx) =>
      recordCompletedVisit(trx, { tenantId: tenant.id, customerId: bare.id, bookingId: crypto.randomUUID(), amount: 0, visitedAt: new Date() }),
    );
    expect(res.tenantCustomer.visitCount).to.equal(1);
    await rejectsWith(
      k.transaction((trx) =>
        recordCompletedVisit(trx, { tenantId: other.tenant.id, customerId: bare.id, bookingId: crypto.randomUUID(), amount: 0, visitedAt: new Date() }),
      ),
      { status: 404, code: 'CUSTOMER_NOT_FOUND' },
    );
  });

  it('when the amount is negative or not whole minor units then it is rejected', async () => {
    const { tenant } = await createSalon();
    const c = await createCustomer(await knex(), tenant.id, { name: 'Kari', phone: '+4791300005' });
    const k = await knex();
    for (const amount of [-1, 10.5]) {
      await rejectsWith(
        k.transaction((trx) =>
          recordCompletedVisit(trx, { tenantId: tenant.id, customerId: c.id, bookingId: crypto.randomUUID(), amount, visitedAt: new Date() }),
        ),
        { status: 400, code: 'VALIDATION_ERROR' },
      );
    }
  });
});
