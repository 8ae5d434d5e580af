import { expect } from 'chai';
import crypto from 'node:crypto';
import { call, http } from '../../support/http';
import { createAdmin, createSalon, unique, uniquePhone, type TestUser } from '../../support/factories';
import { knex } from '../../support/booking-fixtures';
import request from 'supertest';
import { appOnClock, stack } from '../../support/stack';

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

async function start(admin: TestUser, tenantId: string, reason = 'Support ticket 4711: owner cannot add staff') {
  const res = await call('post', '/superadmin/impersonate/start', admin.token, { tenantId, reason });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { accessToken: string; refreshToken: string; session: { id: string } };
}

/** A JSON request whose body bytes are exactly `raw`. */
async function rawJson(method: 'post' | 'patch' | 'delete', path: string, token: string, raw?: string) {
  const req = (await http())[method](`/api${path}`).set('Authorization', `Bearer ${token}`);
  return raw === undefined ? req : req.set('content-type', 'application/json').send(raw);
}

describe('super-admin impersonation: start', () => {
  it('when the admin starts with a reason then the token keeps sub = admin, role OWNER, the tenant and the imp claim', async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const res = await call('post', '/superadmin/impersonate/start', admin.token, { tenantId: tenant.id, reason: 'Helping with onboarding' });
    expect(res.status).to.equal(201);
    const claims = claimsOf(res.body.data.accessToken);
    expect(claims).to.include({ sub: admin.id, role: 'OWNER', tenantId: tenant.id });
    expect(claims.imp).to.deep.equal({ sessionId: res.body.data.session.id, adminUserId: admin.id });
    expect(res.body.data.session).to.include({
      adminUserId: admin.id,
      tenantId: tenant.id,
      reason: 'Helping with onboarding',
      endedAt: null,
      mutationCount: 0,
    });
    const row = await (await knex())('impersonation_sessions').where({ id: res.body.data.session.id }).first();
    expect(row.refreshTokenHash).to.equal(sha256(res.body.data.refreshToken));
  });

  it('when the reason is 500 characters then it is accepted; 501 characters or blank is 400 VALIDATION_ERROR', async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const at = await call('post', '/superadmin/impersonate/start', admin.token, { tenantId: tenant.id, reason: 'r'.repeat(500) });
    expect(at.status).to.equal(201);
    for (const reason of ['r'.repeat(501), '', '   ']) {
      const past = await call('post', '/superadmin/impersonate/start', admin.token, { tenantId: tenant.id, reason });
      expect(past.status, `length ${reason.length}`).to.equal(400);
      expect(past.body.error.code).to.equal('VALIDATION_ERROR');
    }
    expect(await (await knex())('impersonation_sessions').where({ tenantId: tenant.id })).to.have.length(1);
  });

  it('when the caller is already impersonating then 409 IMPERSONATION_ALREADY_ACTIVE', async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const other = await createSalon();
    const imp = await start(admin, tenant.id);
    const res = await call('post', '/superadmin/impersonate/start', imp.accessToken, { tenantId: other.tenant.id, reason: 'again' });
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('IMPERSONATION_ALREADY_ACTIVE');
  });

  it('when the tenant does not exist then 404 TENANT_NOT_FOUND; a deactivated tenant is 422 TENANT_NOT_ACTIVE', async () => {
    const admin = await createAdmin();
    const missing = await call('post', '/superadmin/impersonate/start', admin.token, { tenantId: crypto.randomUUID(), reason: 'x' });
    expect(missing.status).to.equal(404);
    expect(missing.body.error.code).to.equal('TENANT_NOT_FOUND');
    const { tenant } = await createSalon();
    await (await knex())('tenants').where({ id: tenant.id }).update({ isActive: false });
    const inactive = await call('post', '/superadmin/impersonate/start', admin.token, { tenantId: tenant.id, reason: 'x' });
    expect(inactive.status).to.equal(422);
    expect(inactive.body.error.code).to.equal('TENANT_NOT_ACTIVE');
  });

  it('when an owner or an anonymous caller starts then 403 / 401', async () => {
    const { tenant, owner } = await createSalon();
    expect((await call('post', '/superadmin/impersonate/start', owner.token, { tenantId: tenant.id, reason: 'x' })).status).to.equal(403);
    expect((await call('post', '/superadmin/impersonate/start', undefined, { tenantId: tenant.id, reason: 'x' })).status).to.equal(401);
  });
});

