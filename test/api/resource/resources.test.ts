import { expect } from 'chai';
import { stack } from '../../support/stack';
import { salonWithRoles, type Caller, type RoleSalon } from '../../support/salon-roles';
import { tokenFor, unique, uniquePhone } from '../../support/factories';
import { call, http } from '../../support/http';
import { resourceIdForUser } from '../../../domain/resource/resource.service';

async function newService(s: RoleSalon, fields: Record<string, unknown> = {}) {
  const res = await s.as('OWNER', 'post', '/services', { name: unique('Klipp'), duration: 30, price: 45000, ...fields });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { id: string };
}

async function newResource(s: RoleSalon, fields: Record<string, unknown> = {}) {
  const res = await s.as('OWNER', 'post', '/resources', { name: unique('Kari'), ...fields });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { id: string; userId: string | null; skills: string[]; metadata: Record<string, unknown> };
}

async function db() {
  return (await stack()).platform.knex;
}

describe('resources', () => {
  let s: RoleSalon;
  let other: RoleSalon;
  before(async () => {
    s = await salonWithRoles();
    other = await salonWithRoles();
  });

  describe('POST /resources', () => {
    it('when the owner creates a staff member with metadata then it is stored with defaults (type staff, active, bookable online)', async () => {
      const res = await s.as('OWNER', 'post', '/resources', {
        name: 'Ingrid Hansen',
        color: '#AA00ff',
        metadata: { jobTitle: 'Frisør', phone: '+4791234567', email: 'ingrid@example.test', commission: 40 },
      });
      expect(res.status).to.equal(201);
      expect(res.body.data).to.include({
        name: 'Ingrid Hansen',
        type: 'staff',
        isActive: true,
        isBookableOnline: true,
        color: '#AA00ff',
        userId: null,
        sortOrder: 0,
      });
      expect(res.body.data.skills).to.deep.equal([]);
      const row = await (await db())('resources').where({ id: res.body.data.id }).first();
      expect(row.tenantId).to.equal(s.tenant.id);
      expect(row.metadata.commission).to.equal(40);
    });

    it('when rooms and equipment are created then their type is kept', async () => {
      expect(((await newResource(s, { type: 'room' })) as { type?: string }).type).to.equal('room');
      expect(((await newResource(s, { type: 'equipment' })) as { type?: string }).type).to.equal('equipment');
    });

    it('when a login object is given then a linked user is created in the same transaction and can sign tokens', async () => {
      const email = `${unique('staff')}@example.test`;
      const created = await newResource(s, { login: { email, password: 'sekret-passord', role: 'STAFF' } });
      expect(created.userId).to.be.a('string');
      const user = await (await db())('users').where({ id: created.userId }).first();
      expect(user).to.include({ tenantId: s.tenant.id, role: 'STAFF', email });
      expect(user.passwordHash).to.not.equal('sekret-passord');
    });

    it('when the login password has 12 characters then it is accepted; 11 is 400 (docs/rules/security.md#passwords)', async () => {
      await newResource(s, { login: { phone: uniquePhone(), password: 'x'.repeat(12), role: 'OWNER' } });
      const res = await s.as('OWNER', 'post', '/resources', { name: 'X', login: { phone: uniquePhone(), password: 'x'.repeat(11), role: 'STAFF' } });
      expect(res.status).to.equal(400);
      expect(res.body.error.details[0].field).to.equal('login.password');
    });

    it('when the login e-mail already belongs to a user of the salon then 409 USER_EMAIL_EXISTS and no resource is created', async () => {
      const name = unique('Dup');
      const res = await s.as('OWNER', 'post', '/resources', { name, login: { email: s.owner.email, password: 'sekret-passord', role: 'STAFF' } });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('USER_EMAIL_EXISTS');
      expect(await (await db())('resources').where({ name })).to.have.length(0);
    });

    it('when the login phone is taken in the salon then 409 USER_PHONE_EXISTS; the same phone in another salon is fine', async () => {
      const phone = uniquePhone();
      await newResource(s, { login: { phone, password: 'sekret-passord', role: 'STAFF' } });
      const res = await s.as('OWNER', 'post', '/resources', { name: 'X', login: { phone, password: 'sekret-passord', role: 'STAFF' } });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('USER_PHONE_EXISTS');
      expect((await other.as('OWNER', 'post', '/resources', { name: 'X', login: { phone, password: 'sekret-passord', role: 'STAFF' } })).status).to.equal(201);
    });

    const bad: [string, Record<string, unknown>][] = [
      ['the name is missing', {}],
      ['the type is unknown', { name: 'X', type: 'robot' }],
      ['the color is not hex', { name: 'X', color: 'red' }],
      ['a field is unknown', { name: 'X', salary: 1 }],
      ['a metadata key is unknown', { name: 'X', metadata: { shoeSize: 42 } }],
      ['commission is over 100', { name: 'X', metadata: { commission: 101 } }],
      ['the login role is ADMIN', { name: 'X', login: { email: 'a@b.test', password: 'sekret-passord', role: 'ADMIN' } }],
      ['the login has neither email nor phone', { name: 'X', login: { password: 'sekret-passord', role: 'STAFF' } }],
      ['isActive is not a boolean', { name: 'X', isActive: 'yes please' }],
    ];
    for (const [when, body] of bad) {
      it(`when ${when} then 400 VALIDATION_ERROR`, async () => {
        const res = await s.as('OWNER', 'post', '/resources', body);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      });
    }

    it('when initial serviceIds are given then they become skills', async () => {
      const svc = await newService(s);
      const created = await newResource(s, { serviceIds: [svc.id] });
      expect(created.skills).to.deep.equal([svc.id]);
    });
  });

  describe('GET /resources', () => {
    let fresh: RoleSalon;
    before(async () => {
      fresh = await salonWithRoles();
      await newResource(fresh, { name: 'B-staff', sortOrder: 2 });
      await newResource(fresh, { name: 'A-room', type: 'room', sortOrder: 1 });
      await newResource(fresh, { name: 'C-inactive', isActive: false, isBookableOnline: false, sortOrder: 3 });
    });

    it('when filtered by type, isActive and isBookableOnline then only matching resources come back', async () => {
      const rooms = await fresh.as('STAFF', 'get', '/resources?type=room');
      expect(rooms.status).to.equal(200);
      expect(rooms.body.data.map((r: { name: string }) => r.name)).to.deep.equal(['A-room']);
      const inactive = await fresh.as('STAFF', 'get', '/resources?isActive=false');
      expect(inactive.body.data.map((r: { name: string }) => r.name)).to.deep.equal(['C-inactive']);
      const online = await fresh.as('STAFF', 'get', '/resources?isBookableOnline=true&sort=name&order=asc');
      expect(online.body.data.map((r: { name: string }) => r.name)).to.deep.equal(['A-room', 'B-staff']);
    });

    it('when paginated and sorted by sortOrder then meta and order are right', async () => {
      const res = await fresh.as('OWNER', 'get', '/resources?sort=sortOrder&order=asc&limit=2&page=1');
      expect(res.body.data.map((r: { name: string }) => r.name)).to.deep.equal(['A-room', 'B-staff']);
      expect(res.body.meta).to.deep.equal({ total: 3, page: 1, limit: 2, totalPages: 2 });
      expect((await fresh.as('OWNER', 'get', '/resources?limit=101')).status).to.equal(400);
      expect((await fresh.as('OWNER', 'get', '/resources?page=0')).status).to.equal(400);
      expect((await fresh.as('OWNER', 'get', '/resources?type=robot')).status).to.equal(400);
    });

    it('when a resource of another salon is read then 404 RESOURCE_NOT_FOUND', async () => {
      const foreign = await newResource(other);
      const res = await s.as('OWNER', 'get', `/resources/${foreign.id}`);
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('RESOURCE_NOT_FOUND');
      expect((await s.as('OWNER', 'patch', `/resources/${foreign.id}`, { name: 'hijack' })).status).to.equal(404);
    });
    it('when an owner of another salon sends x-tenant-id of this salon then its own tenant still wins (404)', async () => {
      const r = await newResource(s);
      const res = await (await http()).get(`/api/resources/${r.id}`).set('Authorization', `Bearer ${other.owner.token}`).set('x-tenant-id', s.tenant.id);
      expect(res.status).to.equal(404);
      const list = await (await http()).get('/api/resources').set('Authorization', `Bearer ${other.owner.token}`).set('x-tenant-id', s.tenant.id);
      expect(list.body.data.map((x: { id: string }) => x.id)).to.not.include(r.id);
    });

    it('when an ADMIN sends no x-tenant-id then 403 (no tenant context)', async () => {
      expect((await call('get', '/resources', s.admin.token)).status).to.equal(403);
    });
  });

  describe('PATCH /resources/:id', () => {
    it('when the owner patches fields then they change and metadata is merged key by key', async () => {
      const r = await newResource(s, { metadata: { jobTitle: 'Frisør', commission: 30 } });
      const res = await s.as('OWNER', 'patch', `/resources/${r.id}`, {
        name: 'Nytt navn',
        isBookableOnline: false,
        metadata: { phone: '+4799999999', commission: null },
      });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ name: 'Nytt navn', isBookableOnline: false });
      expect(res.body.data.metadata).to.deep.equal({ jobTitle: 'Frisør', phone: '+4799999999', commission: null });
    });

    it('when the patch is empty or has unknown fields then 400', async () => {
      const r = await newResource(s);
      expect((await s.as('OWNER', 'patch', `/resources/${r.id}`, {})).status).to.equal(400);
      expect((await s.as('OWNER', 'patch', `/resources/${r.id}`, { userId: s.owner.id })).status).to.equal(400);
    });

    describe('as STAFF', () => {
      let own: { id: string };
      let staffToken: string;
      before(async () => {
        const email = `${unique('me')}@example.test`;
        own = await newResource(s, { metadata: { jobTitle: 'Barber' }, login: { email, password: 'sekret-passord', role: 'STAFF' } });
        const user = await (await db())('users').where({ email }).first();
        staffToken = await tokenFor(user);
      });

      it('when STAFF patches color and metadata phone/email of their own resource then it works and jobTitle stays', async () => {
        const res = await call('patch', `/resources/${own.id}`, staffToken, { color: '#123456', metadata: { phone: '+4700000000', email: 'me@example.test' } });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.data.color).to.equal('#123456');
        expect(res.body.data.metadata).to.deep.equal({ jobTitle: 'Barber', phone: '+4700000000', email: 'me@example.test' });
      });

      for (const body of [
        { name: 'Sjef' },
        { metadata: { commission: 90 } },
        { metadata: { jobTitle: 'Eier' } },
        { isActive: false },
        { color: '#000000', sortOrder: 1 },
      ]) {
        it(`when STAFF sends ${JSON.stringify(body)} for their own resource then 403 FORBIDDEN and nothing changes`, async () => {
          const res = await call('patch', `/resources/${own.id}`, staffToken, body);
          expect(res.status).to.equal(403);
          expect(res.body.error.code).to.equal('FORBIDDEN');
          const row = await (await db())('resources').where({ id: own.id }).first();
          expect(row.metadata.jobTitle).to.equal('Barber');
          expect(row.isActive).to.equal(true);
        });
      }

      it("when STAFF patches someone else's resource then 403", async () => {
        const colleague = await newResource(s);
        const res = await call('patch', `/resources/${colleague.id}`, staffToken, { color: '#123456' });
        expect(res.status).to.equal(403);
      });

      it('when resourceIdForUser is asked then the staff user maps to their resource and the owner to none', async () => {
        const user = await (await db())('resources').where({ id: own.id }).first();
        expect(await resourceIdForUser(await db(), user.userId)).to.equal(own.id);
        expect(await resourceIdForUser(await db(), s.owner.id)).to.equal(null);
      });
    });
  });

  describe('skills', () => {
    it('when the owner adds skills then they are added once each, and PUT replaces the whole list', async () => {
      const [a, b, c] = [await newService(s), await newService(s), await newService(s)];
      const r = await newResource(s);
      let res = await s.as('OWNER', 'post', `/resources/${r.id}/skills`, { serviceIds: [a.id, b.id, a.id] });
      expect(res.status).to.equal(200);
      expect(res.body.data.skills.slice().sort()).to.deep.equal([a.id, b.id].sort());
      res = await s.as('OWNER', 'post', `/resources/${r.id}/skills`, { serviceIds: [b.id] });
      expect(res.body.data.skills).to.have.length(2);
      res = await s.as('OWNER', 'put', `/resources/${r.id}/skills`, { serviceIds: [c.id] });
      expect(res.status).to.equal(200);
      expect(res.body.data.skills).to.deep.equal([c.id]);
      res = await s.as('OWNER', 'put', `/resources/${r.id}/skills`, { serviceIds: [] });
      expect(res.body.data.skills).to.deep.equal([]);
    });

    it('when a skill is deleted then it is gone; deleting it again is 404 RESOURCE_SKILL_NOT_FOUND', async () => {
      const a = await newService(s);
      const r = await newResource(s, { serviceIds: [a.id] });
      expect((await s.as('OWNER', 'delete', `/resources/${r.id}/skills/${a.id}`)).status).to.equal(204);
      expect((await s.as('OWNER', 'get', `/resources/${r.id}`)).body.data.skills).to.deep.equal([]);
      const again = await s.as('OWNER', 'delete', `/resources/${r.id}/skills/${a.id}`);
      expect(again.status).to.equal(404);
      expect(again.body.error.code).to.equal('RESOURCE_SKILL_NOT_FOUND');
    });

    it("when the service is inactive then 422 SERVICE_INACTIVE; another salon's service is 404 SERVICE_NOT_FOUND; nothing is written", async () => {
      const inactive = await newService(s, { isActive: false });
      const foreign = await newService(other);
      const active = await newService(s);
      const r = await newResource(s);
      const res1 = await s.as('OWNER', 'post', `/resources/${r.id}/skills`, { serviceIds: [active.id, inactive.id] });
      expect(res1.status).to.equal(422);
      expect(res1.body.error.code).to.equal('SERVICE_INACTIVE');
      const res2 = await s.as('OWNER', 'put', `/resources/${r.id}/skills`, { serviceIds: [foreign.id] });
      expect(res2.status).to.equal(404);
      expect(res2.body.error.code).to.equal('SERVICE_NOT_FOUND');
      expect(await (await db())('resource_skills').where({ resourceId: r.id })).to.have.length(0);
    });

    it('when serviceIds is missing, not an array or has a non-uuid then 400', async () => {
      const r = await newResource(s);
      for (const body of [{}, { serviceIds: 'x' }, { serviceIds: ['nope'] }, { serviceIds: [], extra: 1 }]) {
        expect((await s.as('OWNER', 'post', `/resources/${r.id}/skills`, body)).status, JSON.stringify(body)).to.equal(400);
      }
    });

    it('when skills are managed from the service side then GET/PUT /services/:id/resources reflect and replace them', async () => {
      const svc = await newService(s);
      const [r1, r2, r3] = [await newResource(s, { serviceIds: [svc.id], sortOrder: 1 }), await newResource(s, { sortOrder: 2 }), await newResource(s)];
      let res = await s.as('STAFF', 'get', `/services/${svc.id}/resources`);
      expect(res.status).to.equal(200);
      expect(res.body.data.map((r: { id: string }) => r.id)).to.deep.equal([r1.id]);
      res = await s.as('OWNER', 'put', `/services/${svc.id}/resources`, { resourceIds: [r2.id, r3.id] });
      expect(res.status).to.equal(200);
      expect(res.body.data.map((r: { id: string }) => r.id).sort()).to.deep.equal([r2.id, r3.id].sort());
      expect((await s.as('OWNER', 'get', `/resources/${r1.id}`)).body.data.skills).to.deep.equal([]);
      const foreignResource = await newResource(other);
      const bad = await s.as('OWNER', 'put', `/services/${svc.id}/resources`, { resourceIds: [foreignResource.id] });
      expect(bad.status).to.equal(404);
      expect(bad.body.error.code).to.equal('RESOURCE_NOT_FOUND');
      const inactive = await newService(s, { isActive: false });
      const res422 = await s.as('OWNER', 'put', `/services/${inactive.id}/resources`, { resourceIds: [r1.id] });
      expect(res422.status).to.equal(422);
      expect(res422.body.error.code).to.equal('SERVICE_INACTIVE');
      expect((await other.as('OWNER', 'get', `/services/${svc.id}/resources`)).status).to.equal(404);
    });

    it('when another salon manages skills of this resource then 404', async () => {
      const r = await newResource(s);
      const svc = await newService(other);
      const res = await other.as('OWNER', 'post', `/resources/${r.id}/skills`, { serviceIds: [svc.id] });
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('RESOURCE_NOT_FOUND');
    });
  });

  describe('access matrix', () => {
    let r: { id: string };
    let svc: { id: string };
    before(async () => {
      r = await newResource(s);
      svc = await newService(s);
    });
    const cases: [Caller, number, number][] = [
      ['NONE', 401, 401],
      ['CUSTOMER', 401, 401],
      ['STAFF', 200, 403],
      ['OWNER', 200, 0],
      ['IMPERSONATOR', 200, 0],
      ['ADMIN', 403, 403],
    ];
    for (const [caller, read, write] of cases) {
      it(`when ${caller} calls then reads are ${read} and owner writes are ${write || 'allowed'}`, async () => {
        for (const path of ['/resources', `/resources/${r.id}`]) expect((await s.as(caller, 'get', path)).status, path).to.equal(read);
        const writes: [string, string, unknown][] = [
          ['post', '/resources', { name: unique('W') }],
          ['patch', `/resources/${r.id}`, { sortOrder: 5 }],
          ['post', `/resources/${r.id}/skills`, { serviceIds: [svc.id] }],
          ['put', `/resources/${r.id}/skills`, { serviceIds: [svc.id] }],
        ];
        for (const [method, path, body] of writes) {
          const res = await s.as(caller, method as 'post', path, body);
          if (write) expect(res.status, `${method} ${path}`).to.equal(write);
          else expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201]);
        }
        const del = await s.as(caller, 'delete', `/resources/${r.id}/skills/${svc.id}`);
        expect(del.status).to.equal(write || 204);
      });
    }
  });
});
