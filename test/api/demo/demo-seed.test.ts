import { expect } from 'chai';
import type { Knex } from 'knex';
import { stack } from '../../support/stack';
import { createSalon } from '../../support/factories';
import { emptyDatabase, type EmptyDatabase } from '../../support/empty-database';
import { seedDemoSalon, DEMO_OWNER_EMAIL, DEMO_PASSWORD } from '../../../domain/demo/demo-salon';
import { verifyPassword } from '../../../domain/users/passwords';
import { slotProblems } from '../../../domain/tenant/tenant-settings.rules';

describe('seedDemoSalon (npm start demo data)', () => {
  let db: EmptyDatabase;
  let empty: Knex;

  before(async function () {
    this.timeout(60_000);
    db = await emptyDatabase('demo_seed');
    empty = db.knex;
  });

  after(async () => {
    await db?.drop();
  });

  it('when a tenant already exists then it does nothing', async () => {
    const { platform } = await stack();
    await createSalon();
    const before = await platform.knex('tenants').count('* as n').first();
    expect(await seedDemoSalon(platform.knex, { passwordHashRounds: 4 })).to.deep.equal({ created: false });
    expect(await platform.knex('tenants').count('* as n').first()).to.deep.equal(before);
  });

  it('when the database is empty then one demo salon is created, and running it again (even twice at once) adds nothing', async () => {
    const [a, b] = await Promise.all([seedDemoSalon(empty, { passwordHashRounds: 4 }), seedDemoSalon(empty, { passwordHashRounds: 4 })]);
    expect([a.created, b.created].sort()).to.deep.equal([false, true]);
    const result = a.created ? a : b;
    if (!result.created) throw new Error('unreachable');
    expect(result.owner).to.include({ email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD, role: 'OWNER' });
    expect(result.staff).to.have.length(3);
    expect(await seedDemoSalon(empty, { passwordHashRounds: 4 })).to.deep.equal({ created: false });

    const count = async (table: string) => Number((await empty(table).count('* as n').first())!.n);
    expect(await count('tenants')).to.equal(1);
    expect(await count('users')).to.equal(4);
    expect(await count('service_categories')).to.be.within(2, 3);
    expect(await count('services')).to.be.at.least(5);
    expect(await count('taxes')).to.equal(3);

    const owner = await empty('users').where({ email: DEMO_OWNER_EMAIL }).first();
    expect(owner).to.include({ role: 'OWNER', tenantId: result.tenantId });
    expect(await verifyPassword(DEMO_PASSWORD, owner.passwordHash)).to.equal(true);

    const staff = await empty('resources').where({ tenantId: result.tenantId, type: 'staff' });
    expect(staff).to.have.length(3);
    const tenant = await empty('tenants').where({ id: result.tenantId }).first();
    for (const member of staff) {
      const user = await empty('users').where({ id: member.userId }).first();
      expect(user.role).to.equal('STAFF');
      const skills = await empty('resource_skills').where({ resourceId: member.id });
      expect(skills.length).to.be.at.least(2);
      const schedule = await empty('resource_schedules').where({ resourceId: member.id });
      expect(schedule.length).to.be.at.least(4);
      for (let day = 0; day <= 6; day++) {
        const slots = schedule.filter((r: { dayOfWeek: number }) => r.dayOfWeek === day);
        expect(slotProblems(slots, 'x'), `day ${day}`).to.deep.equal([]);
        const open = tenant.settings.businessHours.find((d: { dayOfWeek: number }) => d.dayOfWeek === day);
        for (const slot of slots) {
          expect(open.isOpen, `${member.name} works on closed day ${day}`).to.equal(true);
          expect(slot.startTime >= open.slots[0].startTime && slot.endTime <= open.slots[0].endTime, `${member.name} ${day}`).to.equal(true);
        }
      }
    }
    const services = await empty('services').where({ tenantId: result.tenantId });
    expect(services.every((svc: { currency: string; categoryId: string | null }) => svc.currency === 'NOK' && svc.categoryId)).to.equal(true);
  });
});
