// Tenant isolation and the 401/403 matrix (docs/rules/auth.md#access-matrix) for every route of the auth/tenants areas.
import { expect } from 'chai';
import { call, http } from '../../support/http';
import { stack } from '../../support/stack';
import { createAdmin, createSalon, createUser, unique, type TestSalon, type TestUser } from '../../support/factories';

describe('Isolation: a user of salon A never sees or changes salon B', () => {
  let a: TestSalon;
  let b: TestSalon;
  let staffA: TestUser;

  before(async () => {
    a = await createSalon();
    b = await createSalon();
    staffA = await createUser(a.tenant.id, 'STAFF');
  });

  it('when A reads B by id then 404 TENANT_NOT_FOUND (owner and staff), not the data', async () => {
    for (const user of [a.owner, staffA]) {
      const res = await call('get', `/tenants/${b.tenant.id}`, user.token);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ success: false, error: { code: 'TENANT_NOT_FOUND', message: 'Tenant not found' } });
    }
  });

  it('when the owner of A patches B (even with a slug) then 404 and B is unchanged', async () => {
    for (const body of [{ name: 'Hijacked' }, { settings: { cancellationHours: 0 } }, { slug: unique('stolen') }, { applyToStaff: true }]) {
      const res = await call('patch', `/tenants/${b.tenant.id}`, a.owner.token, body);
      expect(res.status, JSON.stringify(body)).to.equal(404);
      expect(res.body.error.code).to.equal('TENANT_NOT_FOUND');
    }
    const stored = await (await stack()).platform.knex('tenants').where({ id: b.tenant.id }).first();
    expect(stored.name).to.equal(b.tenant.name);
    expect(stored.slug).to.equal(b.tenant.slug);
    expect(stored.settings.cancellationHours).to.equal(b.tenant.settings.cancellationHours);
  });

  it('when A sends x-tenant-id of B then the JWT tenant wins for /tenants/me and onboarding', async () => {
    const agent = await http();
    const me = await agent.get('/api/tenants/me').set('Authorization', `Bearer ${a.owner.token}`).set('x-tenant-id', b.tenant.id);
    expect(me.status).to.equal(200);
    expect(me.body.data.id).to.equal(a.tenant.id);
    const step = await (
      await http()
    )
      .patch('/api/tenants/me/onboarding/step')
      .set('Authorization', `Bearer ${a.owner.token}`)
      .set('x-tenant-id', b.tenant.id)
      .send({ step: 'staff' });
    expect(step.status).to.equal(200);
    const complete = await (
      await http()
    )
      .post('/api/tenants/me/onboarding/complete')
      .set('Authorization', `Bearer ${a.owner.token}`)
      .set('x-tenant-id', b.tenant.id);
    expect(complete.status).to.equal(200);
    const storedB = await (await stack()).platform.knex('tenants').where({ id: b.tenant.id }).first();
    expect(storedB.onboardedAt).to.equal(null);
    expect(storedB.onboarding.currentStep).to.equal(0);
  });

  it("when A's credentials are used with B's slug or B's x-tenant-id then login fails with 401", async () => {
    expect((await call('post', '/auth/login', undefined, { email: a.owner.email, password: a.owner.password, tenantSlug: b.tenant.slug })).status).to.equal(
      401,
    );
    const res = await (await http()).post('/api/auth/login').set('x-tenant-id', b.tenant.id).send({ email: a.owner.email, password: a.owner.password });
    expect(res.status).to.equal(401);
  });

  it("when a reset is asked for A's e-mail in salon B then no mail is sent", async () => {
    const { platform } = await stack();
    const before = (await platform.mailer.sentTo(a.owner.email)).length;
    const res = await call('post', '/auth/forgot-password', undefined, { email: a.owner.email, tenantSlug: b.tenant.slug });
    expect(res.status).to.equal(200);
    expect(await platform.mailer.sentTo(a.owner.email)).to.have.length(before);
  });

  it("when A's profile takes an e-mail used in B then it is allowed (uniqueness is per salon) and B's user is untouched", async () => {
    const bStaff = await createUser(b.tenant.id, 'STAFF');
    const res = await call('patch', '/auth/profile', staffA.token, { email: bStaff.email, currentPassword: staffA.password });
    expect(res.status).to.equal(200);
    const me = await call('get', '/auth/me', bStaff.token);
    expect(me.body.data.id).to.equal(bStaff.id);
  });

  it("when A refreshes then the new session is A's, and /auth/me never shows B", async () => {
    const login = await call('post', '/auth/login', undefined, { email: a.owner.email, password: a.owner.password, tenantSlug: a.tenant.slug });
    const refreshed = await call('post', '/auth/refresh', undefined, { refreshToken: login.body.data.refreshToken });
    expect(refreshed.body.data.user.tenantId).to.equal(a.tenant.id);
    const me = await (await http()).get('/api/auth/me').set('Authorization', `Bearer ${refreshed.body.data.accessToken}`).set('x-tenant-id', b.tenant.id);
    expect(me.body.data.tenantId).to.equal(a.tenant.id);
  });
});

