// The moment of erasure against a booking of the same customer, on the real database
// (docs/rules/personal-data.md#erasure-racing-a-booking), each order made to happen: a booking
// transaction that already names the record holds the erasure's row lock until it commits, and is
// then erased with the record; a booking that reaches the record after the erasure took it waits,
// and is refused by bookings_customer_not_erased_fk once the erasure commits.
import { expect } from 'chai';
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { stack } from '../support/stack';
import { bookingSalon, knex } from '../support/booking-fixtures';
import { eventually } from '../support/eventually';
import { tenantById } from '../../domain/tenant/tenant-context';
import { eraseAtTheMoment, type ErasureDeps } from '../../domain/personal-data/erasure-steps';
import { bookingHooks } from '../../composition/domain-hooks';
import type { EntitySignaller } from '../../domain/workflow-signals/entity-signaller';

const quiet: EntitySignaller = { signal: async () => undefined };

/** Waits until a statement whose text contains `marker` waits for a lock (the barrier that the race is on). */
async function waitingOnALock(db: Knex, marker: string): Promise<void> {
  await eventually(async () => {
    const { rows } = await db.raw(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE ?`, [`%${marker}%`]);
    return rows.length > 0;
  }, `a statement with ${marker} waiting on a lock`);
}

describe('erasure racing a booking of the same customer (real database)', () => {
  let db: Knex;
  let deps: ErasureDeps;
  before(async () => {
    const { platform } = await stack();
    db = knexFactory({ ...platform.knex.client.config, pool: { min: 0, max: 6 }, ...knexSnakeCaseMappers() });
    deps = { knex: db, signaller: quiet, manageLinkKey: platform.deps.config.keys.manageLink, entryKey: platform.deps.config.keys.waitlistEntry, bookingHooks };
  });
  after(async () => {
    await db?.destroy();
  });

  async function customerOf(tenantId: string): Promise<{ id: string; phone: string }> {
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const [row] = await (await knex())('customers').insert({ tenantId, name: 'Rask Kunde', phone }).returning('id');
    return { id: row.id, phone };
  }

  const bookingRow = (tenantId: string, customerId: string, phone: string, marker: string) => ({
    tenantId,
    customerId,
    startTime: new Date(Date.now() + 86_400_000),
    endTime: new Date(Date.now() + 90_000_000),
    status: 'CONFIRMED',
    source: 'ADMIN',
    contactName: 'Rask Kunde',
    contactPhone: phone,
    notes: marker,
  });

  it('when a booking naming the record is inserted first then the erasure waits for it to commit and erases it with the record', async function () {
    this.timeout(30_000);
    const s = await bookingSalon();
    const tenant = await tenantById(db, s.tenant.id);
    const c = await customerOf(s.tenant.id);
    const marker = `race-${crypto.randomUUID()}`;
    const booking = await db.transaction();
    const [inserted] = await booking('bookings')
      .insert(bookingRow(s.tenant.id, c.id, c.phone, marker))
      .returning('id');
    const erasing = db.transaction((trx) => eraseAtTheMoment(deps, trx, { tenant, customerId: c.id }, new Date()));
    await waitingOnALock(db, 'for update');
    await booking.commit();
    expect(await erasing).to.include({ phone: c.phone });
    const row = await (await knex())('bookings').where({ id: inserted.id }).first();
    expect(row).to.include({ customerId: c.id, customerErased: true, contactPhone: null, contactName: null });
  });

  it('when the erasure takes the record first then a booking naming it waits and is refused by bookings_customer_not_erased_fk; nothing of it is written', async function () {
    this.timeout(30_000);
    const s = await bookingSalon();
    const tenant = await tenantById(db, s.tenant.id);
    const c = await customerOf(s.tenant.id);
    const marker = `race-${crypto.randomUUID()}`;
    const erasure = await db.transaction();
    await eraseAtTheMoment(deps, erasure, { tenant, customerId: c.id }, new Date());
    const booking = db.transaction((trx) => trx('bookings').insert(bookingRow(s.tenant.id, c.id, c.phone, marker)));
    await waitingOnALock(db, 'insert into "bookings"');
    await erasure.commit();
    const refused = await booking.then(
      () => undefined,
      (err: { constraint?: string }) => err,
    );
    expect(refused?.constraint).to.equal('bookings_customer_not_erased_fk');
    expect(await (await knex())('bookings').where({ notes: marker })).to.deep.equal([]);
    expect(await (await knex())('customers').where({ id: c.id }).first()).to.include({ erased: true, phone: null });
  });
});
