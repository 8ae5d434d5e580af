import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { call, http } from '../../support/http';
import type { Express } from 'express';
import { appOnClock, stack } from '../../support/stack';
import { eventually } from '../../support/eventually';
import { createApp } from '../../../api/app';
import { createAdmin, createSalon, createUser, unique } from '../../support/factories';
import { hashOpaqueToken } from '../../../domain/auth/tokens';
import { issueManageToken } from '../../../domain/booking/manage-link.service';
import { at, bookingSalon, localDay } from '../../support/booking-fixtures';

function registerBody(overrides: Record<string, unknown> = {}) {
  return { salonName: 'Studio Nord', slug: unique('studio'), email: `${unique('owner')}@example.test`, password: 'owner-password-1', ...overrides };
}

function cookiesOf(res: { headers: Record<string, unknown> }): string[] {
  return (res.headers['set-cookie'] as string[] | undefined) ?? [];
}

async function login(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  let req = (await http()).post('/api/auth/login');
  for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
  return req.send(body);
}

describe('Auth: POST /auth/register', () => {
  it('when a new owner registers then tenant and OWNER are created with complete industry-default settings, tokens and HttpOnly cookies', async () => {
    const body = registerBody({ industryType: 'barbershop', ownerName: 'Ola', phone: '+47 900 00 001' });
    const res = await call('post', '/auth/register', undefined, body);
    expect(res.status).to.equal(201);
    expect(res.body.success).to.equal(true);
    const { accessToken, refreshToken, expiresIn, user } = res.body.data;
    expect(user).to.include({ role: 'OWNER', email: body.email, name: 'Ola', phone: '+4790000001' });
    expect(expiresIn).to.equal((await stack()).config.accessTokenTtlSeconds);
    expect(refreshToken).to.be.a('string');
    const claims = jwt.decode(accessToken) as Record<string, unknown>;
    expect(claims).to.include({ sub: user.id, tenantId: user.tenantId, role: 'OWNER', tv: 0 });
    expect(claims).to.have.keys('sub', 'tenantId', 'role', 'tv', 'sid', 'iat', 'exp');
    const cookies = cookiesOf(res);
    expect(cookies.find((c) => c.startsWith('access_token=')))
      .to.match(/HttpOnly/)
      .and.match(/SameSite=Lax/);
    expect(cookies.find((c) => c.startsWith('refresh_token=')))
      .to.match(/HttpOnly/)
      .and.match(/SameSite=Lax/);

    const { knex } = (await stack()).platform;
    const tenant = await knex('tenants').where({ slug: body.slug }).first();
    expect(tenant.id).to.equal(user.tenantId);
    expect(tenant.industryType).to.equal('barbershop');
    expect(tenant.settings).to.include({ autoConfirm: true, cancellationHours: 2, currency: 'NOK', timezone: 'Europe/Oslo', maxBookingDaysInAdvance: 30 });
    expect(tenant.settings.businessHours).to.have.length(7);
    const stored = await knex('refresh_tokens').where({ userId: user.id });
    expect(stored).to.have.length(1);
    expect(stored[0].tokenHash).to.equal(hashOpaqueToken(refreshToken));
  });

  it('when a new owner registers then the answer carries the new salon as GET /tenants/me shows it, its trial started', async () => {
    const body = registerBody();
    const res = await call('post', '/auth/register', undefined, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const { tenant, user, accessToken } = res.body.data;
    expect(tenant).to.include({ id: user.tenantId, slug: body.slug, name: body.salonName });
    expect(tenant.trialEndsAt).to.be.a('string');
    const me = (await call('get', '/tenants/me', accessToken)).body.data;
    for (const field of ['id', 'slug', 'name', 'industryType', 'settings', 'trialEndsAt', 'createdAt']) expect(tenant[field], field).to.deep.equal(me[field]);
  });

  it('when beauty is registered with settings then given settings overlay the beauty defaults', async () => {
    const res = await call('post', '/auth/register', undefined, registerBody({ settings: { currency: 'EUR', cancellationHours: 48 } }));
    expect(res.status).to.equal(201);
    const tenant = await (await stack()).platform.knex('tenants').where({ id: res.body.data.user.tenantId }).first();
    expect(tenant.settings).to.include({ autoConfirm: false, cancellationHours: 48, currency: 'EUR' });
  });

  it('when the slug is taken then 409 TENANT_SLUG_EXISTS and no second owner is written', async () => {
    const { tenant } = await createSalon();
    const body = registerBody({ slug: tenant.slug });
    const res = await call('post', '/auth/register', undefined, body);
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('TENANT_SLUG_EXISTS');
    const users = await (await stack()).platform.knex('users').where({ email: body.email });
    expect(users).to.have.length(0);
  });

  it('when two registrations race for one slug then exactly one wins and the other gets 409 TENANT_SLUG_EXISTS', async () => {
    const slug = unique('race');
    const results = await Promise.all([1, 2, 3].map(() => call('post', '/auth/register', undefined, registerBody({ slug }))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).to.deep.equal([201, 409, 409]);
    results.filter((r) => r.status === 409).forEach((r) => expect(r.body.error.code).to.equal('TENANT_SLUG_EXISTS'));
    expect(await (await stack()).platform.knex('tenants').where({ slug })).to.have.length(1);
  });

  it('when seeding tenant defaults fails then nothing is written (one transaction)', async () => {
    // an invalid time zone passes the schema but fails settings validation inside the transaction
    const body = registerBody({ settings: { timezone: 'Mars/Olympus' } });
    const res = await call('post', '/auth/register', undefined, body);
    expect(res.status).to.equal(400);
    expect(res.body.error.details).to.deep.include({ field: 'settings.timezone', message: 'must be an IANA time zone name' });
    expect(await (await stack()).platform.knex('tenants').where({ slug: body.slug })).to.have.length(0);
  });

  for (const [name, body, field] of [
    ['a missing password', registerBody({ password: undefined }), 'password'],
    ['a short password (11 characters)', registerBody({ password: 'x'.repeat(11) }), 'password'],
    ['a password of 73 bytes (37 characters, 36 of them two-byte)', registerBody({ password: `${'æ'.repeat(36)}a` }), 'password'],
    ['an unknown field', registerBody({ isAdmin: true }), 'isAdmin'],
    ['a wrong type (object for a string)', registerBody({ salonName: { text: 'x' } }), 'salonName'],
    ['a wrong type (text for an integer)', registerBody({ settings: { cancellationHours: 'soon' } }), 'settings.cancellationHours'],
    ['a non kebab-case slug', registerBody({ slug: 'Bad Slug' }), 'slug'],
    ['an invalid e-mail', registerBody({ email: 'nope' }), 'email'],
    ['cancellationHours 169', registerBody({ settings: { cancellationHours: 169 } }), 'settings.cancellationHours'],
  ] as const) {
    it(`when the body has ${name} then 400 VALIDATION_ERROR naming ${field}`, async () => {
      const res = await call('post', '/auth/register', undefined, body);
      expect(res.status).to.equal(400);
      expect(res.body.success).to.equal(false);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).to.include(field);
    });
  }

  it('when the password has exactly 12 characters, or exactly 72 bytes, then it is accepted (docs/rules/security.md#passwords)', async () => {
    expect((await call('post', '/auth/register', undefined, registerBody({ password: 'x'.repeat(12) }))).status).to.equal(201);
    const body = registerBody({ password: 'æ'.repeat(36) });
    expect((await call('post', '/auth/register', undefined, body)).status).to.equal(201);
    expect((await login({ email: body.email, password: 'æ'.repeat(36) })).status).to.equal(200);
  });

  it('when a password is longer than bcrypt reads (72 bytes) then it is refused when set, so no other password sharing its first 72 bytes can sign in', async () => {
    // an 80-byte owner password and a 74-byte staff login: both refused, never cut short
    const owner = registerBody({ password: 'æ'.repeat(40) });
    const refused = await call('post', '/auth/register', undefined, owner);
    expect([refused.status, refused.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
    expect((await login({ email: owner.email, password: `${'æ'.repeat(36)}zzzz` })).status).to.equal(401);
    const { owner: salonOwner } = await createSalon();
    const staffEmail = `${unique('lang')}@example.test`;
    // 72 characters, 74 bytes: its first 72 bytes end in the middle of the last two letters
    const staff = await call('post', '/resources', salonOwner.token, {
      name: 'Lang',
      login: { email: staffEmail, password: `${'p'.repeat(70)}æø`, role: 'STAFF' },
    });
    expect(staff.status).to.equal(400);
    expect((await login({ email: staffEmail, password: `${'p'.repeat(70)}æå` })).status).to.equal(401);
  });
});

describe('Auth: POST /auth/login', () => {
  it('when an owner logs in by e-mail then tokens, cookies and lastLoginAt are returned', async () => {
    const { owner } = await createSalon();
    const res = await login({ email: owner.email, password: owner.password });
    expect(res.status).to.equal(200);
    expect(res.body.data.user).to.include({ id: owner.id, role: 'OWNER' });
    expect(res.body.data.user.lastLoginAt).to.be.a('string');
    expect(cookiesOf(res).some((c) => c.startsWith('access_token='))).to.equal(true);
    const me = await call('get', '/auth/me', res.body.data.accessToken);
    expect(me.status).to.equal(200);
  });

  it('when a staff member logs in by phone then it works', async () => {
    const { tenant } = await createSalon();
    const staff = await createUser(tenant.id, 'STAFF', { phone: '+4791234567' });
    const res = await login({ phone: '+4791234567', password: staff.password, tenantSlug: tenant.slug });
    expect(res.status).to.equal(200);
    expect(res.body.data.user).to.include({ id: staff.id, role: 'STAFF' });
  });

  it('when the password is wrong or the account unknown then 401 UNAUTHORIZED with the same message', async () => {
    const { owner } = await createSalon();
    const wrong = await login({ email: owner.email, password: 'wrong-password' });
    const unknown = await login({ email: `${unique('nobody')}@example.test`, password: 'whatever' });
    expect(wrong.status).to.equal(401);
    expect(unknown.status).to.equal(401);
    expect(wrong.body.error).to.deep.equal(unknown.body.error);
    expect(wrong.body.error.code).to.equal('UNAUTHORIZED');
  });

  describe('when one e-mail exists in two salons', () => {
    let email: string;
    let a: Awaited<ReturnType<typeof createSalon>>;
    let b: Awaited<ReturnType<typeof createSalon>>;
    before(async () => {
      email = `${unique('shared')}@example.test`;
      a = await createSalon();
      b = await createSalon();
      await createUser(a.tenant.id, 'STAFF', { email, password: 'same-pass' });
      await createUser(b.tenant.id, 'STAFF', { email, password: 'same-pass' });
    });

    it('then without a tenant it answers 409 LOGIN_TENANT_AMBIGUOUS listing both salons', async () => {
      const res = await login({ email, password: 'same-pass' });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('LOGIN_TENANT_AMBIGUOUS');
      const messages = res.body.error.details.map((d: { message: string }) => d.message).join(' ');
      expect(messages).to.contain(a.tenant.slug).and.contain(b.tenant.slug);
    });

    it('then tenantSlug in the body chooses the salon', async () => {
      const res = await login({ email, password: 'same-pass', tenantSlug: b.tenant.slug });
      expect(res.status).to.equal(200);
      expect(res.body.data.user.tenantId).to.equal(b.tenant.id);
    });

    it('then the x-tenant-id header chooses the salon', async () => {
      const res = await login({ email, password: 'same-pass' }, { 'x-tenant-id': a.tenant.id });
      expect(res.status).to.equal(200);
      expect(res.body.data.user.tenantId).to.equal(a.tenant.id);
    });

    it('then the salon subdomain chooses the salon', async () => {
      const res = await login({ email, password: 'same-pass' }, { Host: `${a.tenant.slug}.${(await stack()).config.platformDomain}` });
      expect(res.status).to.equal(200);
      expect(res.body.data.user.tenantId).to.equal(a.tenant.id);
    });

    it("then the salon's custom domain chooses the salon", async () => {
      const domain = `${a.tenant.slug}.example.test`;
      await (await stack()).platform.knex('tenants').where({ id: a.tenant.id }).update({ customDomain: domain });
      const res = await login({ email, password: 'same-pass' }, { Host: domain });
      expect(res.status).to.equal(200);
      expect(res.body.data.user.tenantId).to.equal(a.tenant.id);
    });

    it('then an unknown host resolves no salon and the choice stays ambiguous', async () => {
      const res = await login({ email, password: 'same-pass' }, { Host: 'unknown-salon.example.test' });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('LOGIN_TENANT_AMBIGUOUS');
    });

    it('then a wrong password gives 401, not the list of salons', async () => {
      const res = await login({ email, password: 'nope-nope' });
      expect(res.status).to.equal(401);
      expect(res.body.error.details).to.equal(undefined);
    });

    it('then an unknown tenantSlug gives 401', async () => {
      const res = await login({ email, password: 'same-pass', tenantSlug: unique('ghost') });
      expect(res.status).to.equal(401);
    });
  });

  it('when the platform admin logs in with ADMIN_EMAIL / ADMIN_PASSWORD of the config then an ADMIN token without tenant is issued', async () => {
    const { config } = await stack();
    const res = await login({ email: config.adminEmail, password: config.adminPassword });
    expect(res.status).to.equal(200);
    expect(res.body.data.user).to.include({ role: 'ADMIN', tenantId: null, email: config.adminEmail });
    const claims = jwt.decode(res.body.data.accessToken) as Record<string, unknown>;
    expect(claims).to.include({ role: 'ADMIN', tenantId: null });
    const list = await call('get', '/tenants', res.body.data.accessToken);
    expect(list.status).to.equal(200);
  });

  for (const [name, body] of [
    ['neither e-mail nor phone', { password: 'x' }],
    ['a missing password', { email: 'a@example.test' }],
    ['an unknown field', { email: 'a@example.test', password: 'x', remember: true }],
    ['a wrong type (object for a string)', { email: 'a@example.test', password: { p: 1 } }],
    ['a password over 72 chars', { email: 'a@example.test', password: 'x'.repeat(73) }],
  ] as const) {
    it(`when the body has ${name} then 400 VALIDATION_ERROR`, async () => {
      const res = await login(body as Record<string, unknown>);
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(res.body.error.details).to.be.an('array').that.is.not.empty;
    });
  }

  it('when the user is deactivated then login gives 401 and the old token stops working', async () => {
    const { tenant } = await createSalon();
    const staff = await createUser(tenant.id, 'STAFF');
    await (await stack()).platform.knex('users').where({ id: staff.id }).update({ isActive: false });
    expect((await login({ email: staff.email, password: staff.password })).status).to.equal(401);
    expect((await call('get', '/auth/me', staff.token)).status).to.equal(401);
  });
});

describe('Auth: POST /auth/refresh and /auth/logout', () => {
  async function session() {
    const { owner, tenant } = await createSalon();
    const res = await login({ email: owner.email, password: owner.password });
    return { owner, tenant, tokens: res.body.data as { accessToken: string; refreshToken: string } };
  }

  it('when a refresh token is presented in the body then a new pair is issued and the old one is marked rotated in the same family', async () => {
    const { owner, tokens } = await session();
    const res = await call('post', '/auth/refresh', undefined, { refreshToken: tokens.refreshToken });
    expect(res.status).to.equal(200);
    expect(res.body.data.refreshToken).to.not.equal(tokens.refreshToken);
    expect(res.body.data.user.id).to.equal(owner.id);
    expect((await call('get', '/auth/me', res.body.data.accessToken)).status).to.equal(200);
    const { knex } = (await stack()).platform;
    const old = await knex('refresh_tokens')
      .where({ tokenHash: hashOpaqueToken(tokens.refreshToken) })
      .first();
    const fresh = await knex('refresh_tokens')
      .where({ tokenHash: hashOpaqueToken(res.body.data.refreshToken) })
      .first();
    expect(old.rotatedAt).to.not.equal(null);
    expect(fresh.familyId).to.equal(old.familyId);
    expect(fresh.rotatedAt).to.equal(null);
  });

  it('when the refresh token comes from the cookie then it works too', async () => {
    const agent = request.agent((await stack()).app);
    const { owner } = await createSalon();
    const loginRes = await agent.post('/api/auth/login').send({ email: owner.email, password: owner.password });
    expect(loginRes.status).to.equal(200);
    const res = await agent.post('/api/auth/refresh');
    expect(res.status).to.equal(200);
    // the access cookie alone authenticates
    const me = await agent.get('/api/auth/me');
    expect(me.status).to.equal(200);
    expect(me.body.data.id).to.equal(owner.id);
  });

  it('when a rotated refresh token is reused then 401 and the whole family is revoked (the newer token dies too)', async () => {
    const { tokens } = await session();
    const first = await call('post', '/auth/refresh', undefined, { refreshToken: tokens.refreshToken });
    expect(first.status).to.equal(200);
    const replay = await call('post', '/auth/refresh', undefined, { refreshToken: tokens.refreshToken });
    expect(replay.status).to.equal(401);
    expect(replay.body.error.code).to.equal('UNAUTHORIZED');
    const newer = await call('post', '/auth/refresh', undefined, { refreshToken: first.body.data.refreshToken });
    expect(newer.status).to.equal(401);
    const { knex } = (await stack()).platform;
    const row = await knex('refresh_tokens')
      .where({ tokenHash: hashOpaqueToken(first.body.data.refreshToken) })
      .first();
    const family = await knex('refresh_tokens').where({ familyId: row.familyId });
    expect(family.every((r: { revokedAt: Date | null }) => r.revokedAt !== null)).to.equal(true);
  });

  it('when one refresh token is used twice at the same time then only one request gets a new pair', async () => {
    const { tokens } = await session();
    const results = await Promise.all([1, 2].map(() => call('post', '/auth/refresh', undefined, { refreshToken: tokens.refreshToken })));
    expect(results.map((r) => r.status).sort()).to.deep.equal([200, 401]);
  });

  it('when the refresh token is unknown, expired or missing then 401', async () => {
    const { tokens } = await session();
    await (
      await stack()
    ).platform
      .knex('refresh_tokens')
      .where({ tokenHash: hashOpaqueToken(tokens.refreshToken) })
      .update({ expiresAt: new Date(Date.now() - 1000) });
    expect((await call('post', '/auth/refresh', undefined, { refreshToken: tokens.refreshToken })).status).to.equal(401);
    expect((await call('post', '/auth/refresh', undefined, { refreshToken: 'garbage' })).status).to.equal(401);
    expect((await call('post', '/auth/refresh')).status).to.equal(401);
  });

  it('when the refresh body has an unknown field or wrong type then 400', async () => {
    expect((await call('post', '/auth/refresh', undefined, { refreshToken: 'x', extra: 1 })).body.error.code).to.equal('VALIDATION_ERROR');
    expect((await call('post', '/auth/refresh', undefined, { refreshToken: { t: 5 } })).status).to.equal(400);
  });

  it('when logging out then the refresh token is revoked, cookies cleared, and repeating it is still 200', async () => {
    const { tokens } = await session();
    const res = await call('post', '/auth/logout', undefined, { refreshToken: tokens.refreshToken });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, data: { message: 'Signed out' } });
    const cleared = cookiesOf(res);
    expect(cleared.find((c) => c.startsWith('access_token=;'))).to.match(/Expires=Thu, 01 Jan 1970/);
    expect(cleared.find((c) => c.startsWith('refresh_token=;'))).to.match(/Expires=Thu, 01 Jan 1970/);
    expect((await call('post', '/auth/refresh', undefined, { refreshToken: tokens.refreshToken })).status).to.equal(401);
    expect((await call('post', '/auth/logout', undefined, { refreshToken: tokens.refreshToken })).status).to.equal(200);
  });

  it('when a signed-out session refreshes then 401 says the session has ended (not that the token was replayed)', async () => {
    const { tokens } = await session();
    await call('post', '/auth/logout', undefined, { refreshToken: tokens.refreshToken });
    const res = await call('post', '/auth/refresh', undefined, { refreshToken: tokens.refreshToken });
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('UNAUTHORIZED');
    expect(res.body.error.message).to.match(/session has ended/);
    expect((await call('post', '/auth/logout')).status).to.equal(200);
    expect((await call('post', '/auth/logout', undefined, { refreshToken: 'unknown' })).status).to.equal(200);
  });
});

describe('Auth: sessions end (docs/rules/auth.md#sessions)', () => {
  it('when a user signs out then the access token of that session is refused at once (401), and their other session keeps working', async () => {
    const { owner } = await createSalon();
    const laptop = (await login({ email: owner.email, password: owner.password })).body.data;
    const phone = (await login({ email: owner.email, password: owner.password })).body.data;
    expect((await call('get', '/auth/me', laptop.accessToken)).status).to.equal(200);
    expect((await call('post', '/auth/logout', undefined, { refreshToken: laptop.refreshToken })).status).to.equal(200);
    const after = await call('get', '/auth/me', laptop.accessToken);
    expect(after.status).to.equal(401);
    expect(after.body.error.message).to.match(/session has ended/);
    expect((await call('get', '/auth/me', phone.accessToken)).status).to.equal(200);
  });

  it('when a client signs out with its access token alone (no refresh token) then that session ends too', async () => {
    const { owner } = await createSalon();
    const tokens = (await login({ email: owner.email, password: owner.password })).body.data;
    expect((await call('post', '/auth/logout', tokens.accessToken)).status).to.equal(200);
    expect((await call('get', '/auth/me', tokens.accessToken)).status).to.equal(401);
    expect((await call('post', '/auth/refresh', undefined, { refreshToken: tokens.refreshToken })).status).to.equal(401);
  });

  it('when a token is signed with JWT_SECRET itself (not the access-token key derived from it) then it is refused', async () => {
    const { owner } = await createSalon();
    const session = await (await stack()).platform.knex('auth_sessions').insert({ userId: owner.id }).returning('id');
    const raw = jwt.sign({ sub: owner.id, tenantId: owner.tenantId, role: 'OWNER', tv: 0, sid: session[0].id }, (await stack()).config.jwtSecret);
    expect((await call('get', '/auth/me', raw)).status).to.equal(401);
  });

  it('when a guest books then the manage token is keyed with a key of its own, not with JWT_SECRET (which signs nothing itself any more)', async () => {
    const { config } = await stack();
    const salon = await bookingSalon();
    const created = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(3), '10:00'),
      items: [{ serviceId: salon.serviceId }],
      customer: { name: 'Kari', phone: '+4741234599' },
    });
    expect(created.status).to.equal(201);
    const { id, manageToken } = created.body.data;
    expect(manageToken).to.not.equal(issueManageToken({ key: config.jwtSecret }, id).token);
    expect(manageToken).to.equal(issueManageToken({ key: config.keys.manageLink.key }, id).token);
    const keys = [
      config.keys.accessToken,
      config.keys.manageLink.key,
      config.keys.waitlistOffer.key,
      config.keys.waitlistEntry.key,
      config.keys.passwordReset,
      config.keys.phoneCode,
      config.keys.rebookingUnsubscribe,
    ];
    expect(new Set([...keys, config.jwtSecret]).size).to.equal(keys.length + 1);
  });

  it('when a session is refreshed 12 hours after sign-in then it still works, and a millisecond later the session is over: refresh and access token are refused', async () => {
    const { owner } = await createSalon();
    const { app, at } = await appOnClock();
    const signedIn = at.now();
    const first = (await request(app).post('/api/auth/login').send({ email: owner.email, password: owner.password })).body.data;
    at.set(new Date(signedIn.getTime() + 12 * 3600_000));
    const atLimit = await request(app).post('/api/auth/refresh').send({ refreshToken: first.refreshToken });
    expect(atLimit.status).to.equal(200);
    expect((await request(app).get('/api/auth/me').set('Authorization', `Bearer ${atLimit.body.data.accessToken}`)).status).to.equal(200);
    at.advance(1);
    expect((await request(app).get('/api/auth/me').set('Authorization', `Bearer ${atLimit.body.data.accessToken}`)).status).to.equal(401);
    expect((await request(app).post('/api/auth/refresh').send({ refreshToken: atLimit.body.data.refreshToken })).status).to.equal(401);
  });
});

