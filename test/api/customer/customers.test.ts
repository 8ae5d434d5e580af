import { expect } from 'chai';
import { as, world, type World } from '../tax/tax-access.helpers';
import { createSalon, unique } from '../../support/factories';
import { CustomerModel } from '../../../db/models/customer.model';
import { TenantCustomerModel } from '../../../db/models/tenant-customer.model';

function phone(): string {
  return `+47 ${String(Math.floor(10_000_000 + Math.random() * 89_999_999)).replace(/(\d{3})(\d{2})(\d{3})/, '$1 $2 $3')}`;
}

describe('customers API (/customers)', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });

  async function customer(body: Record<string, unknown> = {}) {
    const res = await as(w, 'OWNER', 'post', '/customers', { name: 'Kari Nordmann', phone: phone(), ...body });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data as { id: string; name: string; phone: string | null; email: string | null; notes: string | null };
  }

  describe('access', () => {
    it("when the platform admin impersonating the owner, OWNER or STAFF use every route then they succeed; the admin's own token naming the salon is 403", async () => {
      expect((await as(w, 'ADMIN', 'get', '/customers')).status).to.equal(403);
      expect((await as(w, 'ADMIN', 'post', '/customers', { name: 'ADMIN', phone: phone() })).status).to.equal(403);
      for (const who of ['IMPERSONATOR', 'OWNER', 'STAFF'] as const) {
        const created = await as(w, who, 'post', '/customers', { name: who, phone: phone() });
        expect(created.status, who).to.equal(201);
        const id = created.body.data.id;
        expect((await as(w, who, 'get', '/customers')).status).to.equal(200);
        expect((await as(w, who, 'get', `/customers/${id}`)).status).to.equal(200);
        expect((await as(w, who, 'patch', `/customers/${id}`, { notes: 'likes tea' })).status).to.equal(200);
      }
    });

    it('when there is no token or a customer token then every route is 401 UNAUTHORIZED', async () => {
      const c = await customer();
      for (const who of ['NONE', 'CUSTOMER'] as const) {
        for (const [method, path, body] of [
          ['get', '/customers'],
          ['post', '/customers', { name: 'x' }],
          ['get', `/customers/${c.id}`],
          ['patch', `/customers/${c.id}`, { name: 'y' }],
        ] as const) {
          const res = await as(w, who, method, path, body);
          expect(res.status, `${who} ${method} ${path}`).to.equal(401);
          expect(res.body.error.code).to.equal('UNAUTHORIZED');
        }
      }
      expect((await CustomerModel.query().findById(c.id))?.name).to.equal('Kari Nordmann');
    });

    it("when a salon reads or patches another salon's customer then it is 404 CUSTOMER_NOT_FOUND and it is unchanged", async () => {
      const other = await createSalon();
      const foreign = await CustomerModel.query().insert({ tenantId: other.tenant.id, name: 'Foreign', phone: '+4711111111' });
      for (const [method, body] of [['get'], ['patch', { name: 'mine' }]] as const) {
        const res = await as(w, 'STAFF', method, `/customers/${foreign.id}`, body);
        expect(res.status, method).to.equal(404);
        expect(res.body.error.code).to.equal('CUSTOMER_NOT_FOUND');
      }
      expect((await CustomerModel.query().findById(foreign.id))?.name).to.equal('Foreign');
      const list = await as(w, 'OWNER', 'get', '/customers?search=Foreign');
      expect(list.body.meta.total).to.equal(0);
    });
  });

  describe('create', () => {
    it('when a customer is created then phone and e-mail are normalised and its tenant-customer row exists', async () => {
      const res = await as(w, 'STAFF', 'post', '/customers', { name: ' Ola Nordmann ', phone: ' +47 912 34 567 ', email: 'Ola@Example.NO', notes: 'VIP' });
      expect(res.status).to.equal(201);
      expect(res.body.data).to.include({ name: 'Ola Nordmann', phone: '+4791234567', email: 'ola@example.no', notes: 'VIP' });
      const row = await CustomerModel.query().findById(res.body.data.id);
      expect(row).to.include({ tenantId: w.salon.tenant.id, phone: '+4791234567', email: 'ola@example.no' });
      const tc = await TenantCustomerModel.query().findOne({ customerId: res.body.data.id });
      expect(tc).to.include({ tenantId: w.salon.tenant.id, visitCount: 0, totalSpent: 0, firstVisit: null, lastVisit: null });
      expect(tc?.tags).to.deep.equal([]);
    });

    it('when only a name is given then phone, e-mail and notes are null', async () => {
      const res = await as(w, 'OWNER', 'post', '/customers', { name: 'Walk-in' });
      expect(res.status).to.equal(201);
      expect(res.body.data).to.include({ phone: null, email: null, notes: null });
    });

    it('when the phone is taken in this salon (written differently) then it is 409 CUSTOMER_PHONE_EXISTS; another salon may use it', async () => {
      await customer({ phone: '+47 900 00 001' });
      const res = await as(w, 'OWNER', 'post', '/customers', { name: 'Dup', phone: '+4790000001' });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('CUSTOMER_PHONE_EXISTS');
      const other = await world();
      expect((await as(other, 'OWNER', 'post', '/customers', { name: 'Same', phone: '+47 900 00 001' })).status).to.equal(201);
      expect(await CustomerModel.query().where({ tenantId: w.salon.tenant.id })).to.have.length(1);
    });

    it('when the e-mail is taken in this salon in another case then it is 409 CUSTOMER_EMAIL_EXISTS', async () => {
      await customer({ email: 'kari@example.no' });
      const res = await as(w, 'OWNER', 'post', '/customers', { name: 'Dup', email: 'KARI@example.no' });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('CUSTOMER_EMAIL_EXISTS');
    });

    it('when the same phone is created concurrently then exactly one succeeds and the others get 409 CUSTOMER_PHONE_EXISTS', async () => {
      const p = phone();
      const results = await Promise.all([1, 2, 3, 4].map((i) => as(w, 'OWNER', 'post', '/customers', { name: `racer ${i}`, phone: p })));
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409, 409, 409]);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).to.equal('CUSTOMER_PHONE_EXISTS');
      expect(await CustomerModel.query().where({ tenantId: w.salon.tenant.id })).to.have.length(1);
      expect(await TenantCustomerModel.query().where({ tenantId: w.salon.tenant.id })).to.have.length(1);
    });

    it('when the same e-mail is created concurrently then exactly one succeeds and the others get 409 CUSTOMER_EMAIL_EXISTS', async () => {
      const email = `${unique('race')}@example.no`;
      const results = await Promise.all([1, 2, 3].map((i) => as(w, 'OWNER', 'post', '/customers', { name: `racer ${i}`, email })));
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409, 409]);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).to.equal('CUSTOMER_EMAIL_EXISTS');
    });

    it('when the body is bad then it is 400 VALIDATION_ERROR and nothing is written', async () => {
      const cases: Record<string, unknown>[] = [
        {},
        { phone: '+4790000000' },
        { name: '' },
        { name: '   ' },
        { name: 'x'.repeat(201) },
        { name: { first: 'Kari' } },
        { name: 'x', email: 'not-an-email' },
        { name: 'x', email: `${'a'.repeat(250)}@x.no` },
        { name: 'x', phone: 'call me' },
        { name: 'x', phone: '+47 ' + '1'.repeat(31) },
        { name: 'x', phone: '12' },
        { name: 'x', notes: 'n'.repeat(2001) },
        { name: 'x', tags: ['vip'] },
        { name: 'x', tenantId: w.salon.tenant.id },
      ];
      for (const body of cases) {
        const res = await as(w, 'OWNER', 'post', '/customers', body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
      expect(await CustomerModel.query().where({ tenantId: w.salon.tenant.id })).to.have.length(0);
    });

    it('when name, notes and e-mail are exactly at their limits then it is accepted', async () => {
      const res = await as(w, 'OWNER', 'post', '/customers', {
        name: 'n'.repeat(200),
        notes: 'n'.repeat(2000),
        email: `${'a'.repeat(64)}@${'b'.repeat(60)}.no`,
        // 32 characters, the limit: spaces are allowed in a typed number
        phone: `+47${' '.repeat(21)}98765433`,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    });
  });

  describe('list and search', () => {
    it('when searching by part of the name, the e-mail (any case) or the phone (with spaces) then the customer is found', async () => {
      const kari = await customer({ name: 'Kari Nordmann', phone: '+47 955 55 123', email: 'kari.n@example.no' });
      await customer({ name: 'Per Hansen', phone: '+47 944 44 321', email: 'per@example.no' });
      for (const search of ['nordm', 'KARI.N@', '955 55', '+4795555']) {
        const res = await as(w, 'STAFF', 'get', `/customers?search=${encodeURIComponent(search)}`);
        expect(res.status).to.equal(200);
        expect(
          res.body.data.map((c: { id: string }) => c.id),
          search,
        ).to.deep.equal([kari.id]);
      }
      const none = await as(w, 'STAFF', 'get', '/customers?search=%25');
      expect(none.body.meta).to.deep.equal({ total: 0, page: 1, limit: 20, totalPages: 0 });
    });

    it('when listing then pagination, sort and order work and only this salon’s customers come back', async () => {
      for (const name of ['Cecilie', 'Anna', 'Berit']) await customer({ name });
      await (
        await world()
      ).salon;
      const byName = await as(w, 'OWNER', 'get', '/customers?sort=name&order=asc&limit=2');
      expect(byName.body.data.map((c: { name: string }) => c.name)).to.deep.equal(['Anna', 'Berit']);
      expect(byName.body.meta).to.deep.equal({ total: 3, page: 1, limit: 2, totalPages: 2 });
      const page2 = await as(w, 'OWNER', 'get', '/customers?sort=name&order=asc&limit=2&page=2');
      expect(page2.body.data.map((c: { name: string }) => c.name)).to.deep.equal(['Cecilie']);
      const newest = await as(w, 'OWNER', 'get', '/customers');
      expect(newest.body.data[0].name).to.equal('Berit');
    });

    it('when the query is bad then it is 400 VALIDATION_ERROR', async () => {
      for (const q of ['limit=101', 'page=0', 'sort=phone', 'order=up', `search=${'x'.repeat(101)}`, 'colour=red']) {
        const res = await as(w, 'OWNER', 'get', `/customers?${q}`);
        expect(res.status, q).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
      expect((await as(w, 'OWNER', 'get', `/customers?limit=100&search=${'x'.repeat(100)}`)).status).to.equal(200);
    });
  });

  describe('patch', () => {
    it('when STAFF patches name, phone, e-mail and notes then they are normalised and stored', async () => {
      const c = await customer({ email: 'old@example.no' });
      const res = await as(w, 'STAFF', 'patch', `/customers/${c.id}`, {
        name: 'Kari N',
        phone: '+47 (987) 65-432',
        email: 'NEW@Example.no',
        notes: 'allergic',
      });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ name: 'Kari N', phone: '+4798765432', email: 'new@example.no', notes: 'allergic' });
      expect(await CustomerModel.query().findById(c.id)).to.include({ phone: '+4798765432', email: 'new@example.no' });
    });

    it('when phone, e-mail or notes are patched to null then they are cleared', async () => {
      const c = await customer({ email: 'x@example.no', notes: 'n' });
      const res = await as(w, 'OWNER', 'patch', `/customers/${c.id}`, { phone: null, email: null, notes: null });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ phone: null, email: null, notes: null });
    });

    it("when the new phone or e-mail belongs to another customer then it is 409; the customer's own values are fine", async () => {
      const a = await customer({ phone: '+47 911 11 111', email: 'a@example.no' });
      const b = await customer();
      const ph = await as(w, 'OWNER', 'patch', `/customers/${b.id}`, { phone: '+4791111111' });
      expect(ph.status).to.equal(409);
      expect(ph.body.error.code).to.equal('CUSTOMER_PHONE_EXISTS');
      const em = await as(w, 'OWNER', 'patch', `/customers/${b.id}`, { email: 'A@example.no' });
      expect(em.status).to.equal(409);
      expect(em.body.error.code).to.equal('CUSTOMER_EMAIL_EXISTS');
      const own = await as(w, 'OWNER', 'patch', `/customers/${a.id}`, { phone: '+47 91111111', email: 'a@example.no' });
      expect(own.status).to.equal(200);
      expect((await CustomerModel.query().findById(b.id))?.phone).to.equal(b.phone);
    });

    it('when a patch body is bad then it is 400 and nothing changes', async () => {
      const c = await customer();
      for (const body of [
        {},
        { name: '' },
        { name: null },
        { name: 'x'.repeat(201) },
        { email: 'nope' },
        { phone: 'abc' },
        { notes: 'n'.repeat(2001) },
        { visitCount: 3 },
      ]) {
        const res = await as(w, 'OWNER', 'patch', `/customers/${c.id}`, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
      expect((await CustomerModel.query().findById(c.id))?.name).to.equal(c.name);
      expect((await as(w, 'OWNER', 'patch', '/customers/not-a-uuid', { name: 'x' })).status).to.equal(400);
      const missing = await as(w, 'OWNER', 'patch', '/customers/00000000-0000-4000-8000-000000000000', { name: 'x' });
      expect(missing.status).to.equal(404);
      expect(missing.body.error.code).to.equal('CUSTOMER_NOT_FOUND');
    });
  });
});