describe('Access matrix: each role on every auth/tenant route', () => {
  let salon: TestSalon;
  let staff: TestUser;
  let admin: TestUser;
  before(async () => {
    salon = await createSalon();
    staff = await createUser(salon.tenant.id, 'STAFF');
    admin = await createAdmin();
  });

  type Who = 'none' | 'STAFF' | 'OWNER' | 'ADMIN';
  const tokenOf = (who: Who) => (who === 'none' ? undefined : who === 'STAFF' ? staff.token : who === 'OWNER' ? salon.owner.token : admin.token);

  const passwordOf = (who: Who) =>
    who === 'STAFF' ? staff.password : who === 'OWNER' ? salon.owner.password : who === 'ADMIN' ? admin.password : 'no-password';
  const routes: { name: string; method: 'get' | 'post' | 'patch'; path: () => string; body?: (who: Who) => unknown; expect: Record<Who, number> }[] = [
    { name: 'GET /tenants', method: 'get', path: () => '/tenants', expect: { none: 401, STAFF: 403, OWNER: 403, ADMIN: 200 } },
    {
      name: 'POST /tenants',
      method: 'post',
      path: () => '/tenants',
      body: () => ({ name: 'M', slug: unique('m'), owner: { email: `${unique('m')}@example.test`, password: 'matrix-owner-pass' } }),
      expect: { none: 401, STAFF: 403, OWNER: 403, ADMIN: 201 },
    },
    { name: 'GET /tenants/:id', method: 'get', path: () => `/tenants/${salon.tenant.id}`, expect: { none: 401, STAFF: 200, OWNER: 200, ADMIN: 200 } },
    { name: 'GET /tenants/me', method: 'get', path: () => '/tenants/me', expect: { none: 401, STAFF: 200, OWNER: 200, ADMIN: 403 } },
    {
      name: 'PATCH /tenants/:id',
      method: 'patch',
      path: () => `/tenants/${salon.tenant.id}`,
      body: () => ({ name: 'Matrix' }),
      expect: { none: 401, STAFF: 403, OWNER: 200, ADMIN: 200 },
    },
    {
      name: 'GET /tenants/slug/:slug',
      method: 'get',
      path: () => `/tenants/slug/${salon.tenant.slug}`,
      expect: { none: 200, STAFF: 200, OWNER: 200, ADMIN: 200 },
    },
    { name: 'GET /tenants/me/onboarding', method: 'get', path: () => '/tenants/me/onboarding', expect: { none: 401, STAFF: 403, OWNER: 200, ADMIN: 403 } },
    {
      name: 'PATCH /tenants/me/onboarding/step',
      method: 'patch',
      path: () => '/tenants/me/onboarding/step',
      body: () => ({ step: 'welcome' }),
      expect: { none: 401, STAFF: 403, OWNER: 200, ADMIN: 403 },
    },
    {
      name: 'POST /tenants/me/onboarding/complete',
      method: 'post',
      path: () => '/tenants/me/onboarding/complete',
      expect: { none: 401, STAFF: 403, OWNER: 200, ADMIN: 403 },
    },
    { name: 'GET /auth/me', method: 'get', path: () => '/auth/me', expect: { none: 401, STAFF: 200, OWNER: 200, ADMIN: 200 } },
    {
      name: 'PATCH /auth/profile',
      method: 'patch',
      path: () => '/auth/profile',
      body: (who) => ({ phone: `+47${Math.floor(10000000 + Math.random() * 89999999)}`, currentPassword: passwordOf(who) }),
      expect: { none: 401, STAFF: 200, OWNER: 200, ADMIN: 200 },
    },
    { name: 'POST /auth/logout', method: 'post', path: () => '/auth/logout', expect: { none: 200, STAFF: 200, OWNER: 200, ADMIN: 200 } },
    {
      name: 'POST /auth/forgot-password',
      method: 'post',
      path: () => '/auth/forgot-password',
      body: () => ({ email: `${unique('n')}@example.test` }),
      expect: { none: 200, STAFF: 200, OWNER: 200, ADMIN: 200 },
    },
  ];

  for (const route of routes) {
    for (const who of ['none', 'STAFF', 'OWNER', 'ADMIN'] as Who[]) {
      it(`${route.name} as ${who} -> ${route.expect[who]}`, async () => {
        const res = await call(route.method, route.path(), tokenOf(who), route.body?.(who));
        expect(res.status).to.equal(route.expect[who]);
        expect(res.body.success).to.equal(res.status < 400);
        if (res.status === 401) expect(res.body.error.code).to.equal('UNAUTHORIZED');
        if (res.status === 403) expect(res.body.error.code).to.equal('FORBIDDEN');
      });
    }
  }

  it('when a change-password request has no token then 401 (authenticated route)', async () => {
    expect((await call('post', '/auth/change-password', undefined, { currentPassword: 'x', newPassword: '123456' })).status).to.equal(401);
  });
});
