// Migration 130's data step (docs/rules/conventions.md#phone-numbers): numbers stored as typed are
// written in E.164, read in the salon's country; nothing is merged: a number nobody can read, or one
// whose E.164 form another row holds, stays as it was and is reported in phone_normalisation_issues.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { bookingSalon, knex, localDay } from '../support/booking-fixtures';
import { normaliseStoredPhones } from '../../db/migrations/130_phone_numbers_e164';

const digits = () => String(crypto.randomInt(40000000, 49999999));

describe('migration 130: stored phone numbers in E.164', function () {
  this.timeout(60_000);

  it('when customers, a booking, waitlist entries and a staff login hold numbers as typed then they are written in E.164, two customers that are one phone are both kept and the newer reported TAKEN, and a number that is none is reported NOT_A_NUMBER', async () => {
    const salon = await bookingSalon();
    const db = await knex();
    const tenantId = salon.tenant.id;
    const [a, b, c] = [digits(), digits(), digits()];
    const older = new Date(Date.now() - 60_000);
    const [kari] = await db('customers')
      .insert({ tenantId, name: 'Kari', phone: `${a.slice(0, 3)} ${a.slice(3, 5)} ${a.slice(5)}`, createdAt: older })
      .returning('id');
    const [kari2] = await db('customers')
      .insert({ tenantId, name: 'Kari igjen', phone: `0047${a}` })
      .returning('id');
    const [ola] = await db('customers').insert({ tenantId, name: 'Ola', phone: b }).returning('id');
    const [nobody] = await db('customers').insert({ tenantId, name: 'Ingen', phone: '12 34' }).returning('id');
    await db('users')
      .where({ id: salon.staff[0].user.id })
      .update({ phone: `0047 ${c}` });
    const waiting = { tenantId, source: 'PUBLIC', serviceIds: [salon.serviceId], contactName: 'Vera', tokenHash: 'x'.repeat(64) };
    const [first] = await db('waitlist_entries')
      .insert({ ...waiting, fromDate: localDay(1), toDate: localDay(3), contactPhone: b, createdAt: older })
      .returning('id');
    const [second] = await db('waitlist_entries')
      .insert({ ...waiting, fromDate: localDay(2), toDate: localDay(4), contactPhone: `+47 ${b}` })
      .returning('id');

    await db.transaction((trx) => normaliseStoredPhones(trx, tenantId));

    const phoneOf = async (table: string, id: string, column = 'phone') => (await db(table).where({ id }).first())[column];
    expect(await phoneOf('customers', kari.id)).to.equal(`+47${a}`);
    expect(await phoneOf('customers', kari2.id), 'not merged: kept as typed').to.equal(`0047${a}`);
    expect(await phoneOf('customers', ola.id)).to.equal(`+47${b}`);
    expect(await phoneOf('customers', nobody.id)).to.equal('12 34');
    expect(await phoneOf('users', salon.staff[0].user.id)).to.equal(`+47${c}`);
    expect(await phoneOf('waitlist_entries', first.id, 'contactPhone')).to.equal(`+47${b}`);
    expect(await phoneOf('waitlist_entries', second.id, 'contactPhone'), 'overlapping dates: kept').to.equal(`+47 ${b}`);
    const issues = await db('phone_normalisation_issues').where({ tenantId }).orderBy('createdAt');
    expect(issues.map((i: Record<string, unknown>) => [i.tableName, i.rowId, i.problem, i.e164, i.otherRowId])).to.have.deep.members([
      ['customers', kari2.id, 'TAKEN', `+47${a}`, kari.id],
      ['customers', nobody.id, 'NOT_A_NUMBER', null, null],
      ['waitlist_entries', second.id, 'TAKEN', `+47${b}`, first.id],
    ]);
  });
});