describe('super-admin impersonation: acting as the owner, audited', () => {
  it('when the impersonation token is used then guards treat it as the owner and GET /auth/me shows the impersonation block', async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const imp = await start(admin, tenant.id);
    expect((await call('get', '/tenants/me', imp.accessToken)).body.data.id).to.equal(tenant.id);
    const me = await call('get', '/auth/me', imp.accessToken);
    expect(me.status).to.equal(200);
    expect(me.body.data).to.include({ id: admin.id, role: 'OWNER', tenantId: tenant.id });
    expect(me.body.data.impersonation).to.deep.equal({ sessionId: imp.session.id, adminUserId: admin.id });
    // the admin's own token shows no impersonation
    expect((await call('get', '/auth/me', admin.token)).body.data.impersonation).to.equal(null);
    // ADMIN-only routes are not reachable as the owner
    expect((await call('get', '/superadmin/impersonate/sessions', imp.accessToken)).status).to.equal(403);
  });

  it('when POST, PATCH and DELETE calls are made then each has one audit row (method, path, status, SHA-256 of the body); GETs and the end call have none', async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const imp = await start(admin, tenant.id);
    const createBody = JSON.stringify({ name: 'Kari Kunde', phone: uniquePhone() });
    const created = await rawJson('post', '/customers', imp.accessToken, createBody);
    expect(created.status).to.equal(201);
    const patchBody = JSON.stringify({ notes: 'VIP' });
    expect((await rawJson('patch', `/customers/${created.body.data.id}`, imp.accessToken, patchBody)).status).to.equal(200);
    const badBody = JSON.stringify({ name: 'x', unknownField: true });
    expect((await rawJson('post', '/customers', imp.accessToken, badBody)).status).to.equal(400);
    const categoryBody = JSON.stringify({ name: unique('Hår') });
    const category = await rawJson('post', '/service-categories', imp.accessToken, categoryBody);
    expect(category.status).to.equal(201);
    const deleted = await rawJson('delete', `/service-categories/${category.body.data.id}`, imp.accessToken);
    expect(deleted.status).to.be.oneOf([200, 204]);
    expect((await call('get', '/customers', imp.accessToken)).status).to.equal(200);
    expect((await call('get', `/customers/${created.body.data.id}`, imp.accessToken)).status).to.equal(200);
    expect((await call('post', '/superadmin/impersonate/end', imp.accessToken)).status).to.equal(200);

    const logs = await call('get', `/superadmin/impersonate/sessions/${imp.session.id}/logs`, admin.token);
    expect(logs.status).to.equal(200);
    expect(logs.body.meta.total).to.equal(5);
    const rows = logs.body.data.map((l: { method: string; path: string; statusCode: number; bodyHash: string }) => [
      l.method,
      l.path,
      l.statusCode,
      l.bodyHash,
    ]);
    expect(rows).to.deep.equal([
      ['POST', '/api/customers', 201, sha256(createBody)],
      ['PATCH', `/api/customers/${created.body.data.id}`, 200, sha256(patchBody)],
      ['POST', '/api/customers', 400, sha256(badBody)],
      ['POST', '/api/service-categories', 201, sha256(categoryBody)],
      ['DELETE', `/api/service-categories/${category.body.data.id}`, deleted.status, sha256('')],
    ]);
    // the raw body is not stored anywhere in the audit row
    const stored = JSON.stringify(await (await knex())('impersonation_audit_logs').where({ sessionId: imp.session.id }));
    expect(stored).to.not.include('Kari Kunde');
  });

  it('when the admin uses their own token then it is refused (403), nothing is written or audited, though the same request with the impersonation token is written and audited', async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const imp = await start(admin, tenant.id);
    const audited = async () =>
      (await (await knex())('impersonation_audit_logs').where({ sessionId: imp.session.id })).map((r: { method: string; path: string; statusCode: number }) => [
        r.method,
        r.path,
        r.statusCode,
      ]);
    const customer = (name: string) => JSON.stringify({ name, phone: `+474${crypto.randomInt(1_000_000, 9_999_999)}` });
    // an ADMIN token naming the salon (x-tenant-id) writes nothing in it (docs/rules/auth.md#the-platform-admin)
    const own = await (
      await http()
    )
      .post('/api/customers')
      .set('Authorization', `Bearer ${admin.token}`)
      .set('x-tenant-id', tenant.id)
      .set('content-type', 'application/json')
      .send(customer('Ikke logget'));
    expect(own.status, JSON.stringify(own.body)).to.equal(403);
    expect(await (await knex())('customers').where({ tenantId: tenant.id, name: 'Ikke logget' })).to.deep.equal([]);
    expect(await audited(), "nothing audited for the admin's own token").to.deep.equal([]);
    // the same request with the impersonation token is written and audited
    const asOwner = await rawJson('post', '/customers', imp.accessToken, customer('Logget'));
    expect(asOwner.status).to.equal(201);
    expect(await audited()).to.deep.equal([['POST', '/api/customers', 201]]);
  });
});

