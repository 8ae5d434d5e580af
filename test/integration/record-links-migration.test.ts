// Migration 230's data step (docs/rules/customers.md#linking-an-account): links the e-mail rule made
// are ended, a link the account proved by its phone stays, and a record whose phone an account
// proved goes to that account (the earliest proof first) unless it has a record in that salon.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { bookingSalon, knex } from '../support/booking-fixtures';
import { unique } from '../support/factories';
import { settleRecordLinks } from '../../db/migrations/230_record_links_need_a_proven_phone';

const phone = () => `+474${crypto.randomInt(1_000_000, 9_999_999)}`;

describe('migration 230: a record is linked only to the account that proved its phone', function () {
  this.timeout(60_000);

  it('when records were linked by a verified e-mail, by a proven phone, or not at all then only the proven links stay and each proven phone gets its record, the earliest proof first', async () => {
    const salon = await bookingSalon();
    const tenantId = salon.tenant.id;
    const db = await knex();
    const account = async (fields: { phone?: string; provenAt?: Date }) =>
      (
        await db('customer_accounts')
          .insert({ email: `${unique('konto')}@example.test`, emailVerified: true, phone: fields.phone ?? null, phoneVerifiedAt: fields.provenAt ?? null })
          .returning('id')
      )[0].id as string;
    const record = async (recordPhone: string, accountId: string | null, email: string | null = null) =>
      (
        await db('customers')
          .insert({ tenantId, name: unique('Kari'), phone: recordPhone, email, accountId })
          .returning('id')
      )[0].id as string;
    const [byEmail, byPhone, unlinked, taken, second] = [phone(), phone(), phone(), phone(), phone()];

    const stranger = await account({});
    const emailLinked = await record(byEmail, stranger, 'stranger@example.test');
    const prover = await account({ phone: byPhone, provenAt: new Date() });
    const provenLinked = await record(byPhone, prover);
    const early = await account({ phone: unlinked, provenAt: new Date(Date.now() - 60_000) });
    const late = await account({ phone: unlinked, provenAt: new Date() });
    const waiting = await record(unlinked, null);
    const owner = await account({ phone: taken, provenAt: new Date() });
    const squatted = await record(taken, await account({}));
    // linked to a record whose phone it never proved, and proven for another record's phone
    const busy = await account({ phone: second, provenAt: new Date() });
    const busyOwn = await record(phone(), busy);
    const secondRecord = await record(second, null);

    await db.transaction((trx) => settleRecordLinks(trx, tenantId));

    const linkOf = async (id: string) => (await db('customers').where({ id }).first('accountId')).accountId;
    expect(await linkOf(emailLinked), 'an e-mail proves nothing').to.equal(null);
    expect(await linkOf(provenLinked)).to.equal(prover);
    expect(await linkOf(waiting), 'the earliest proof').to.equal(early);
    expect(late).to.not.equal(early);
    expect(await linkOf(squatted), 'taken back by the proven phone').to.equal(owner);
    expect(await linkOf(busyOwn), 'unproven: ended').to.equal(null);
    expect(await linkOf(secondRecord), 'the proven phone gets it once the unproven link is gone').to.equal(busy);
  });
});
