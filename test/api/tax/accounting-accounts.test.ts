import { expect } from 'chai';
import { as, world, type World } from './tax-access.helpers';
import { createSalon, unique } from '../../support/factories';
import { TaxModel } from '../../../db/models/tax.model';
import { AccountingAccountModel } from '../../../db/models/accounting-account.model';

describe('accounting accounts API (/accounting-accounts)', () => {
  let w: World;
  let taxId: string;
  beforeEach(async () => {
    w = await world();
    taxId = (await TaxModel.query().insert({ tenantId: w.salon.tenant.id, name: 'MVA 25 %', rate: 25, isDefault: true })).id;
  });

  async function account(body: Record<string, unknown> = {}) {
    const res = await as(w, 'OWNER', 'post', '/accounting-accounts', { code: unique('a').slice(-8), name: 'Salg', taxId, ...body });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data as { id: string; code: string; isDefault: boolean; taxId: string | null };
  }

  describe('access', () => {
    it("when OWNER or the platform admin impersonating the owner use every route then they succeed; the admin's own token naming the salon is 403", async () => {
      for (const who of ['OWNER', 'IMPERSONATOR'] as const) {
        const created = await as(w, who, 'post', '/accounting-accounts', { code: `30${who.length}0`, name: 'Salg', taxId });
        expect(created.status, who).to.equal(201);
        const id = created.body.data.id;
        expect((await as(w, who, 'get', '/accounting-accounts')).status).to.equal(200);
        expect((await as(w, who, 'get', `/accounting-accounts/${id}`)).status).to.equal(200);
        expect((await as(w, who, 'patch', `/accounting-accounts/${id}`, { name: 'Varesalg' })).status).to.equal(200);
        expect((await as(w, who, 'delete', `/accounting-accounts/${id}`)).status).to.equal(204);
      }
      expect((await as(w, 'ADMIN', 'get', '/accounting-accounts')).status).to.equal(403);
      expect((await as(w, 'ADMIN', 'post', '/accounting-accounts', { code: '9998', name: 'x' })).status).to.equal(403);
    });

    it('when STAFF calls any route then it is 403 and nothing is written; without a token or with a customer token 401', async () => {
      const a = await account();
      const routes = [
        ['get', '/accounting-accounts'],
        ['post', '/accounting-accounts', { code: '9999', name: 'x' }],
        ['get', `/accounting-accounts/${a.id}`],
        ['patch', `/accounting-accounts/${a.id}`, { name: 'hacked' }],
        ['delete', `/accounting-accounts/${a.id}`],
      ] as const;
      for (const [method, path, body] of routes) {
        const staff = await as(w, 'STAFF', method, path, body);
        expect(staff.status, `STAFF ${method} ${path}`).to.equal(403);
        expect(staff.body.error.code).to.equal('FORBIDDEN');
        for (const who of ['NONE', 'CUSTOMER'] as const) {
          const res = await as(w, who, method, path, body);
          expect(res.status, `${who} ${method} ${path}`).to.equal(401);
          expect(res.body.error.code).to.equal('UNAUTHORIZED');
        }
      }
      expect(await AccountingAccountModel.query().where({ tenantId: w.salon.tenant.id })).to.have.length(1);
      expect((await AccountingAccountModel.query().findById(a.id))?.name).to.equal('Salg');
    });

    it("when a salon reads, patches or deletes another salon's account then it is 404 ACCOUNTING_ACCOUNT_NOT_FOUND", async () => {
      const other = await createSalon();
      const foreign = await AccountingAccountModel.query().insert({ tenantId: other.tenant.id, code: '3000', name: 'foreign' });
      for (const [method, body] of [['get'], ['patch', { name: 'mine' }], ['delete']] as const) {
        const res = await as(w, 'OWNER', method, `/accounting-accounts/${foreign.id}`, body);
        expect(res.status, method).to.equal(404);
        expect(res.body.error.code).to.equal('ACCOUNTING_ACCOUNT_NOT_FOUND');
      }
      expect((await AccountingAccountModel.query().findById(foreign.id))?.name).to.equal('foreign');
      const list = await as(w, 'OWNER', 'get', '/accounting-accounts');
      expect(list.body.meta.total).to.equal(0);
    });

    it("when the taxId is another salon's tax then it is 422 TAX_REFERENCE_INVALID and nothing is written", async () => {
      const other = await createSalon();
      const foreignTax = await TaxModel.query().insert({ tenantId: other.tenant.id, name: 'x', rate: 1 });
      const res = await as(w, 'OWNER', 'post', '/accounting-accounts', { code: '3000', name: 'Salg', taxId: foreignTax.id });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('TAX_REFERENCE_INVALID');
      const a = await account();
      const patch = await as(w, 'OWNER', 'patch', `/accounting-accounts/${a.id}`, { taxId: foreignTax.id });
      expect(patch.status).to.equal(422);
      expect((await AccountingAccountModel.query().findById(a.id))?.taxId).to.equal(taxId);
      expect(await AccountingAccountModel.query().where({ tenantId: w.salon.tenant.id })).to.have.length(1);
    });
  });

  describe('create, read, list', () => {
    it('when OWNER creates an account then it is stored with its tax and read back', async () => {
      const res = await as(w, 'OWNER', 'post', '/accounting-accounts', { code: '3000', name: 'Salgsinntekt', taxId });
      expect(res.status).to.equal(201);
      expect(res.body.data).to.include({ code: '3000', name: 'Salgsinntekt', taxId, isDefault: false });
      expect(await AccountingAccountModel.query().findById(res.body.data.id)).to.include({ tenantId: w.salon.tenant.id, code: '3000' });
      const one = await as(w, 'OWNER', 'get', `/accounting-accounts/${res.body.data.id}`);
      expect(one.body.data).to.deep.equal(res.body.data);
    });

    it('when taxId is omitted or null then the account has no tax', async () => {
      const a = await account({ taxId: null });
      expect(a.taxId).to.equal(null);
      const b = await as(w, 'OWNER', 'post', '/accounting-accounts', { code: '1920', name: 'Bank' });
      expect(b.status).to.equal(201);
      expect(b.body.data.taxId).to.equal(null);
    });

    it('when the code is already used in this salon then it is 409 ACCOUNTING_ACCOUNT_CODE_EXISTS; another salon may use it', async () => {
      await account({ code: '3000' });
      const clash = await as(w, 'OWNER', 'post', '/accounting-accounts', { code: '3000', name: 'again' });
      expect(clash.status).to.equal(409);
      expect(clash.body.error.code).to.equal('ACCOUNTING_ACCOUNT_CODE_EXISTS');
      const b = await account({ code: '3001' });
      const patchClash = await as(w, 'OWNER', 'patch', `/accounting-accounts/${b.id}`, { code: '3000' });
      expect(patchClash.status).to.equal(409);
      expect(patchClash.body.error.code).to.equal('ACCOUNTING_ACCOUNT_CODE_EXISTS');
      const other = await world();
      const res = await as(other, 'OWNER', 'post', '/accounting-accounts', { code: '3000', name: 'Salg' });
      expect(res.status).to.equal(201);
    });

    it('when two requests create the same code at once then one wins and the other gets 409 ACCOUNTING_ACCOUNT_CODE_EXISTS', async () => {
      const results = await Promise.all([1, 2, 3].map(() => as(w, 'OWNER', 'post', '/accounting-accounts', { code: '4000', name: 'race' })));
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409, 409]);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).to.equal('ACCOUNTING_ACCOUNT_CODE_EXISTS');
    });

    it('when the body is bad then it is 400 VALIDATION_ERROR and nothing is written', async () => {
      const cases: Record<string, unknown>[] = [
        { name: 'x' },
        { code: '3000' },
        { code: '', name: 'x' },
        { code: 'x'.repeat(33), name: 'x' },
        { code: 'has space', name: 'x' },
        { code: '3000', name: 'x'.repeat(201) },
        { code: '3000', name: 'x', taxId: 'not-a-uuid' },
        { code: '3000', name: 'x', isDefault: 'yes' },
        { code: '3000', name: { n: 1 } },
        { code: '3000', name: 'x', rate: 25 },
      ];
      for (const body of cases) {
        const res = await as(w, 'OWNER', 'post', '/accounting-accounts', body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
      const atLimit = await as(w, 'OWNER', 'post', '/accounting-accounts', { code: 'c'.repeat(32), name: 'n'.repeat(200) });
      expect(atLimit.status).to.equal(201);
      expect(await AccountingAccountModel.query().where({ tenantId: w.salon.tenant.id })).to.have.length(1);
    });

    it('when listing then accounts come by code with page meta and a taxId filter', async () => {
      await account({ code: '3000' });
      await account({ code: '1000', taxId: null });
      const list = await as(w, 'OWNER', 'get', '/accounting-accounts');
      expect(list.body.data.map((a: { code: string }) => a.code)).to.deep.equal(['1000', '3000']);
      expect(list.body.meta).to.deep.equal({ total: 2, page: 1, limit: 20, totalPages: 1 });
      const filtered = await as(w, 'OWNER', 'get', `/accounting-accounts?taxId=${taxId}`);
      expect(filtered.body.data.map((a: { code: string }) => a.code)).to.deep.equal(['3000']);
      expect((await as(w, 'OWNER', 'get', '/accounting-accounts?limit=0')).status).to.equal(400);
      expect((await as(w, 'OWNER', 'get', '/accounting-accounts?taxId=nope')).status).to.equal(400);
    });
  });

  describe('default, patch, delete', () => {
    it('when an account becomes default (create or patch) then the previous default is un-defaulted', async () => {
      const a = await account({ isDefault: true });
      const b = await account({ isDefault: true });
      expect((await AccountingAccountModel.query().findById(a.id))?.isDefault).to.equal(false);
      const res = await as(w, 'OWNER', 'patch', `/accounting-accounts/${a.id}`, { isDefault: true });
      expect(res.body.data.isDefault).to.equal(true);
      expect((await AccountingAccountModel.query().findById(b.id))?.isDefault).to.equal(false);
      expect(await AccountingAccountModel.query().where({ tenantId: w.salon.tenant.id, isDefault: true })).to.have.length(1);
    });

    it('when the default account is un-defaulted or deleted then the salon simply has no default account', async () => {
      const a = await account({ isDefault: true });
      const unset = await as(w, 'OWNER', 'patch', `/accounting-accounts/${a.id}`, { isDefault: false });
      expect(unset.status).to.equal(200);
      expect(unset.body.data.isDefault).to.equal(false);
      const b = await account({ isDefault: true });
      expect((await as(w, 'OWNER', 'delete', `/accounting-accounts/${b.id}`)).status).to.equal(204);
      expect(await AccountingAccountModel.query().where({ tenantId: w.salon.tenant.id, isDefault: true })).to.have.length(0);
    });

    it('when a patch body is bad then it is 400 and nothing changes', async () => {
      const a = await account({ code: '3000' });
      for (const body of [{}, { code: '' }, { name: 'x'.repeat(201) }, { taxId: 5 }, { tenantId: w.salon.tenant.id }]) {
        const res = await as(w, 'OWNER', 'patch', `/accounting-accounts/${a.id}`, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      expect((await AccountingAccountModel.query().findById(a.id))?.code).to.equal('3000');
    });

    it('when the tax is changed or cleared then the account follows', async () => {
      const a = await account();
      const other = await TaxModel.query().insert({ tenantId: w.salon.tenant.id, name: 'MVA 15 %', rate: 15 });
      const res = await as(w, 'OWNER', 'patch', `/accounting-accounts/${a.id}`, { taxId: other.id, code: '3010' });
      expect(res.body.data).to.include({ taxId: other.id, code: '3010' });
      const cleared = await as(w, 'OWNER', 'patch', `/accounting-accounts/${a.id}`, { taxId: null });
      expect(cleared.body.data.taxId).to.equal(null);
    });
  });
});