describe('the platform admin acts inside a salon only by impersonating (docs/rules/auth.md#the-platform-admin)', () => {
  it("when the admin's own token names a salon (x-tenant-id or the salon's host) then creating a service, reading customers and payment configs are refused with 403 and nothing is written", async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const { config } = await stack();
    const name = unique('Admin-tjeneste');
    for (const named of [{ 'x-tenant-id': tenant.id }, { host: `${tenant.slug}.${config.platformDomain}` }]) {
      const created = await (
        await http()
      )
        .post('/api/services')
        .set('Authorization', `Bearer ${admin.token}`)
        .set(named)
        .send({ name, duration: 30, price: 50000 });
      expect([created.status, created.body.error?.code], JSON.stringify(named)).to.deep.equal([403, 'FORBIDDEN']);
      expect((await (await http()).get('/api/customers').set('Authorization', `Bearer ${admin.token}`).set(named)).status).to.equal(403);
      expect((await (await http()).get('/api/admin/payment-configs').set('Authorization', `Bearer ${admin.token}`).set(named)).status).to.equal(403);
    }
    expect(await (await knex())('services').where({ tenantId: tenant.id, name })).to.have.length(0);
    // impersonating, the same call is made as the salon's owner and audited
    const imp = await start(admin, tenant.id);
    expect((await call('post', '/services', imp.accessToken, { name, duration: 30, price: 50000 })).status).to.equal(201);
    expect(await (await knex())('impersonation_audit_logs').where({ sessionId: imp.session.id, path: '/api/services' })).to.have.length(1);
  });

  it('when the admin uses the routes given to it directly then they answer: salons by id, plans, billing configs, free access, impersonation sessions, platform settings', async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    expect((await call('get', '/tenants', admin.token)).status).to.equal(200);
    expect((await call('get', `/tenants/${tenant.id}`, admin.token)).status).to.equal(200);
    expect((await call('patch', `/tenants/${tenant.id}`, admin.token, { description: 'Checked by support' })).status).to.equal(200);
    expect((await call('get', '/admin/superadmin/plans', admin.token)).status).to.equal(200);
    expect((await call('get', '/superadmin/billing-configs', admin.token)).status).to.equal(200);
    expect((await call('patch', `/superadmin/tenants/${tenant.id}/billing-exempt`, admin.token, { billingExempt: false })).status).to.equal(200);
    expect((await call('get', '/superadmin/impersonate/sessions', admin.token)).status).to.equal(200);
    expect((await call('get', '/superadmin/platform-settings', admin.token)).status).to.equal(200);
    expect((await call('get', '/auth/me', admin.token)).status).to.equal(200);
  });
});