describe('Auth: GET /auth/me and PATCH /auth/profile', () => {
  it('when each role asks for /auth/me then it sees itself, resourceId null (no resources yet) and no impersonation', async () => {
    const { tenant, owner } = await createSalon();
    const staff = await createUser(tenant.id, 'STAFF');
    const admin = await createAdmin();
    for (const user of [owner, staff, admin]) {
      const res = await call('get', '/auth/me', user.token);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ id: user.id, role: user.role, tenantId: user.tenantId, email: user.email, resourceId: null, impersonation: null });
      expect(res.body.data).to.not.have.any.keys('passwordHash', 'tokenVersion');
    }
  });

  it('when a browser sends only the session cookies then it is authenticated and can refresh, and after logout it is not', async () => {
    const { owner } = await createSalon();
    const signedIn = await login({ email: owner.email, password: owner.password });
    expect(signedIn.status).to.equal(200);
    const cookieHeader = cookiesOf(signedIn).map((c) => c.split(';')[0]);
    const agent = await http();

    const me = await agent.get('/api/auth/me').set('Cookie', cookieHeader);
    expect(me.status).to.equal(200);
    expect(me.body.data.id).to.equal(owner.id);

    const refreshed = await agent.post('/api/auth/refresh').set('Cookie', cookieHeader).send({});
    expect(refreshed.status).to.equal(200);
    const rotated = cookiesOf(refreshed).map((c) => c.split(';')[0]);
    expect(rotated.find((c) => c.startsWith('refresh_token='))).to.not.equal(cookieHeader.find((c) => c.startsWith('refresh_token=')));

    const loggedOut = await agent.post('/api/auth/logout').set('Cookie', rotated).send({});
    expect(loggedOut.status).to.equal(200);
    const cleared = cookiesOf(loggedOut).map((c) => c.split(';')[0]);
    const afterLogout = await agent.get('/api/auth/me').set('Cookie', cleared);
    expect(afterLogout.status).to.equal(401);
  });

  it('when an admin impersonates an owner then /auth/me shows the admin acting as OWNER of that tenant with the impersonation block', async () => {
    const { tenant } = await createSalon();
    const admin = await createAdmin();
    const started = await call('post', '/superadmin/impersonate/start', admin.token, { tenantId: tenant.id, reason: 'Support' });
    const imp = { sessionId: started.body.data.session.id, adminUserId: admin.id };
    const res = await call('get', '/auth/me', started.body.data.accessToken);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.include({ id: admin.id, role: 'OWNER', tenantId: tenant.id, impersonation: imp });
    // a forged imp claim naming no session is refused
    const forged = jwt.sign(
      { sub: admin.id, tenantId: tenant.id, role: 'OWNER', tv: 0, imp: { sessionId: 'imp-session-1', adminUserId: admin.id } },
      (await stack()).config.keys.accessToken,
    );
    expect((await call('get', '/auth/me', forged)).status).to.equal(401);
  });

  it('when there is no token, a bad token or an expired token then 401', async () => {
    expect((await call('get', '/auth/me')).status).to.equal(401);
    expect((await call('get', '/auth/me', 'not-a-jwt')).status).to.equal(401);
    const { owner } = await createSalon();
    const expired = jwt.sign(
      { sub: owner.id, tenantId: owner.tenantId, role: 'OWNER', tv: 0, exp: Math.floor(Date.now() / 1000) - 10 },
      (await stack()).config.keys.accessToken,
    );
    const res = await call('get', '/auth/me', expired);
    expect(res.status).to.equal(401);
    expect(res.body.error.message).to.equal('Token expired');
    const otherSecret = jwt.sign({ sub: owner.id, tenantId: owner.tenantId, role: 'OWNER', tv: 0 }, 'another-secret-another-secret');
    expect((await call('get', '/auth/me', otherSecret)).status).to.equal(401);
    const customer = jwt.sign({ sub: owner.id, type: 'customer', tv: 0 }, (await stack()).config.keys.accessToken);
    expect((await call('get', '/auth/me', customer)).status).to.equal(401);
  });

  it('when the profile e-mail and phone change with the current password then they are stored and login works with the new e-mail', async () => {
    const { owner } = await createSalon();
    const email = `${unique('new')}@example.test`;
    const res = await call('patch', '/auth/profile', owner.token, { email, phone: '+4799988877', currentPassword: owner.password });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ email, phone: '+4799988877' });
    expect((await login({ email, password: owner.password })).status).to.equal(200);
    const cleared = await call('patch', '/auth/profile', res.body.data.session.accessToken, { phone: null, currentPassword: owner.password });
    expect(cleared.body.data.phone).to.equal(null);
    // a body that changes nothing needs no password and keeps the session
    const same = await call('patch', '/auth/profile', cleared.body.data.session.accessToken, { email });
    expect([same.status, same.body.data.session]).to.deep.equal([200, null]);
  });

  it('when an access token alone tries to change the e-mail then it is refused (400 without the password, 422 with a wrong one) and nothing changes', async () => {
    const { owner } = await createSalon();
    const attacker = `${unique('attacker')}@example.test`;
    const bare = await call('patch', '/auth/profile', owner.token, { email: attacker });
    expect([bare.status, bare.body.error.code, bare.body.error.details[0].field]).to.deep.equal([400, 'VALIDATION_ERROR', 'currentPassword']);
    const wrong = await call('patch', '/auth/profile', owner.token, { email: attacker, currentPassword: 'not-the-password' });
    expect([wrong.status, wrong.body.error.code]).to.deep.equal([422, 'CURRENT_PASSWORD_INCORRECT']);
    const phone = await call('patch', '/auth/profile', owner.token, { phone: '+4791112222' });
    expect(phone.status).to.equal(400);
    const row = await (await stack()).platform.knex('users').where({ id: owner.id }).first();
    expect([row.email, row.phone]).to.deep.equal([owner.email, null]);
    expect(await (await stack()).platform.knex('account_messages').where({ userId: owner.id })).to.have.length(0);
  });

  it('when the e-mail changes then the old address is told by mail, every older token stops working, and the caller carries on with the new session', async () => {
    const { owner } = await createSalon();
    const { platform } = await stack();
    const other = (await login({ email: owner.email, password: owner.password })).body.data;
    const email = `${unique('moved')}@example.test`;
    const res = await call('patch', '/auth/profile', owner.token, { email, currentPassword: owner.password });
    expect(res.status).to.equal(200);
    const { session } = res.body.data;
    expect(session).to.include.keys('accessToken', 'refreshToken', 'expiresIn');
    expect(cookiesOf(res).some((c) => c.startsWith('access_token='))).to.equal(true);
    // the token that made the change, and another device's session, no longer work
    expect((await call('get', '/auth/me', owner.token)).status).to.equal(401);
    expect((await call('get', '/auth/me', other.accessToken)).status).to.equal(401);
    expect((await call('post', '/auth/refresh', undefined, { refreshToken: other.refreshToken })).status).to.equal(401);
    expect((await call('get', '/auth/me', session.accessToken)).body.data.email).to.equal(email);
    const notice = await eventually(
      async () => (await platform.mailer.sentTo(owner.email)).find((m) => m.meta?.kind === 'CONTACT_CHANGED'),
      'the notice to the old address',
    );
    expect(notice.text).to.match(/E-postadressen på kontoen din hos .* ble endret/);
    expect(notice.text).to.not.contain(email);
  });

  it('when the e-mail or phone belongs to another user of the same salon then 409, but another salon is fine', async () => {
    const { tenant, owner } = await createSalon();
    const other = await createUser(tenant.id, 'STAFF', { phone: '+4711122233' });
    const emailClash = await call('patch', '/auth/profile', owner.token, { email: other.email.toUpperCase(), currentPassword: owner.password });
    expect(emailClash.status).to.equal(409);
    expect(emailClash.body.error.code).to.equal('USER_EMAIL_EXISTS');
    const phoneClash = await call('patch', '/auth/profile', owner.token, { phone: '+4711122233', currentPassword: owner.password });
    expect(phoneClash.status).to.equal(409);
    expect(phoneClash.body.error.code).to.equal('USER_PHONE_EXISTS');
    const elsewhere = await createSalon();
    const ok = await call('patch', '/auth/profile', elsewhere.owner.token, {
      email: other.email,
      phone: '+4711122233',
      currentPassword: elsewhere.owner.password,
    });
    expect(ok.status).to.equal(200);
  });

  it('when the profile body is empty, has unknown fields (role) or wrong types then 400; no token is 401', async () => {
    const { owner } = await createSalon();
    expect((await call('patch', '/auth/profile', owner.token, {})).status).to.equal(400);
    const role = await call('patch', '/auth/profile', owner.token, { role: 'ADMIN' });
    expect(role.status).to.equal(400);
    expect(role.body.error.details[0].field).to.equal('role');
    expect((await call('patch', '/auth/profile', owner.token, { email: 12 })).status).to.equal(400);
    expect((await call('patch', '/auth/profile', undefined, { email: 'a@example.test' })).status).to.equal(401);
  });
});

