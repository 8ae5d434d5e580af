import { expect } from 'chai';
import { as, world, type World } from './tax-access.helpers';
import { call } from '../../support/http';
import { createSalon, unique } from '../../support/factories';
import { stack } from '../../support/stack';
import { TaxModel } from '../../../db/models/tax.model';
import { AccountingAccountModel } from '../../../db/models/accounting-account.model';
import { seedTenantDefaults } from '../../../domain/tenant/tenant-defaults.service';
import { rejectsWithItself } from '../../support/rejections';

async function tax(w: World, body: Record<string, unknown> = {}) {
  const res = await as(w, 'OWNER', 'post', '/taxes', { name: unique('tax'), rate: 10, ...body });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { id: string; name: string; rate: number; isDefault: boolean; isActive: boolean };
}

describe('taxes API (/taxes)', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });

  describe('access', () => {
    it("when OWNER or the platform admin impersonating the owner use every route then they succeed; the admin's own token naming the salon is 403", async () => {
      for (const who of ['OWNER', 'IMPERSONATOR'] as const) {
        const created = await as(w, who, 'post', '/taxes', { name: unique('t'), rate: 12.5 });
        expect(created.status, who).to.equal(201);
        const id = created.body.data.id;
        expect((await as(w, who, 'get', '/taxes')).status).to.equal(200);
        expect((await as(w, who, 'get', `/taxes/${id}`)).status).to.equal(200);
        expect((await as(w, who, 'patch', `/taxes/${id}`, { name: 'renamed' })).status).to.equal(200);
        expect((await as(w, who, 'delete', `/taxes/${id}`)).status).to.equal(204);
      }
      expect((await as(w, 'ADMIN', 'get', '/taxes')).status).to.equal(403);
      expect((await as(w, 'ADMIN', 'post', '/taxes', { name: 'x', rate: 1 })).status).to.equal(403);
    });

    it('when STAFF calls any route then it is 403 FORBIDDEN and nothing is written', async () => {
      const t = await tax(w);
      for (const [method, path, body] of [
        ['get', '/taxes'],
        ['post', '/taxes', { name: 'x', rate: 1 }],
        ['get', `/taxes/${t.id}`],
        ['patch', `/taxes/${t.id}`, { name: 'hacked' }],
        ['delete', `/taxes/${t.id}`],
      ] as const) {
        const res = await as(w, 'STAFF', method, path, body);
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(res.body.error.code).to.equal('FORBIDDEN');
      }
      const row = await TaxModel.query().findById(t.id);
      expect(row?.name).to.equal(t.name);
      expect(await TaxModel.query().where({ tenantId: w.salon.tenant.id })).to.have.length(1);
    });

    it('when there is no token or a customer token then it is 401 UNAUTHORIZED', async () => {
      const t = await tax(w);
      for (const who of ['NONE', 'CUSTOMER'] as const) {
        for (const [method, path] of [
          ['get', '/taxes'],
          ['post', '/taxes'],
          ['get', `/taxes/${t.id}`],
          ['patch', `/taxes/${t.id}`],
          ['delete', `/taxes/${t.id}`],
        ] as const) {
          const res = await as(w, who, method, path, method === 'post' || method === 'patch' ? { name: 'x', rate: 1 } : undefined);
          expect(res.status, `${who} ${method} ${path}`).to.equal(401);
          expect(res.body.error.code).to.equal('UNAUTHORIZED');
        }
      }
    });

    it('when ADMIN calls without a tenant context then it is 403', async () => {
      const res = await call('get', '/taxes', w.admin.token);
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('FORBIDDEN');
    });

    it("when a salon reads, patches or deletes another salon's tax then it is 404 TAX_NOT_FOUND and the tax is unchanged", async () => {
      const other = await createSalon();
      const foreign = await TaxModel.query().insert({ tenantId: other.tenant.id, name: 'foreign', rate: 5 });
      for (const [method, body] of [['get'], ['patch', { name: 'mine now' }], ['delete']] as const) {
        const res = await as(w, 'OWNER', method, `/taxes/${foreign.id}`, body);
        expect(res.status, method).to.equal(404);
        expect(res.body.error.code).to.equal('TAX_NOT_FOUND');
      }
      expect((await TaxModel.query().findById(foreign.id))?.name).to.equal('foreign');
      const list = await as(w, 'OWNER', 'get', '/taxes');
      expect(list.body.data.map((t: { id: string }) => t.id)).not.to.include(foreign.id);
    });
  });

  describe('create and read', () => {
    it('when OWNER creates a fractional tax then it is stored and returned with the exact rate', async () => {
      const res = await as(w, 'OWNER', 'post', '/taxes', { name: 'Halv', rate: 12.5 });
      expect(res.status).to.equal(201);
      expect(res.body).to.deep.include({ success: true });
      expect(res.body.data).to.include({ name: 'Halv', rate: 12.5, isDefault: false, isActive: true });
      const row = await TaxModel.query().findById(res.body.data.id);
      expect(row).to.include({ tenantId: w.salon.tenant.id, rate: 12.5 });
      const one = await as(w, 'OWNER', 'get', `/taxes/${res.body.data.id}`);
      expect(one.body.data).to.deep.equal(res.body.data);
    });

    it('when the rate is at the limits 0 and 100 (or has three decimals) then it is accepted', async () => {
      for (const rate of [0, 100, 12.345]) {
        const res = await as(w, 'OWNER', 'post', '/taxes', { name: unique('t'), rate });
        expect(res.status, String(rate)).to.equal(201);
        expect(res.body.data.rate).to.equal(rate);
      }
    });

    it('when the body is bad then it is 400 VALIDATION_ERROR naming the field and nothing is written', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ rate: 10 }, 'name'],
        [{ name: 'x' }, 'rate'],
        [{ name: 'x', rate: 'abc' }, 'rate'],
        [{ name: { a: 1 }, rate: 10 }, 'name'],
        [{ name: 'x', rate: 100.001 }, 'rate'],
        [{ name: 'x', rate: -0.5 }, 'rate'],
        [{ name: 'x', rate: 12.3456 }, 'rate'],
        [{ name: 'x'.repeat(101), rate: 10 }, 'name'],
        [{ name: '', rate: 10 }, 'name'],
        [{ name: '   ', rate: 10 }, 'name'],
        [{ name: 'x', rate: 10, isDefault: 'maybe' }, 'isDefault'],
        [{ name: 'x', rate: 10, colour: 'red' }, ''],
      ];
      for (const [body, field] of cases) {
        const res = await as(w, 'OWNER', 'post', '/taxes', body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(JSON.stringify(res.body.error.details), JSON.stringify(body)).to.include(field);
      }
      expect(await TaxModel.query().where({ tenantId: w.salon.tenant.id })).to.have.length(0);
    });

    it('when the name is 100 characters then it is accepted', async () => {
      const res = await as(w, 'OWNER', 'post', '/taxes', { name: 'n'.repeat(100), rate: 1 });
      expect(res.status).to.equal(201);
    });

    it('when the id is not a uuid then it is 400 VALIDATION_ERROR', async () => {
      const res = await as(w, 'OWNER', 'get', '/taxes/not-a-uuid');
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    });

    it('when listing then only this salon’s taxes come back, default first, with isActive filter and page meta', async () => {
      const def = await tax(w, { rate: 5, isDefault: true });
      await tax(w, { rate: 30 });
      const inactive = await tax(w, { rate: 1, isActive: false });
      const all = await as(w, 'OWNER', 'get', '/taxes');
      expect(all.status).to.equal(200);
      expect(all.body.meta).to.deep.equal({ total: 3, page: 1, limit: 20, totalPages: 1 });
      expect(all.body.data[0].id).to.equal(def.id);
      const active = await as(w, 'OWNER', 'get', '/taxes?isActive=false');
      expect(active.body.data.map((t: { id: string }) => t.id)).to.deep.equal([inactive.id]);
      const paged = await as(w, 'OWNER', 'get', '/taxes?page=2&limit=2');
      expect(paged.body.meta).to.deep.equal({ total: 3, page: 2, limit: 2, totalPages: 2 });
      expect(paged.body.data).to.have.length(1);
      const over = await as(w, 'OWNER', 'get', '/taxes?limit=101');
      expect(over.status).to.equal(400);
      const unknown = await as(w, 'OWNER', 'get', '/taxes?colour=red');
      expect(unknown.status).to.equal(400);
    });
  });

  describe('one default per tenant', () => {
    it('when a new tax is created as default then the old default is un-defaulted', async () => {
      const first = await tax(w, { isDefault: true });
      const second = await tax(w, { isDefault: true });
      expect((await TaxModel.query().findById(first.id))?.isDefault).to.equal(false);
      expect((await TaxModel.query().findById(second.id))?.isDefault).to.equal(true);
    });

    it('when a tax is patched to default then it becomes the only default', async () => {
      const first = await tax(w, { isDefault: true });
      const second = await tax(w);
      const res = await as(w, 'OWNER', 'patch', `/taxes/${second.id}`, { isDefault: true });
      expect(res.status).to.equal(200);
      expect(res.body.data.isDefault).to.equal(true);
      const defaults = await TaxModel.query().where({ tenantId: w.salon.tenant.id, isDefault: true });
      expect(defaults.map((t) => t.id)).to.deep.equal([second.id]);
      expect((await TaxModel.query().findById(first.id))?.isDefault).to.equal(false);
    });

    it('when two taxes become default at the same time then exactly one default remains', async () => {
      const a = await tax(w);
      const b = await tax(w);
      const results = await Promise.all([
        as(w, 'OWNER', 'patch', `/taxes/${a.id}`, { isDefault: true }),
        as(w, 'OWNER', 'patch', `/taxes/${b.id}`, { isDefault: true }),
      ]);
      expect(results.map((r) => r.status)).to.deep.equal([200, 200]);
      expect(await TaxModel.query().where({ tenantId: w.salon.tenant.id, isDefault: true })).to.have.length(1);
    });

    it('when the default tax is un-defaulted or deactivated then it is 422 and stays the default', async () => {
      const def = await tax(w, { isDefault: true });
      const unset = await as(w, 'OWNER', 'patch', `/taxes/${def.id}`, { isDefault: false });
      expect(unset.status).to.equal(422);
      expect(unset.body.error.code).to.equal('TAX_DEFAULT_REQUIRED');
      const deactivate = await as(w, 'OWNER', 'patch', `/taxes/${def.id}`, { isActive: false });
      expect(deactivate.status).to.equal(422);
      expect(deactivate.body.error.code).to.equal('TAX_DEFAULT_MUST_BE_ACTIVE');
      expect(await TaxModel.query().findById(def.id)).to.include({ isDefault: true, isActive: true });
    });

    it('when an inactive tax is created or made default then it is 422 TAX_DEFAULT_MUST_BE_ACTIVE', async () => {
      const created = await as(w, 'OWNER', 'post', '/taxes', { name: 'x', rate: 1, isDefault: true, isActive: false });
      expect(created.status).to.equal(422);
      expect(created.body.error.code).to.equal('TAX_DEFAULT_MUST_BE_ACTIVE');
      const inactive = await tax(w, { isActive: false });
      const res = await as(w, 'OWNER', 'patch', `/taxes/${inactive.id}`, { isDefault: true });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('TAX_DEFAULT_MUST_BE_ACTIVE');
    });
  });

  describe('patch and delete', () => {
    it('when OWNER patches name, rate and isActive then they change and other fields stay', async () => {
      const t = await tax(w, { rate: 25 });
      const res = await as(w, 'OWNER', 'patch', `/taxes/${t.id}`, { rate: 12.5, isActive: false });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ name: t.name, rate: 12.5, isActive: false, isDefault: false });
    });

    it('when a patch body is bad then it is 400 and nothing changes', async () => {
      const t = await tax(w, { rate: 25 });
      for (const body of [
        {},
        { rate: 101 },
        { rate: -1 },
        { rate: 1.0001 },
        { name: 'x'.repeat(101) },
        { isActive: 'nope' },
        { tenantId: w.salon.tenant.id },
      ]) {
        const res = await as(w, 'OWNER', 'patch', `/taxes/${t.id}`, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
      expect((await TaxModel.query().findById(t.id))?.rate).to.equal(25);
    });

    it('when a tax is deleted then it is 204 and gone', async () => {
      const t = await tax(w);
      const res = await as(w, 'OWNER', 'delete', `/taxes/${t.id}`);
      expect(res.status).to.equal(204);
      expect(await TaxModel.query().findById(t.id)).to.equal(undefined);
      expect((await as(w, 'OWNER', 'get', `/taxes/${t.id}`)).status).to.equal(404);
    });

    it('when the default tax is deleted then it is 409 TAX_IS_DEFAULT and it stays', async () => {
      const def = await tax(w, { isDefault: true });
      const res = await as(w, 'OWNER', 'delete', `/taxes/${def.id}`);
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('TAX_IS_DEFAULT');
      expect(await TaxModel.query().findById(def.id)).to.not.equal(undefined);
    });

    it('when a tax used by an accounting account is deleted then it is 409 TAX_IN_USE and it stays', async () => {
      const t = await tax(w);
      await AccountingAccountModel.query().insert({ tenantId: w.salon.tenant.id, code: '3000', name: 'Salg', taxId: t.id });
      const res = await as(w, 'OWNER', 'delete', `/taxes/${t.id}`);
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('TAX_IN_USE');
      expect(await TaxModel.query().findById(t.id)).to.not.equal(undefined);
    });
  });

  describe('Norwegian defaults for a new tenant', () => {
    it('when the tenant-creation hook runs then the tenant has 25 % (default), 15 % and 0 %, all active', async () => {
      const salon = await createSalon();
      const { platform } = await stack();
      await platform.deps.knex.transaction((trx) => seedTenantDefaults(trx, { id: salon.tenant.id, industryType: 'beauty' }));
      const res = await call('get', '/taxes', salon.owner.token);
      expect(res.status).to.equal(200);
      expect(res.body.data.map((t: { rate: number; isDefault: boolean; isActive: boolean }) => [t.rate, t.isDefault, t.isActive])).to.deep.equal([
        [25, true, true],
        [15, false, true],
        [0, false, true],
      ]);
    });

    it('when an owner registers through POST /auth/register then the new salon has the Norwegian taxes', async () => {
      const res = await call('post', '/auth/register', undefined, {
        salonName: 'Studio Skatt',
        slug: unique('skatt'),
        email: `${unique('owner')}@example.test`,
        password: 'owner-pass-1',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const taxes = await call('get', '/taxes', res.body.data.accessToken);
      expect(taxes.status).to.equal(200);
      expect(taxes.body.data.map((t: { rate: number; isDefault: boolean }) => [t.rate, t.isDefault])).to.deep.equal([
        [25, true],
        [15, false],
        [0, false],
      ]);
      expect(taxes.body.meta.total).to.equal(3);
    });

    it('when an ADMIN creates a salon through POST /tenants then it has the Norwegian taxes too', async () => {
      const res = await call('post', '/tenants', w.admin.token, {
        name: 'Salong Admin',
        slug: unique('adm'),
        owner: { email: `${unique('owner')}@example.test`, password: 'owner-pass-1' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const tenantId = (res.body.data.tenant ?? res.body.data).id as string;
      const rows = await TaxModel.query().where({ tenantId }).orderBy('rate', 'desc');
      expect(rows.map((t) => [t.rate, t.isDefault, t.isActive])).to.deep.equal([
        [25, true, true],
        [15, false, true],
        [0, false, true],
      ]);
    });

    it('when the tenant-creation transaction rolls back then no taxes are left behind', async () => {
      const salon = await createSalon();
      const { platform } = await stack();
      const later = new Error('registration failed later');
      const rolledBack = platform.deps.knex.transaction(async (trx) => {
        await seedTenantDefaults(trx, { id: salon.tenant.id, industryType: 'beauty' });
        // written inside the transaction...
        expect(await TaxModel.query(trx).where({ tenantId: salon.tenant.id })).to.have.length(3);
        throw later;
      });
      // ...and gone with it: the rollback was this failure, not another one
      await rejectsWithItself(rolledBack, later);
      expect(await TaxModel.query().where({ tenantId: salon.tenant.id })).to.have.length(0);
    });
  });
});