describe('super-admin impersonation: what the audit log counts', () => {
  it('when the admin starts with their own token then the session has no audit row; only calls made with the impersonation token count, and the end call (in any spelling of its path) does not', async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const imp = await start(admin, tenant.id);
    expect((imp as unknown as { session: { mutationCount: number } }).session.mutationCount).to.equal(0);
    const rows = () => knex().then((db) => db('impersonation_audit_logs').where({ sessionId: imp.session.id }));
    expect(await rows()).to.have.length(0);
    // the admin's own token, on a tenant route, is not the session's either (and is refused: docs/rules/auth.md#the-platform-admin)
    expect(
      (
        await (
          await http()
        )
          .post('/api/service-categories')
          .set('Authorization', `Bearer ${admin.token}`)
          .set('x-tenant-id', tenant.id)
          .send({ name: unique('Egen') })
      ).status,
    ).to.equal(403);
    expect((await rawJson('post', '/service-categories', imp.accessToken, JSON.stringify({ name: unique('Hår') }))).status).to.equal(201);
    for (const path of ['/api/superadmin/impersonate/End/', '/api/SUPERADMIN/impersonate/end']) {
      const end = await (await http()).post(path).set('Authorization', `Bearer ${imp.accessToken}`);
      expect(end.status, `${path}: ${JSON.stringify(end.body)}`).to.equal(200);
    }
    expect((await rows()).map((r: { method: string; path: string }) => `${r.method} ${r.path}`)).to.deep.equal(['POST /api/service-categories']);
    const listed = await call('get', `/superadmin/impersonate/sessions?tenantId=${tenant.id}`, admin.token);
    expect(listed.body.data.map((x: { id: string; mutationCount: number }) => [x.id, x.mutationCount])).to.deep.equal([[imp.session.id, 1]]);
  });
});

describe('super-admin impersonation: end', () => {
  it('when ended then admin tokens come back, the impersonation token stops working, and ending again is idempotent', async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const imp = await start(admin, tenant.id);
    const end = await call('post', '/superadmin/impersonate/end', imp.accessToken);
    expect(end.status).to.equal(200);
    const claims = claimsOf(end.body.data.accessToken);
    expect(claims).to.include({ sub: admin.id, role: 'ADMIN', tenantId: null });
    expect(claims.imp).to.equal(undefined);
    expect(end.body.data.user).to.include({ id: admin.id, role: 'ADMIN' });
    expect((await call('get', '/auth/me', end.body.data.accessToken)).body.data.impersonation).to.equal(null);
    const after = await call('get', '/tenants/me', imp.accessToken);
    expect(after.status).to.equal(401);
    expect(after.body.error.message).to.match(/impersonation session has ended/);
    const again = await call('post', '/superadmin/impersonate/end', imp.accessToken);
    expect(again.status).to.equal(200);
    expect(claimsOf(again.body.data.accessToken).role).to.equal('ADMIN');
    const row = await (await knex())('impersonation_sessions').where({ id: imp.session.id }).first();
    expect(row.endedAt).to.be.instanceOf(Date);
  });

  it('when the impersonation refresh token is used at POST /auth/refresh then it rotates within the session; after the end it is refused', async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const imp = await start(admin, tenant.id);
    const refreshed = await call('post', '/auth/refresh', undefined, { refreshToken: imp.refreshToken });
    expect(refreshed.status).to.equal(200);
    const claims = claimsOf(refreshed.body.data.accessToken);
    expect(claims).to.include({ sub: admin.id, role: 'OWNER', tenantId: tenant.id });
    expect(claims.imp.sessionId).to.equal(imp.session.id);
    expect((await call('post', '/auth/refresh', undefined, { refreshToken: imp.refreshToken })).status).to.equal(401);
    await call('post', '/superadmin/impersonate/end', refreshed.body.data.accessToken);
    const afterEnd = await call('post', '/auth/refresh', undefined, { refreshToken: refreshed.body.data.refreshToken });
    expect(afterEnd.status).to.equal(401);
    expect(afterEnd.body.error.message).to.match(/ended/);
  });

  it('when a rotated impersonation refresh token is presented again then the session ends: the newer refresh token and the access token are refused', async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const imp = await start(admin, tenant.id);
    const refreshed = await call('post', '/auth/refresh', undefined, { refreshToken: imp.refreshToken });
    expect(refreshed.status).to.equal(200);
    const replay = await call('post', '/auth/refresh', undefined, { refreshToken: imp.refreshToken });
    expect(replay.status).to.equal(401);
    expect(replay.body.error.message).to.match(/already used/);
    expect((await call('post', '/auth/refresh', undefined, { refreshToken: refreshed.body.data.refreshToken })).status).to.equal(401);
    expect((await call('get', '/tenants/me', refreshed.body.data.accessToken)).status).to.equal(401);
    const row = await (await knex())('impersonation_sessions').where({ id: imp.session.id }).first();
    expect(row.endedAt).to.not.equal(null);
  });

  it('when an impersonation session is refreshed 2 hours after it started then it still works, and a millisecond later it is over', async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const { app, at } = await appOnClock();
    const started = at.now();
    const imp = (
      await request(app)
        .post('/api/superadmin/impersonate/start')
        .set('Authorization', `Bearer ${admin.token}`)
        .send({ tenantId: tenant.id, reason: 'Support' })
    ).body.data;
    at.set(new Date(started.getTime() + 2 * 3600_000));
    const atLimit = await request(app).post('/api/auth/refresh').send({ refreshToken: imp.refreshToken });
    expect(atLimit.status).to.equal(200);
    expect((await request(app).get('/api/tenants/me').set('Authorization', `Bearer ${atLimit.body.data.accessToken}`)).status).to.equal(200);
    at.advance(1);
    expect((await request(app).get('/api/tenants/me').set('Authorization', `Bearer ${atLimit.body.data.accessToken}`)).status).to.equal(401);
    expect((await request(app).post('/api/auth/refresh').send({ refreshToken: atLimit.body.data.refreshToken })).status).to.equal(401);
  });

  it('when a token without the imp claim calls end then 403; without a token 401', async () => {
    const admin = await createAdmin();
    expect((await call('post', '/superadmin/impersonate/end', admin.token)).status).to.equal(403);
    expect((await call('post', '/superadmin/impersonate/end')).status).to.equal(401);
  });
});