describe('Auth: POST /auth/change-password', () => {
  it('when the current password is right then the old access token stops working, refresh tokens are revoked, and fresh tokens work', async () => {
    const { owner } = await createSalon();
    const session = (await login({ email: owner.email, password: owner.password })).body.data;
    const res = await call('post', '/auth/change-password', session.accessToken, { currentPassword: owner.password, newPassword: 'brand-new-pass' });
    expect(res.status).to.equal(200);
    expect((jwt.decode(res.body.data.accessToken) as { tv: number }).tv).to.equal(1);
    expect((await call('get', '/auth/me', session.accessToken)).status).to.equal(401);
    expect((await call('get', '/auth/me', owner.token)).status).to.equal(401);
    expect((await call('get', '/auth/me', res.body.data.accessToken)).status).to.equal(200);
    expect((await call('post', '/auth/refresh', undefined, { refreshToken: session.refreshToken })).status).to.equal(401);
    expect((await call('post', '/auth/refresh', undefined, { refreshToken: res.body.data.refreshToken })).status).to.equal(200);
    expect((await login({ email: owner.email, password: owner.password })).status).to.equal(401);
    expect((await login({ email: owner.email, password: 'brand-new-pass' })).status).to.equal(200);
  });

  it('when the current password is wrong then 422 CURRENT_PASSWORD_INCORRECT and nothing changes', async () => {
    const { owner } = await createSalon();
    const res = await call('post', '/auth/change-password', owner.token, { currentPassword: 'wrong', newPassword: 'brand-new-pass' });
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('CURRENT_PASSWORD_INCORRECT');
    expect((await call('get', '/auth/me', owner.token)).status).to.equal(200);
  });

  it('when the new password is too short, missing, has unknown fields, or there is no token then 400/401', async () => {
    const { owner } = await createSalon();
    expect((await call('post', '/auth/change-password', owner.token, { currentPassword: owner.password, newPassword: 'x'.repeat(11) })).status).to.equal(400);
    expect((await call('post', '/auth/change-password', owner.token, { currentPassword: owner.password })).status).to.equal(400);
    expect((await call('post', '/auth/change-password', owner.token, { currentPassword: owner.password, newPassword: '123456', x: 1 })).status).to.equal(400);
    expect((await call('post', '/auth/change-password', undefined, { currentPassword: 'a', newPassword: '123456' })).status).to.equal(401);
  });
});

