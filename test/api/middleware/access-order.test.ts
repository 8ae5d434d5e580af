// One order of the access checks on every route (docs/rules/auth.md#order-of-the-checks):
// the token (401), then the role (403), then the input (400). The contract fuzz suite checks it for
// every operation; these are the cases that were answered in another order.
import { expect } from 'chai';
import { http } from '../../support/http';
import { salonWithRoles, type RoleSalon } from '../../support/salon-roles';

describe('access checks: token, then role, then validation', function () {
  this.timeout(90_000);
  let s: RoleSalon;
  before(async () => {
    s = await salonWithRoles();
  });

  it('when GET /image-proxy/sign comes without any token (and without its key) then 401, not 400', async () => {
    const res = await s.as('NONE', 'get', '/image-proxy/sign');
    expect([res.status, res.body.error.code]).to.deep.equal([401, 'UNAUTHORIZED']);
  });

  it('when an owner posts an invalid body to an ADMIN-only route then 403, not 400', async () => {
    const res = await s.as('OWNER', 'post', '/superadmin/billing-configs', { bogus: true });
    expect([res.status, res.body.error.code]).to.deep.equal([403, 'FORBIDDEN']);
  });

  it('when the path differs in case (/api/ADMIN/payment-configs) then the same checks in the same order: 401, 403, then 400', async () => {
    const post = async (token: string | undefined) => {
      let req = (await http()).post('/api/ADMIN/Payment-Configs');
      if (token) req = req.set('Authorization', `Bearer ${token}`);
      return req.send({ displayName: 42 });
    };
    expect((await post(undefined)).status).to.equal(401);
    expect((await post(s.staff.token)).status).to.equal(403);
    const owner = await post(s.owner.token);
    expect([owner.status, owner.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
  });

  it('when a body is not even JSON then a caller without a token or the role still learns that first', async () => {
    const send = async (token: string | undefined) => {
      let req = (await http()).post('/api/taxes').set('content-type', 'application/json');
      if (token) req = req.set('Authorization', `Bearer ${token}`);
      return req.send('{"name": ');
    };
    expect((await send(undefined)).status).to.equal(401);
    expect((await send(s.staff.token)).status).to.equal(403);
    const owner = await send(s.owner.token);
    expect([owner.status, owner.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
  });
});