describe('super-admin impersonation: sessions and logs', () => {
  it('when listed then each session has its mutation count, and tenantId and activeOnly filter', async () => {
    const admin = await createAdmin();
    const a = await createSalon();
    const b = await createSalon();
    const first = await start(admin, a.tenant.id);
    await call('post', '/customers', first.accessToken, { name: 'En', phone: '+4740000011' });
    await call('post', '/customers', first.accessToken, { name: 'To', phone: '+4740000012' });
    await call('post', '/superadmin/impersonate/end', first.accessToken);
    const second = await start(admin, a.tenant.id);
    await start(admin, b.tenant.id);

    const forA = await call('get', `/superadmin/impersonate/sessions?tenantId=${a.tenant.id}`, admin.token);
    expect(forA.status).to.equal(200);
    expect(forA.body.meta.total).to.equal(2);
    const byId = new Map(forA.body.data.map((s: { id: string; mutationCount: number }) => [s.id, s]));
    expect((byId.get(first.session.id) as { mutationCount: number }).mutationCount).to.equal(2);
    expect((byId.get(second.session.id) as { mutationCount: number }).mutationCount).to.equal(0);
    const active = await call('get', `/superadmin/impersonate/sessions?tenantId=${a.tenant.id}&activeOnly=true`, admin.token);
    expect(active.body.data.map((s: { id: string }) => s.id)).to.deep.equal([second.session.id]);
    const paged = await call('get', `/superadmin/impersonate/sessions?tenantId=${a.tenant.id}&limit=1&page=2`, admin.token);
    expect(paged.body.meta).to.deep.equal({ total: 2, page: 2, limit: 1, totalPages: 2 });
  });

  it('when an owner lists sessions then 403; logs of an unknown session are 404 IMPERSONATION_SESSION_NOT_FOUND', async () => {
    const { owner } = await createSalon();
    expect((await call('get', '/superadmin/impersonate/sessions', owner.token)).status).to.equal(403);
    const admin = await createAdmin();
    const res = await call('get', `/superadmin/impersonate/sessions/${crypto.randomUUID()}/logs`, admin.token);
    expect(res.status).to.equal(404);
    expect(res.body.error.code).to.equal('IMPERSONATION_SESSION_NOT_FOUND');
  });
});