describe('Auth: forgot and reset password', () => {
  /** The request, then its mails once its workflow has sent it (the barrier: the message's sent_at, also for an unknown e-mail). */
  async function requestReset(email: string, extra: Record<string, unknown> = {}, app?: Express) {
    const { platform } = await stack();
    const before = (await platform.mailer.sentTo(email)).length;
    const sent = () => platform.knex('account_messages').where({ kind: 'PASSWORD_RESET', email }).whereNotNull('sentAt').count({ n: '*' });
    const sentBefore = Number((await sent())[0].n);
    const res = await (app
      ? request(app)
          .post('/api/auth/forgot-password')
          .send({ email, ...extra })
      : call('post', '/auth/forgot-password', undefined, { email, ...extra }));
    if (res.status === 200) await eventually(async () => Number((await sent())[0].n) > sentBefore, `the reset request of ${email} sent by its workflow`);
    const mails = await platform.mailer.sentTo(email);
    return { res, newMails: mails.slice(before) };
  }

  it("when the api cannot send mail then forgot-password answers 200 at once, alike for a known and an unknown e-mail, and the known account's link comes from the worker", async () => {
    const { platform } = await stack();
    const { owner } = await createSalon();
    // an api whose own mail would fail: the request must not wait for (or depend on) any mail
    const app = createApp(
      {
        ...platform.deps,
        mailer: {
          send: async () => {
            throw new Error('smtp down');
          },
        },
      } as never,
      { validateResponses: true },
    );
    const known = await requestReset(owner.email, {}, app);
    const unknown = await requestReset(`${unique('ghost')}@example.test`, {}, app);
    expect([known.res.status, unknown.res.status]).to.deep.equal([200, 200]);
    expect(known.res.body).to.deep.equal(unknown.res.body);
    // each request wrote the same thing: one account message, whose workflow did the rest
    expect(await platform.knex('account_messages').where({ kind: 'PASSWORD_RESET', email: owner.email })).to.have.length(1);
    expect(known.newMails).to.have.length(1);
    expect(known.newMails[0].meta!.kind).to.equal('PASSWORD_RESET');
    expect(unknown.newMails).to.have.length(0);
  });

  it('when the account exists then 200 and a mail carries a single-use token stored hashed with the configured expiry', async () => {
    const { owner } = await createSalon();
    const { res, newMails } = await requestReset(owner.email);
    expect(res.status).to.equal(200);
    expect(newMails).to.have.length(1);
    const token = newMails[0].meta!.resetToken as string;
    expect(newMails[0].text).to.contain(encodeURIComponent(token));
    const { platform, config } = await stack();
    const row = await platform.knex('password_reset_tokens').where({ userId: owner.id }).first();
    expect(row.tokenHash).to.equal(hashOpaqueToken(token));
    const ttl = (new Date(row.expiresAt).getTime() - new Date(row.createdAt).getTime()) / 1000;
    expect(ttl).to.equal(config.passwordResetTtlSeconds);

    const reset = await call('post', '/auth/reset-password', undefined, { token, password: 'after-reset-1' });
    expect(reset.status).to.equal(200);
    expect((await login({ email: owner.email, password: 'after-reset-1' })).status).to.equal(200);
    expect((await call('get', '/auth/me', owner.token)).status).to.equal(401);

    const again = await call('post', '/auth/reset-password', undefined, { token, password: 'after-reset-2' });
    expect(again.status).to.equal(400);
    expect(again.body.error.code).to.equal('PASSWORD_RESET_TOKEN_INVALID');
  });

  it('when the account does not exist then the same 200 answer and no mail', async () => {
    const { owner } = await createSalon();
    const known = await requestReset(owner.email);
    const email = `${unique('ghost')}@example.test`;
    const { res, newMails } = await requestReset(email);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(known.res.body);
    expect(newMails).to.have.length(0);
  });

  it('when the reset token has expired then 400 PASSWORD_RESET_TOKEN_EXPIRED and the password is unchanged', async () => {
    const { owner } = await createSalon();
    const { newMails } = await requestReset(owner.email);
    const { platform } = await stack();
    await platform
      .knex('password_reset_tokens')
      .where({ userId: owner.id })
      .update({ expiresAt: new Date(Date.now() - 1000) });
    const res = await call('post', '/auth/reset-password', undefined, { token: newMails[0].meta!.resetToken, password: 'after-reset-1' });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('PASSWORD_RESET_TOKEN_EXPIRED');
    expect((await login({ email: owner.email, password: owner.password })).status).to.equal(200);
  });

  it('when a newer reset is requested then the earlier token no longer works', async () => {
    const { owner } = await createSalon();
    const first = (await requestReset(owner.email)).newMails[0].meta!.resetToken;
    const second = (await requestReset(owner.email)).newMails[0].meta!.resetToken;
    expect((await call('post', '/auth/reset-password', undefined, { token: first, password: 'after-reset-1' })).status).to.equal(400);
    expect((await call('post', '/auth/reset-password', undefined, { token: second, password: 'after-reset-1' })).status).to.equal(200);
  });

  it('when a reset succeeds then every refresh token of the user is revoked', async () => {
    const { owner } = await createSalon();
    const session = (await login({ email: owner.email, password: owner.password })).body.data;
    const token = (await requestReset(owner.email)).newMails[0].meta!.resetToken;
    await call('post', '/auth/reset-password', undefined, { token, password: 'after-reset-1' });
    expect((await call('post', '/auth/refresh', undefined, { refreshToken: session.refreshToken })).status).to.equal(401);
  });

  it('when the e-mail exists in two salons then tenantSlug limits the reset to that salon', async () => {
    const email = `${unique('both')}@example.test`;
    const a = await createSalon();
    const b = await createSalon();
    await createUser(a.tenant.id, 'STAFF', { email });
    const staffB = await createUser(b.tenant.id, 'STAFF', { email });
    const { newMails } = await requestReset(email, { tenantSlug: b.tenant.slug });
    expect(newMails).to.have.length(1);
    expect(newMails[0].meta!.userId).to.equal(staffB.id);
  });

  it('when bodies are bad then 400: forgot without e-mail, unknown field; reset with short password, unknown token', async () => {
    expect((await call('post', '/auth/forgot-password', undefined, {})).status).to.equal(400);
    expect((await call('post', '/auth/forgot-password', undefined, { email: 'a@example.test', x: 1 })).status).to.equal(400);
    expect((await call('post', '/auth/forgot-password', undefined, { email: 5 })).status).to.equal(400);
    expect((await call('post', '/auth/reset-password', undefined, { token: 'x', password: 'x'.repeat(11) })).status).to.equal(400);
    expect((await call('post', '/auth/reset-password', undefined, { password: 'after-reset-1' })).status).to.equal(400);
    const unknown = await call('post', '/auth/reset-password', undefined, { token: 'nope', password: 'after-reset-1' });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.code).to.equal('PASSWORD_RESET_TOKEN_INVALID');
  });
});
