// Migration 180 (docs/production.md#renaming-a-column, docs/rules/booking.md#the-words): the customer's
// promise to come and the manage token get their own columns, the salon's flag time its own settings
// key, filled from the old ones; while the version before it still runs, whichever name a process
// writes, the other follows. Run on a database of its own, migrated to just before 180 and then up.
import crypto from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrateLatest } from '../../db/knex';
import { databaseBefore } from '../support/migration-database';

describe('migration 180: the promise to come and the manage token under their own names', function () {
  this.timeout(120_000);
  let db: Knex;
  let drop: () => Promise<void>;

  before(async () => {
    ({ db, drop } = await databaseBefore('180', 'promise_migration'));
  });

  after(() => drop?.());

  const columns = [
    'promisedAt',
    'promisedVia',
    'unpromisedFlaggedAt',
    'manageTokenHash',
    'confirmedAt',
    'confirmedVia',
    'unconfirmedFlaggedAt',
    'cancellationTokenHash',
  ];
  const row = async (id: string) => db('bookings').where({ id }).first(columns);
  const flagTime = async (tenantId: string) => {
    const { settings } = await db('tenants').where({ id: tenantId }).first('settings');
    return { unpromisedFlagHoursBefore: settings.unpromisedFlagHoursBefore, unconfirmedFlagHoursBefore: settings.unconfirmedFlagHoursBefore };
  };

  it('when rows of the version before are migrated then the new names hold their values, and each name a process writes afterwards fills the other', async () => {
    const [tenant] = await db('tenants')
      .insert({
        name: 'Gammel salong',
        slug: `gammel-${crypto.randomBytes(4).toString('hex')}`,
        settings: { timezone: 'Europe/Oslo', unconfirmedFlagHoursBefore: 6 },
      })
      .returning('id');
    const tenantId = tenant.id as string;
    const book = async (fields: Record<string, unknown>) =>
      (
        await db('bookings')
          .insert({
            tenantId,
            startTime: new Date('2030-03-04T09:00:00Z'),
            endTime: new Date('2030-03-04T10:00:00Z'),
            status: 'CONFIRMED',
            source: 'ONLINE',
            ...fields,
          })
          .returning('id')
      )[0].id as string;
    const promisedAt = new Date('2030-03-03T12:00:00.000Z');
    const promised = await book({ confirmedAt: promisedAt, confirmedVia: 'SMS', cancellationTokenHash: 'a'.repeat(64) });
    const flagged = await book({ unconfirmedFlaggedAt: promisedAt });
    const [reply] = await db('sms_replies')
      .insert({
        gateway: 'SVEVE',
        gatewayMessageId: crypto.randomUUID(),
        fromPhone: '+4791234567',
        text: 'JA',
        intent: 'CONFIRM',
        outcome: 'CONFIRMED',
        answer: 'Takk!',
      })
      .returning('id');

    await migrateLatest(db);

    expect(await row(promised)).to.include({ promisedVia: 'SMS', confirmedVia: 'SMS', manageTokenHash: 'a'.repeat(64), cancellationTokenHash: 'a'.repeat(64) });
    expect((await row(promised)).promisedAt.toISOString()).to.equal(promisedAt.toISOString());
    expect((await row(flagged)).unpromisedFlaggedAt.toISOString()).to.equal(promisedAt.toISOString());
    expect(await flagTime(tenantId)).to.deep.equal({ unpromisedFlagHoursBefore: 6, unconfirmedFlagHoursBefore: 6 });
    expect(await db('sms_replies').where({ id: reply.id }).first('intent', 'outcome')).to.deep.equal({ intent: 'PROMISE', outcome: 'PROMISED' });

    // the version before writes the old names: the new ones follow
    const later = new Date('2030-03-03T13:00:00.000Z');
    const byOld = await book({ cancellationTokenHash: 'b'.repeat(64) });
    await db('bookings').where({ id: byOld }).update({ confirmedAt: later, confirmedVia: 'LINK', unconfirmedFlaggedAt: later });
    expect(await row(byOld)).to.include({ manageTokenHash: 'b'.repeat(64), promisedVia: 'LINK' });
    expect((await row(byOld)).promisedAt.toISOString()).to.equal(later.toISOString());
    expect((await row(byOld)).unpromisedFlaggedAt.toISOString()).to.equal(later.toISOString());

    // this version writes the new names: the old ones follow, so the version before reads them
    const byNew = await book({ manageTokenHash: 'c'.repeat(64) });
    await db('bookings').where({ id: byNew }).update({ promisedAt: later, promisedVia: 'STAFF' });
    expect(await row(byNew)).to.include({ cancellationTokenHash: 'c'.repeat(64), confirmedVia: 'STAFF', unconfirmedFlaggedAt: null });
    expect((await row(byNew)).confirmedAt.toISOString()).to.equal(later.toISOString());

    // the salon's setting, both ways, and an update that leaves it alone keeps both
    await db.raw(`UPDATE tenants SET settings = settings || '{"unconfirmedFlagHoursBefore": 4}'::jsonb WHERE id = ?`, [tenantId]);
    expect(await flagTime(tenantId)).to.deep.equal({ unpromisedFlagHoursBefore: 4, unconfirmedFlagHoursBefore: 4 });
    await db.raw(`UPDATE tenants SET settings = (settings - 'unconfirmedFlagHoursBefore') || '{"unpromisedFlagHoursBefore": null}'::jsonb WHERE id = ?`, [
      tenantId,
    ]);
    expect(await flagTime(tenantId)).to.deep.equal({ unpromisedFlagHoursBefore: null, unconfirmedFlagHoursBefore: null });
    await db.raw(`UPDATE tenants SET settings = settings || '{"timezone": "Europe/Stockholm"}'::jsonb WHERE id = ?`, [tenantId]);
    expect(await flagTime(tenantId)).to.deep.equal({ unpromisedFlagHoursBefore: null, unconfirmedFlagHoursBefore: null });
    const [fresh] = await db('tenants')
      .insert({ name: 'Ny salong', slug: `ny-${crypto.randomBytes(4).toString('hex')}`, settings: { unpromisedFlagHoursBefore: 2 } })
      .returning('id');
    expect(await flagTime(fresh.id)).to.deep.equal({ unpromisedFlagHoursBefore: 2, unconfirmedFlagHoursBefore: 2 });
  });
});
