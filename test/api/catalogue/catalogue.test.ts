import { expect } from 'chai';
import { stack } from '../../support/stack';
import { salonWithRoles, type Caller, type RoleSalon } from '../../support/salon-roles';
import { unique } from '../../support/factories';
import { call } from '../../support/http';
import { png, uploadAs } from '../../support/upload-files';

function words(n: number): string {
  return Array.from({ length: n }, (_, i) => `ord${i}`).join(' ');
}

async function newService(s: RoleSalon, fields: Record<string, unknown> = {}) {
  const res = await s.as('OWNER', 'post', '/services', { name: unique('Klipp'), duration: 30, price: 45000, ...fields });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data;
}

async function newCategory(s: RoleSalon, fields: Record<string, unknown> = {}) {
  const res = await s.as('OWNER', 'post', '/service-categories', { name: unique('Hår'), ...fields });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data;
}

describe('services and categories', () => {
  let s: RoleSalon;
  let other: RoleSalon;
  before(async () => {
    s = await salonWithRoles({ settings: { currency: 'SEK' } });
    other = await salonWithRoles();
  });

  describe('phases, buffers and rooms (docs/rules/catalogue.md#phases-buffers-and-rooms)', () => {
    const colour = [
      { kind: 'WORK', minutes: 30 },
      { kind: 'PROCESSING', minutes: 35 },
      { kind: 'WORK', minutes: 25 },
    ];
    const invalid = (res: { status: number; body: { error?: { code: string; details?: { field: string }[] } } }) => [
      res.status,
      res.body.error?.code,
      res.body.error?.details?.[0]?.field,
    ];

    it("when a service is created with phases, buffers and a piece of equipment for its processing then its duration is the phases' sum and every part is stored", async () => {
      const res = await s.as('OWNER', 'post', '/services', {
        name: unique('Farge'),
        price: 120000,
        phases: colour,
        bufferBeforeMinutes: 5,
        bufferAfterMinutes: 10,
        resourceRequirements: [{ resourceType: 'equipment', phases: [1] }],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data).to.deep.include({
        duration: 90,
        phases: colour,
        bufferBeforeMinutes: 5,
        bufferAfterMinutes: 10,
        resourceRequirements: [{ resourceType: 'equipment', phases: [1] }],
      });
      const row = await (await stack()).platform.knex('services').where({ id: res.body.data.id }).first();
      expect(row).to.deep.include({ duration: 90, phases: colour, bufferBeforeMinutes: 5, bufferAfterMinutes: 10 });
      expect((await s.as('STAFF', 'get', `/services/${res.body.data.id}`)).body.data.phases).to.deep.equal(colour);
    });

    it('when a service has only a duration (as every service before phases) then it is one work phase of it, no buffers, nothing else needed', async () => {
      const plain = await newService(s, { duration: 45 });
      expect(plain).to.deep.include({
        duration: 45,
        phases: [{ kind: 'WORK', minutes: 45 }],
        bufferBeforeMinutes: 0,
        bufferAfterMinutes: 0,
        resourceRequirements: [],
      });
      expect((await (await stack()).platform.knex('services').where({ id: plain.id }).first()).phases, 'stored as no phases').to.equal(null);
      const moved = await s.as('OWNER', 'patch', `/services/${plain.id}`, { duration: 50 });
      expect(moved.body.data).to.deep.include({ duration: 50, phases: [{ kind: 'WORK', minutes: 50 }] });
    });

    it('when the duration and the phases disagree, or neither is sent, then 400 VALIDATION_ERROR naming duration', async () => {
      expect(invalid(await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, phases: colour, duration: 60 }))).to.deep.equal([
        400,
        'VALIDATION_ERROR',
        'duration',
      ]);
      expect(invalid(await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1 }))).to.deep.equal([400, 'VALIDATION_ERROR', 'duration']);
      const ok = await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, phases: colour, duration: 90 });
      expect(ok.status).to.equal(201);
    });

    it('when a phase is sent empty beside a duration then 400 VALIDATION_ERROR names its kind and minutes, not the duration', async () => {
      const res = await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, duration: 30, phases: [{}] });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal(['phases.0.kind', 'phases.0.minutes']);
      expect(JSON.stringify(res.body)).not.to.contain('NaN');
    });

    it('when a service has 10 phases then 201; 11 phases, a phase of 0 minutes or none at all is 400', async () => {
      const ten = Array.from({ length: 10 }, (_, i) => ({ kind: i % 2 ? 'PROCESSING' : 'WORK', minutes: 5 }));
      expect((await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, phases: ten })).body.data.duration).to.equal(50);
      expect((await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, phases: [...ten, { kind: 'WORK', minutes: 5 }] })).status).to.equal(400);
      expect((await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, phases: [{ kind: 'WORK', minutes: 0 }] })).status).to.equal(400);
      expect((await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, phases: [] })).status).to.equal(400);
    });

    it('when the phases last 1440 minutes in all then 201; 1441 is 400', async () => {
      expect(
        (
          await s.as('OWNER', 'post', '/services', {
            name: unique('X'),
            price: 1,
            phases: [
              { kind: 'WORK', minutes: 1430 },
              { kind: 'PROCESSING', minutes: 10 },
            ],
          })
        ).status,
      ).to.equal(201);
      const over = await s.as('OWNER', 'post', '/services', {
        name: unique('X'),
        price: 1,
        phases: [
          { kind: 'WORK', minutes: 1431 },
          { kind: 'PROCESSING', minutes: 10 },
        ],
      });
      expect([over.status, over.body.error.details[0].field]).to.deep.equal([400, 'phases']);
    });

    it('when a buffer is 120 minutes then 201; 121 or below 0 is 400', async () => {
      expect(
        (await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, duration: 30, bufferBeforeMinutes: 120, bufferAfterMinutes: 120 })).status,
      ).to.equal(201);
      expect((await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, duration: 30, bufferBeforeMinutes: 121 })).status).to.equal(400);
      expect((await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, duration: 30, bufferAfterMinutes: -1 })).status).to.equal(400);
    });

    it('when a requirement names a phase the service does not have, repeats a type or a phase, or there are three then 400', async () => {
      const post = (resourceRequirements: unknown) => s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, phases: colour, resourceRequirements });
      expect(invalid(await post([{ resourceType: 'equipment', phases: [3] }]))).to.deep.equal([400, 'VALIDATION_ERROR', 'resourceRequirements.0.phases']);
      expect(
        invalid(
          await post([
            { resourceType: 'room', phases: null },
            { resourceType: 'room', phases: [1] },
          ]),
        ),
      ).to.deep.equal([400, 'VALIDATION_ERROR', 'resourceRequirements.1.resourceType']);
      expect(invalid(await post([{ resourceType: 'room', phases: [1, 1] }]))).to.deep.equal([400, 'VALIDATION_ERROR', 'resourceRequirements.0.phases']);
      expect(
        (
          await post([
            { resourceType: 'room', phases: null },
            { resourceType: 'equipment', phases: [0, 2] },
          ])
        ).status,
      ).to.equal(201);
      expect(
        (
          await post([
            { resourceType: 'room', phases: null },
            { resourceType: 'equipment', phases: [1] },
            { resourceType: 'room', phases: [2] },
          ])
        ).status,
      ).to.equal(400);
      expect((await post([{ resourceType: 'staff', phases: null }])).status).to.equal(400);
    });

    it('when a phase lacks its minutes or kind, or a requirement its type, then 400 naming it; a requirement without phases needs its room for the whole service', async () => {
      expect(invalid(await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, phases: [{ kind: 'WORK' }] }))).to.deep.equal([
        400,
        'VALIDATION_ERROR',
        'phases.0.minutes',
      ]);
      expect(invalid(await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, phases: [{ minutes: 30 }] }))).to.deep.equal([
        400,
        'VALIDATION_ERROR',
        'phases.0.kind',
      ]);
      expect(
        invalid(await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, duration: 30, resourceRequirements: [{ phases: [0] }] })),
      ).to.deep.equal([400, 'VALIDATION_ERROR', 'resourceRequirements.0.resourceType']);
      const whole = await s.as('OWNER', 'post', '/services', { name: unique('X'), price: 1, duration: 30, resourceRequirements: [{ resourceType: 'room' }] });
      expect(whole.body.data.resourceRequirements).to.deep.equal([{ resourceType: 'room', phases: null }]);
    });

    it('when a service with phases is given a new duration alone then 400 (its length is its phases); new phases change the duration, and cutting phases under a requirement is 400', async () => {
      const svc = (
        await s.as('OWNER', 'post', '/services', {
          name: unique('Farge'),
          price: 1,
          phases: colour,
          resourceRequirements: [{ resourceType: 'equipment', phases: [2] }],
        })
      ).body.data;
      expect(invalid(await s.as('OWNER', 'patch', `/services/${svc.id}`, { duration: 100 }))).to.deep.equal([400, 'VALIDATION_ERROR', 'duration']);
      const longer = await s.as('OWNER', 'patch', `/services/${svc.id}`, { phases: [...colour.slice(0, 2), { kind: 'WORK', minutes: 40 }] });
      expect(longer.body.data).to.deep.include({ duration: 105, resourceRequirements: [{ resourceType: 'equipment', phases: [2] }] });
      expect(invalid(await s.as('OWNER', 'patch', `/services/${svc.id}`, { phases: colour.slice(0, 2) }))).to.deep.equal([
        400,
        'VALIDATION_ERROR',
        'resourceRequirements.0.phases',
      ]);
      const buffered = await s.as('OWNER', 'patch', `/services/${svc.id}`, { bufferAfterMinutes: 15 });
      expect(buffered.body.data).to.deep.include({ duration: 105, bufferAfterMinutes: 15 });
    });
  });

  describe('POST /services', () => {
    it('when the owner creates a service then it is stored with the tenant currency, minor units and minutes', async () => {
      const category = await newCategory(s);
      const imageKey: string = (await uploadAs(s.owner.token, 'SERVICE_IMAGE', await png())).body.data.key;
      const res = await s.as('OWNER', 'post', '/services', {
        name: 'Dameklipp',
        description: 'Vask, klipp og føn',
        duration: 45,
        price: 69900,
        categoryId: category.id,
        sortOrder: 2,
        metadata: { hairLength: 'long' },
        imageKey,
      });
      expect(res.status).to.equal(201);
      expect(res.body.success).to.equal(true);
      expect(res.body.data).to.include({
        name: 'Dameklipp',
        duration: 45,
        price: 69900,
        currency: 'SEK',
        categoryId: category.id,
        isActive: true,
        sortOrder: 2,
      });
      expect(res.body.data.metadata).to.deep.equal({ hairLength: 'long' });
      const row = await (await stack()).platform.knex('services').where({ id: res.body.data.id }).first();
      expect(row.tenantId).to.equal(s.tenant.id);
      expect(row.currency).to.equal('SEK');
    });

    it('when the currency is sent by the client then it is rejected as an unknown field', async () => {
      const res = await s.as('OWNER', 'post', '/services', { name: 'X', duration: 30, price: 100, currency: 'USD' });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    });

    const bad: [string, Record<string, unknown>, string][] = [
      ['the name is missing', { duration: 30, price: 100 }, 'name'],
      ['the duration is zero', { name: 'X', duration: 0, price: 100 }, 'duration'],
      ['the duration is not an integer', { name: 'X', duration: 'long', price: 100 }, 'duration'],
      ['the price is negative', { name: 'X', duration: 30, price: -1 }, 'price'],
      ['the price is a float', { name: 'X', duration: 30, price: 10.5 }, 'price'],
      ['a field is unknown', { name: 'X', duration: 30, price: 100, colour: 'red' }, 'colour'],
      ['the category id is not a uuid', { name: 'X', duration: 30, price: 100, categoryId: 'abc' }, 'categoryId'],
    ];
    for (const [when, body, field] of bad) {
      it(`when ${when} then 400 VALIDATION_ERROR names ${field}`, async () => {
        const res = await s.as('OWNER', 'post', '/services', body);
        expect(res.status).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(JSON.stringify(res.body.error.details)).to.contain(field);
      });
    }

    it('when the description has exactly 200 words then it is accepted', async () => {
      const created = await newService(s, { description: words(200) });
      expect(created.description.split(' ')).to.have.length(200);
    });

    it('when the description has 201 words then 400 VALIDATION_ERROR on description', async () => {
      const res = await s.as('OWNER', 'post', '/services', { name: 'X', duration: 30, price: 100, description: words(201) });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.deep.include({ code: 'VALIDATION_ERROR' });
      expect(res.body.error.details[0].field).to.equal('description');
    });

    it('when the category belongs to another salon then 404 SERVICE_CATEGORY_NOT_FOUND', async () => {
      const foreign = await newCategory(other);
      const res = await s.as('OWNER', 'post', '/services', { name: 'X', duration: 30, price: 100, categoryId: foreign.id });
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('SERVICE_CATEGORY_NOT_FOUND');
    });

    it('when an accounting account of the salon is given then it is linked; one of another salon is 404', async () => {
      const { knex } = (await stack()).platform;
      const [own] = await knex('accounting_accounts')
        .insert({ tenantId: s.tenant.id, code: unique('3000'), name: 'Salg' })
        .returning('id');
      const [foreign] = await knex('accounting_accounts')
        .insert({ tenantId: other.tenant.id, code: unique('3000'), name: 'Salg' })
        .returning('id');
      const created = await newService(s, { accountingAccountId: own.id });
      expect(created.accountingAccountId).to.equal(own.id);
      const res = await s.as('OWNER', 'post', '/services', { name: 'X', duration: 30, price: 100, accountingAccountId: foreign.id });
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('ACCOUNTING_ACCOUNT_NOT_FOUND');
    });
  });

  describe('GET /services', () => {
    let fresh: RoleSalon;
    let catA: { id: string };
    before(async () => {
      fresh = await salonWithRoles();
      catA = await newCategory(fresh);
      await newService(fresh, { name: 'A', categoryId: catA.id, price: 300 });
      await newService(fresh, { name: 'B', isActive: false, price: 100 });
      await newService(fresh, { name: 'C', categoryId: catA.id, isActive: false, price: 200 });
    });

    it('when listed without filters then every service of the salon comes back in the envelope with meta', async () => {
      const res = await fresh.as('STAFF', 'get', '/services');
      expect(res.status).to.equal(200);
      expect(res.body.data.map((x: { name: string }) => x.name).sort()).to.deep.equal(['A', 'B', 'C']);
      expect(res.body.meta).to.deep.equal({ total: 3, page: 1, limit: 20, totalPages: 1 });
    });

    it('when filtered by isActive and categoryId then only matching services come back', async () => {
      const active = await fresh.as('STAFF', 'get', '/services?isActive=true');
      expect(active.body.data.map((x: { name: string }) => x.name)).to.deep.equal(['A']);
      const inactive = await fresh.as('STAFF', 'get', `/services?isActive=false&categoryId=${catA.id}`);
      expect(inactive.body.data.map((x: { name: string }) => x.name)).to.deep.equal(['C']);
    });

    it('when sorted by price ascending with limit 2 then page 2 holds the most expensive one', async () => {
      const res = await fresh.as('STAFF', 'get', '/services?sort=price&order=asc&limit=2&page=2');
      expect(res.body.data.map((x: { name: string }) => x.name)).to.deep.equal(['A']);
      expect(res.body.meta).to.deep.equal({ total: 3, page: 2, limit: 2, totalPages: 2 });
    });

    it('when limit is 100 then it is accepted; 101 is 400', async () => {
      expect((await fresh.as('STAFF', 'get', '/services?limit=100')).status).to.equal(200);
      const res = await fresh.as('STAFF', 'get', '/services?limit=101');
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    });

    it('when an unknown filter or sort is sent then 400', async () => {
      expect((await fresh.as('STAFF', 'get', '/services?sort=secret')).status).to.equal(400);
      expect((await fresh.as('STAFF', 'get', '/services?colour=red')).status).to.equal(400);
      expect((await fresh.as('STAFF', 'get', '/services?isActive=maybe')).status).to.equal(400);
    });

    it('when another salon lists services then it sees none of these', async () => {
      const res = await other.as('OWNER', 'get', `/services?categoryId=${catA.id}`);
      expect(res.body.data).to.deep.equal([]);
      expect(res.body.meta).to.deep.equal({ total: 0, page: 1, limit: 20, totalPages: 0 });
    });
  });

  describe('PATCH and DELETE /services/:id', () => {
    it('when the owner patches some fields then only those change and the currency follows the tenant', async () => {
      const created = await newService(s, { description: 'før' });
      const res = await s.as('OWNER', 'patch', `/services/${created.id}`, { price: 0, description: null, isActive: false });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ price: 0, description: null, isActive: false, duration: created.duration, name: created.name, currency: 'SEK' });
    });

    it('when the patch is empty, has an unknown field or 201 words then 400', async () => {
      const created = await newService(s);
      expect((await s.as('OWNER', 'patch', `/services/${created.id}`, {})).status).to.equal(400);
      expect((await s.as('OWNER', 'patch', `/services/${created.id}`, { tenantId: other.tenant.id })).status).to.equal(400);
      expect((await s.as('OWNER', 'patch', `/services/${created.id}`, { description: words(201) })).status).to.equal(400);
      expect((await s.as('OWNER', 'patch', `/services/${created.id}`, { description: words(200) })).status).to.equal(200);
    });

    it('when another salon reads, patches or deletes the service then 404 SERVICE_NOT_FOUND and nothing changes', async () => {
      const created = await newService(s);
      for (const [method, body] of [
        ['get', undefined],
        ['patch', { price: 1 }],
        ['delete', undefined],
      ] as const) {
        const res = await other.as('OWNER', method, `/services/${created.id}`, body);
        expect(res.status, method).to.equal(404);
        expect(res.body.error.code).to.equal('SERVICE_NOT_FOUND');
      }
      expect((await s.as('OWNER', 'get', `/services/${created.id}`)).body.data.price).to.equal(created.price);
    });

    it('when the owner deletes a service then it is gone (204) and a second delete is 404', async () => {
      const created = await newService(s);
      const res = await s.as('OWNER', 'delete', `/services/${created.id}`);
      expect(res.status).to.equal(204);
      expect((await s.as('OWNER', 'delete', `/services/${created.id}`)).status).to.equal(404);
    });
  });

  describe('categories', () => {
    it('when listed then categories come ordered by sortOrder, then name', async () => {
      const fresh = await salonWithRoles();
      await newCategory(fresh, { name: 'Negler', sortOrder: 2 });
      await newCategory(fresh, { name: 'Hår', sortOrder: 1 });
      await newCategory(fresh, { name: 'Ansikt', sortOrder: 2 });
      const res = await fresh.as('STAFF', 'get', '/service-categories');
      expect(res.status).to.equal(200);
      expect(res.body.data.map((c: { name: string }) => c.name)).to.deep.equal(['Hår', 'Ansikt', 'Negler']);
      expect(res.body.meta.total).to.equal(3);
    });

    it('when a name is used twice in one salon (any case) then 409 SERVICE_CATEGORY_NAME_EXISTS; another salon may use it', async () => {
      const name = unique('Farge');
      await newCategory(s, { name });
      const res = await s.as('OWNER', 'post', '/service-categories', { name: name.toUpperCase() });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('SERVICE_CATEGORY_NAME_EXISTS');
      expect((await other.as('OWNER', 'post', '/service-categories', { name })).status).to.equal(201);
    });

    it('when bad bodies are sent then 400 (missing name, empty name, 101 chars, unknown field, wrong type)', async () => {
      for (const body of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 'x', color: 'red' }, { name: 'x', sortOrder: 'first' }]) {
        const res = await s.as('OWNER', 'post', '/service-categories', body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      expect((await s.as('OWNER', 'post', '/service-categories', { name: unique('y').padEnd(100, 'y') })).status).to.equal(201);
    });

    it('when the owner renames and reorders a category then GET shows it', async () => {
      const c = await newCategory(s);
      const res = await s.as('OWNER', 'patch', `/service-categories/${c.id}`, { name: 'Nytt navn ' + c.id, sortOrder: 9 });
      expect(res.status).to.equal(200);
      expect((await s.as('STAFF', 'get', `/service-categories/${c.id}`)).body.data).to.include({ sortOrder: 9, name: 'Nytt navn ' + c.id });
    });

    it('when a category with services is deleted then the services stay with categoryId null', async () => {
      const c = await newCategory(s);
      const svc = await newService(s, { categoryId: c.id });
      const res = await s.as('OWNER', 'delete', `/service-categories/${c.id}`);
      expect(res.status).to.equal(204);
      const after = await s.as('OWNER', 'get', `/services/${svc.id}`);
      expect(after.status).to.equal(200);
      expect(after.body.data.categoryId).to.equal(null);
      expect((await s.as('OWNER', 'get', `/service-categories/${c.id}`)).status).to.equal(404);
    });

    it('when another salon touches the category then 404 SERVICE_CATEGORY_NOT_FOUND', async () => {
      const c = await newCategory(s);
      for (const [method, body] of [
        ['get', undefined],
        ['patch', { sortOrder: 1 }],
        ['delete', undefined],
      ] as const) {
        const res = await other.as('OWNER', method, `/service-categories/${c.id}`, body);
        expect(res.status, method).to.equal(404);
        expect(res.body.error.code).to.equal('SERVICE_CATEGORY_NOT_FOUND');
      }
    });
  });

  describe('access matrix', () => {
    let svcId: string;
    let catId: string;
    before(async () => {
      svcId = (await newService(s)).id;
      catId = (await newCategory(s)).id;
    });
    const reads = (): [string, string][] => [
      ['get', '/services'],
      ['get', `/services/${svcId}`],
      ['get', `/services/${svcId}/resources`],
      ['get', '/service-categories'],
      ['get', `/service-categories/${catId}`],
    ];
    const writes = (): [string, string, unknown][] => [
      ['post', '/services', { name: unique('S'), duration: 10, price: 0 }],
      ['patch', `/services/${svcId}`, { sortOrder: 3 }],
      ['put', `/services/${svcId}/resources`, { resourceIds: [] }],
      ['post', '/service-categories', { name: unique('C') }],
      ['patch', `/service-categories/${catId}`, { sortOrder: 4 }],
    ];
    const expectations: [Caller, number, number][] = [
      ['NONE', 401, 401],
      ['CUSTOMER', 401, 401],
      ['STAFF', 200, 403],
      ['OWNER', 200, 0],
      ['IMPERSONATOR', 200, 0],
      ['ADMIN', 403, 403],
    ];
    for (const [caller, readStatus, writeStatus] of expectations) {
      it(`when ${caller} calls then reads are ${readStatus} and writes are ${writeStatus || 'allowed'}`, async () => {
        for (const [method, path] of reads()) {
          const res = await s.as(caller, method as 'get', path);
          expect(res.status, `${method} ${path}`).to.equal(readStatus);
        }
        for (const [method, path, body] of writes()) {
          const res = await s.as(caller, method as 'post', path, body);
          if (writeStatus) expect(res.status, `${method} ${path}`).to.equal(writeStatus);
          else expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201]);
        }
      });
    }

    it('when STAFF deletes a service or category then 403, and the rows stay', async () => {
      expect((await s.as('STAFF', 'delete', `/services/${svcId}`)).status).to.equal(403);
      expect((await s.as('STAFF', 'delete', `/service-categories/${catId}`)).status).to.equal(403);
      expect((await s.as('STAFF', 'get', `/services/${svcId}`)).status).to.equal(200);
    });

    it('when an ADMIN calls without a tenant context then 403', async () => {
      const res = await call('get', '/services', s.admin.token);
      expect(res.status).to.equal(403);
    });
  });
});
