// A query string is read as a form writes it (docs/rules/errors.md#request-bodies): `+` is a space,
// an optional filter sent empty is the filter left out.
import { expect } from 'chai';
import { createSalon, unique } from '../../support/factories';
import { call } from '../../support/http';
import { salonWithRoles } from '../../support/salon-roles';

describe('query strings', () => {
  it('when the salon search has a + between two words then it searches for the two words with a space', async () => {
    const word = unique('nordlys');
    const salon = await createSalon({ name: `Salong ${word}` });
    const res = await call('get', `/public/tenants?search=salong+${word}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.map((t: { id: string }) => t.id)).to.deep.equal([salon.tenant.id]);
  });

  it('when an optional filter is sent empty then it is the filter left out', async () => {
    const s = await salonWithRoles();
    const created = await s.as('OWNER', 'post', '/customers', { name: unique('Kari') });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const empty = await s.as('OWNER', 'get', '/customers?search=');
    const absent = await s.as('OWNER', 'get', '/customers');
    expect(empty.status, JSON.stringify(empty.body)).to.equal(200);
    expect(empty.body.meta.total).to.equal(absent.body.meta.total).and.to.equal(1);
    const noValue = await s.as('OWNER', 'get', '/customers?search');
    expect(noValue.status, JSON.stringify(noValue.body)).to.equal(200);
  });

  it('when a required parameter is sent empty then 400 VALIDATION_ERROR names it as missing', async () => {
    const s = await salonWithRoles();
    const res = await s.as('OWNER', 'get', '/schedule?date=');
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal(['date']);
  });
});
