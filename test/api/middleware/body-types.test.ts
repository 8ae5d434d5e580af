// JSON bodies are taken as sent (docs/rules/errors.md#request-bodies): a wrong type is 400
// VALIDATION_ERROR naming the field and nothing is saved; null keeps its meaning; query parameters
// are still read from their text form.
import { expect } from 'chai';
import { stack } from '../../support/stack';
import { salonWithRoles, type RoleSalon } from '../../support/salon-roles';
import { unique } from '../../support/factories';

const fieldsOf = (res: { body: { error?: { details?: { field: string }[] } } }) => (res.body.error?.details ?? []).map((d) => d.field);

describe('request body types', () => {
  let s: RoleSalon;
  before(async () => {
    s = await salonWithRoles();
  });

  it('when a service is patched with a null price, a text for isActive or a boolean for its name then 400 VALIDATION_ERROR names the field and nothing is saved', async () => {
    const created = await s.as('OWNER', 'post', '/services', { name: unique('Klipp'), duration: 30, price: 45000 });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const all = await s.as('OWNER', 'patch', `/services/${created.body.data.id}`, { price: null, isActive: 'false', name: true });
    expect(all.status, JSON.stringify(all.body)).to.equal(400);
    for (const [field, value] of Object.entries({ price: null, isActive: 'false', name: true })) {
      const res = await s.as('OWNER', 'patch', `/services/${created.body.data.id}`, { [field]: value });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(fieldsOf(res), field).to.deep.equal([field]);
    }
    const row = await (await stack()).platform.knex('services').where({ id: created.body.data.id }).first();
    expect(row).to.deep.include({ price: 45000, isActive: true, name: created.body.data.name });
  });

  it('when a customer is created with a number as notes then 400 VALIDATION_ERROR names notes and no customer is stored', async () => {
    const name = unique('Kari');
    const res = await s.as('OWNER', 'post', '/customers', { name, notes: -0.5 });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    expect(fieldsOf(res)).to.deep.equal(['notes']);
    expect(await (await stack()).platform.knex('customers').where({ name }).first()).to.equal(undefined);
  });

  it('when a nullable field is sent null then it is cleared, and a field that cannot be empty refuses null naming it', async () => {
    const created = await s.as('OWNER', 'post', '/customers', { name: unique('Ola'), notes: 'Liker te' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const cleared = await s.as('OWNER', 'patch', `/customers/${created.body.data.id}`, { notes: null });
    expect(cleared.status, JSON.stringify(cleared.body)).to.equal(200);
    expect(cleared.body.data.notes).to.equal(null);
    const refused = await s.as('OWNER', 'patch', `/customers/${created.body.data.id}`, { name: null });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(400);
    expect(fieldsOf(refused)).to.deep.equal(['name']);
  });

  it('when a query parameter is a number in text then it is read as the number', async () => {
    const res = await s.as('OWNER', 'get', '/customers?page=1&limit=5');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.meta).to.deep.include({ page: 1, limit: 5 });
  });
});
