import { expect } from 'chai';
import { as, world, type World } from '../tax/tax-access.helpers';
import { createSalon } from '../../support/factories';
import { CustomerModel } from '../../../db/models/customer.model';
import { TenantCustomerModel } from '../../../db/models/tenant-customer.model';

let seq = 0;
function phone(): string {
  seq += 1;
  return `+479${String(Date.now() % 1_000_000).padStart(6, '0')}${seq % 10}`;
}

describe('tenant customers API (/tenant-customers)', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });

  /** Creates a customer through the API and returns its tenant-customer row. */
  async function tenantCustomer(body: Record<string, unknown> = {}) {
    const res = await as(w, 'OWNER', 'post', '/customers', { name: 'Kari Nordmann', phone: phone(), ...body });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const list = await as(w, 'OWNER', 'get', `/tenant-customers?customerId=${res.body.data.id}`);
    expect(list.body.data).to.have.length(1);
    return list.body.data[0] as { id: string; customerId: string; tags: string[] };
  }

  describe('access', () => {
    it("when the platform admin impersonating the owner, OWNER or STAFF list, read and patch notes/tags then they succeed; the admin's own token is 403", async () => {
      const tc = await tenantCustomer();
      expect((await as(w, 'ADMIN', 'get', '/tenant-customers')).status).to.equal(403);
      expect((await as(w, 'ADMIN', 'patch', `/tenant-customers/${tc.id}`, { notes: 'by ADMIN' })).status).to.equal(403);
      for (const who of ['IMPERSONATOR', 'OWNER', 'STAFF'] as const) {
        expect((await as(w, who, 'get', '/tenant-customers')).status, who).to.equal(200);
        expect((await as(w, who, 'get', `/tenant-customers/${tc.id}`)).status, who).to.equal(200);
        const res = await as(w, who, 'patch', `/tenant-customers/${tc.id}`, { notes: `by ${who}`, tags: [who.toLowerCase()] });
        expect(res.status, who).to.equal(200);
        expect(res.body.data).to.include({ notes: `by ${who}` });
      }
    });

    it('when there is no token or a customer token then every route is 401', async () => {
      const tc = await tenantCustomer();
      for (const who of ['NONE', 'CUSTOMER'] as const) {
        for (const [method, path, body] of [
          ['get', '/tenant-customers'],
          ['get', `/tenant-customers/${tc.id}`],
          ['patch', `/tenant-customers/${tc.id}`, { notes: 'x' }],
        ] as const) {
          const res = await as(w, who, method, path, body);
          expect(res.status, `${who} ${method} ${path}`).to.equal(401);
          expect(res.body.error.code).to.equal('UNAUTHORIZED');
        }
      }
    });

    it("when a salon reads or patches another salon's tenant customer then it is 404 TENANT_CUSTOMER_NOT_FOUND", async () => {
      const other = await createSalon();
      const c = await CustomerModel.query().insert({ tenantId: other.tenant.id, name: 'Foreign', phone: '+4722222222' });
      const foreign = await TenantCustomerModel.query().insert({ tenantId: other.tenant.id, customerId: c.id, notes: 'theirs' });
      for (const who of ['OWNER', 'STAFF', 'IMPERSONATOR'] as const) {
        for (const [method, body] of [['get'], ['patch', { notes: 'mine' }]] as const) {
          const res = await as(w, who, method, `/tenant-customers/${foreign.id}`, body);
          expect(res.status, `${who} ${method}`).to.equal(404);
          expect(res.body.error.code).to.equal('TENANT_CUSTOMER_NOT_FOUND');
        }
      }
      expect((await TenantCustomerModel.query().findById(foreign.id))?.notes).to.equal('theirs');
      const list = await as(w, 'OWNER', 'get', '/tenant-customers?search=Foreign');
      expect(list.body.meta.total).to.equal(0);
    });
  });

  describe('metrics fields', () => {
    it('when OWNER or the platform admin impersonating the owner patch visit metrics then they are stored', async () => {
      const tc = await tenantCustomer();
      for (const who of ['OWNER', 'IMPERSONATOR'] as const) {
        const res = await as(w, who, 'patch', `/tenant-customers/${tc.id}`, {
          visitCount: 3,
          totalSpent: 150000,
          firstVisit: '2026-01-02T10:00:00.000Z',
          lastVisit: '2026-03-04T11:30:00.000Z',
        });
        expect(res.status, who).to.equal(200);
        expect(res.body.data).to.include({ visitCount: 3, totalSpent: 150000, firstVisit: '2026-01-02T10:00:00.000Z', lastVisit: '2026-03-04T11:30:00.000Z' });
      }
      const row = await TenantCustomerModel.query().findById(tc.id);
      expect(row).to.include({ visitCount: 3, totalSpent: 150000 });
    });

    for (const field of ['visitCount', 'totalSpent', 'firstVisit', 'lastVisit'] as const) {
      it(`when STAFF sends ${field} (even with notes) then it is 400 FORBIDDEN_FIELD and nothing changes`, async () => {
        const tc = await tenantCustomer();
        const value = field === 'firstVisit' || field === 'lastVisit' ? '2026-01-01T00:00:00.000Z' : 5;
        const res = await as(w, 'STAFF', 'patch', `/tenant-customers/${tc.id}`, { notes: 'sneaky', [field]: value });
        expect(res.status).to.equal(400);
        expect(res.body.error.code).to.equal('FORBIDDEN_FIELD');
        expect(res.body.error.details).to.deep.equal([{ field, message: 'not permitted for your role' }]);
        const row = await TenantCustomerModel.query().findById(tc.id);
        expect(row).to.include({ notes: null, visitCount: 0, totalSpent: 0, firstVisit: null, lastVisit: null });
      });
    }

    it('when STAFF sends several metrics then every one is listed in the details', async () => {
      const tc = await tenantCustomer();
      const res = await as(w, 'STAFF', 'patch', `/tenant-customers/${tc.id}`, { visitCount: 1, totalSpent: 1, lastVisit: null });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('FORBIDDEN_FIELD');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal(['visitCount', 'totalSpent', 'lastVisit']);
    });

    it('when lastVisit would be before firstVisit then it is 400 VALIDATION_ERROR', async () => {
      const tc = await tenantCustomer();
      const res = await as(w, 'OWNER', 'patch', `/tenant-customers/${tc.id}`, {
        firstVisit: '2026-05-01T00:00:00.000Z',
        lastVisit: '2026-04-01T00:00:00.000Z',
      });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(res.body.error.details[0].field).to.equal('lastVisit');
    });
  });

  describe('tags, notes and bad input', () => {
    it('when tags are patched then the list is replaced without duplicates and notes can be cleared', async () => {
      const tc = await tenantCustomer();
      await as(w, 'STAFF', 'patch', `/tenant-customers/${tc.id}`, { tags: ['vip', 'old'], notes: 'n' });
      const res = await as(w, 'STAFF', 'patch', `/tenant-customers/${tc.id}`, { tags: ['vip', 'allergic', 'vip'], notes: null });
      expect(res.status).to.equal(200);
      expect(res.body.data.tags).to.deep.equal(['vip', 'allergic']);
      expect(res.body.data.notes).to.equal(null);
      expect((await TenantCustomerModel.query().findById(tc.id))?.tags).to.deep.equal(['vip', 'allergic']);
    });

    it('when the body is bad then it is 400 VALIDATION_ERROR and nothing changes', async () => {
      const tc = await tenantCustomer();
      const cases: Record<string, unknown>[] = [
        {},
        { tags: 'vip' },
        { tags: [''] },
        { tags: ['a,b'] },
        { tags: ['x'.repeat(51)] },
        { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        { notes: 'n'.repeat(2001) },
        { visitCount: -1 },
        { visitCount: 1.5 },
        { totalSpent: -100 },
        { totalSpent: 12.5 },
        { firstVisit: 'yesterday' },
        { customerId: tc.customerId },
        { colour: 'red' },
      ];
      for (const body of cases) {
        const res = await as(w, 'OWNER', 'patch', `/tenant-customers/${tc.id}`, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
      const atLimit = await as(w, 'OWNER', 'patch', `/tenant-customers/${tc.id}`, {
        tags: Array.from({ length: 20 }, (_, i) => `${'t'.repeat(48)}${String(i).padStart(2, '0')}`),
        notes: 'n'.repeat(2000),
      });
      expect(atLimit.status).to.equal(200);
      expect((await as(w, 'OWNER', 'get', '/tenant-customers/not-a-uuid')).status).to.equal(400);
    });
  });

  describe('list', () => {
    it('when filtering by tags then only rows carrying every tag come back; search matches the customer', async () => {
      const a = await tenantCustomer({ name: 'Anna Berg', email: 'anna@example.no' });
      const b = await tenantCustomer({ name: 'Bodil Dahl' });
      await as(w, 'OWNER', 'patch', `/tenant-customers/${a.id}`, { tags: ['vip', 'color'] });
      await as(w, 'OWNER', 'patch', `/tenant-customers/${b.id}`, { tags: ['vip'] });
      const vip = await as(w, 'STAFF', 'get', '/tenant-customers?tags=vip&sort=createdAt&order=asc');
      expect(vip.body.data.map((t: { id: string }) => t.id)).to.deep.equal([a.id, b.id]);
      const both = await as(w, 'STAFF', 'get', '/tenant-customers?tags=vip,color');
      expect(both.body.data.map((t: { id: string }) => t.id)).to.deep.equal([a.id]);
      const search = await as(w, 'STAFF', 'get', '/tenant-customers?search=ANNA@');
      expect(search.body.data.map((t: { id: string }) => t.id)).to.deep.equal([a.id]);
      expect(search.body.data[0].customer).to.deep.include({ name: 'Anna Berg', email: 'anna@example.no' });
      const byName = await as(w, 'STAFF', 'get', '/tenant-customers?search=dahl');
      expect(byName.body.data.map((t: { id: string }) => t.id)).to.deep.equal([b.id]);
    });

    it('when sorting by visit metrics then the order follows them and page meta is right', async () => {
      const a = await tenantCustomer();
      const b = await tenantCustomer();
      const c = await tenantCustomer();
      await as(w, 'OWNER', 'patch', `/tenant-customers/${a.id}`, { totalSpent: 500, visitCount: 1 });
      await as(w, 'OWNER', 'patch', `/tenant-customers/${b.id}`, { totalSpent: 900, visitCount: 5 });
      const res = await as(w, 'OWNER', 'get', '/tenant-customers?sort=totalSpent&order=desc&limit=2');
      expect(res.body.data.map((t: { id: string }) => t.id)).to.deep.equal([b.id, a.id]);
      expect(res.body.meta).to.deep.equal({ total: 3, page: 1, limit: 2, totalPages: 2 });
      const page2 = await as(w, 'OWNER', 'get', '/tenant-customers?sort=totalSpent&order=desc&limit=2&page=2');
      expect(page2.body.data.map((t: { id: string }) => t.id)).to.deep.equal([c.id]);
    });

    it('when the query is bad then it is 400 VALIDATION_ERROR', async () => {
      for (const q of [
        'limit=101',
        'sort=name',
        'customerId=nope',
        `tags=${'t'.repeat(51)}`,
        `tags=${Array.from({ length: 21 }, (_, i) => 't' + i).join(',')}`,
        `search=${'s'.repeat(101)}`,
        'colour=red',
      ]) {
        const res = await as(w, 'OWNER', 'get', `/tenant-customers?${q}`);
        expect(res.status, q).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
    });
  });
});
