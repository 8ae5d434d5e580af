import { expect } from 'chai';
import crypto from 'node:crypto';
import { appOnClock, stack } from '../../support/stack';
import { call, http } from '../../support/http';
import { createSalon, unique } from '../../support/factories';
import { idTokenFor, signInCustomer } from '../../support/customers';
import { knex } from '../../support/booking-fixtures';
import request from 'supertest';
import { createApp } from '../../../api/app';
import { loadConfig } from '../../../config';
import { freePort } from '../../../devstack/postgres';
import { JoseIdTokenVerifier } from '../../../integrations/oidc/id-token-verifier';
import type { IdTokenVerifier } from '../../../domain/customer-account/id-token-verifier';

const nonce = () => crypto.randomBytes(12).toString('base64url');

describe('customer sign-in with OpenID Connect (POST /auth/customer/oauth)', () => {
  it('when a new person signs in with a real ID token then the account is created (201) with type customer tokens and cookies', async () => {
    const email = `${unique('ny')}@example.test`;
    const { idToken, nonce: n } = await idTokenFor(email, 'Ola Nordmann');
    const res = await call('post', '/auth/customer/oauth', undefined, { idToken, nonce: n });
    expect(res.status).to.equal(201);
    expect(res.body.data.customer).to.include({ email, name: 'Ola Nordmann', emailVerified: true });
    const claims = JSON.parse(Buffer.from(res.body.data.accessToken.split('.')[1], 'base64url').toString());
    expect(claims).to.include({ type: 'customer', sub: res.body.data.customer.id });
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(cookies.some((c) => c.startsWith('customer_access_token=') && /HttpOnly/i.test(c) && /SameSite=Lax/i.test(c))).to.equal(true);
    expect(cookies.some((c) => c.startsWith('customer_refresh_token=') && /Path=\/api\/auth\/customer/.test(c))).to.equal(true);
    expect(cookies.some((c) => c.startsWith('access_token='))).to.equal(false);
    const identity = await (await knex())('customer_identities').where({ accountId: res.body.data.customer.id }).first();
    expect(identity.issuer).to.equal((await stack()).idp.issuer);
  });

  it('when the same person signs in again then it is the same account (200)', async () => {
    const first = await signInCustomer();
    const { idToken, nonce: n } = await idTokenFor(first.email);
    const res = await call('post', '/auth/customer/oauth', undefined, { idToken, nonce: n });
    expect(res.status).to.equal(200);
    expect(res.body.data.customer.id).to.equal(first.accountId);
  });

  it('when the same ID token and nonce are presented twice then the replay is refused with 401', async () => {
    const { idToken, nonce: n } = await idTokenFor(`${unique('replay')}@example.test`);
    expect((await call('post', '/auth/customer/oauth', undefined, { idToken, nonce: n })).status).to.equal(201);
    const replay = await call('post', '/auth/customer/oauth', undefined, { idToken, nonce: n });
    expect(replay.status).to.equal(401);
    expect(replay.body.error.code).to.equal('UNAUTHORIZED');
    expect(replay.body.error.message).to.match(/nonce has already been used/);
  });

  it('when the nonce sent differs from the one in the token then 401 and no account', async () => {
    const email = `${unique('nonce')}@example.test`;
    const { idToken } = await idTokenFor(email);
    const res = await call('post', '/auth/customer/oauth', undefined, { idToken, nonce: nonce() });
    expect(res.status).to.equal(401);
    expect(res.body.error.message).to.match(/nonce does not match/);
    expect(await (await knex())('customer_accounts').where({ email }).first()).to.equal(undefined);
  });

  describe('tampered ID tokens are refused with 401', () => {
    const cases: [string, (n: string) => Promise<string>, RegExp][] = [
      ['a wrong issuer', async (n) => (await stack()).idp.signIdToken({ sub: 'x1', nonce: n, iss: 'https://evil.example' }), /issuer/],
      ['a wrong audience', async (n) => (await stack()).idp.signIdToken({ sub: 'x2', nonce: n, aud: 'someone-else' }), /audience/],
      ['a foreign signature', async (n) => (await stack()).idp.signIdToken({ sub: 'x3', nonce: n }, { withForeignKey: true }), /signature/],
      [
        'an expired token',
        async (n) =>
          (await stack()).idp.signIdToken({ sub: 'x4', nonce: n, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }),
        /expired/,
      ],
      [
        'a payload edited after signing',
        async (n) => {
          const token = await (await stack()).idp.signIdToken({ sub: 'x5', nonce: n, email: 'a@example.test' });
          const [h, , s] = token.split('.');
          const payload = Buffer.from(
            JSON.stringify({ iss: (await stack()).idp.issuer, aud: 'salon-dev-client', sub: 'admin', nonce: n, iat: 1, exp: 4102444800 }),
          ).toString('base64url');
          return `${h}.${payload}.${s}`;
        },
        /signature/,
      ],
      ['not a JWT at all', async () => 'not-a-jwt', /not valid/],
    ];
    for (const [what, make, message] of cases) {
      it(`when the ID token has ${what} then 401 UNAUTHORIZED`, async () => {
        const n = nonce();
        const res = await call('post', '/auth/customer/oauth', undefined, { idToken: await make(n), nonce: n });
        expect(res.status).to.equal(401);
        expect(res.body.error.code).to.equal('UNAUTHORIZED');
        expect(res.body.error.message).to.match(message);
      });
    }

    it('when a token signed with the provider key has all claims right then it is accepted (the helper itself is sound)', async () => {
      const n = nonce();
      const token = await (await stack()).idp.signIdToken({ sub: unique('sub'), nonce: n, email: `${unique('h')}@example.test` });
      expect((await call('post', '/auth/customer/oauth', undefined, { idToken: token, nonce: n })).status).to.equal(201);
    });
  });

  it('when the body has unknown fields or misses the nonce then 400 VALIDATION_ERROR', async () => {
    expect((await call('post', '/auth/customer/oauth', undefined, { idToken: 'x' })).body.error.code).to.equal('VALIDATION_ERROR');
    expect((await call('post', '/auth/customer/oauth', undefined, { idToken: 'x', nonce: nonce(), extra: 1 })).status).to.equal(400);
  });
});

describe('customer sessions: refresh, logout, token version', () => {
  it('when a refresh token is rotated then the old one is single use and its reuse revokes the family', async () => {
    const c = await signInCustomer();
    const first = await call('post', '/auth/customer/refresh', undefined, { refreshToken: c.refreshToken });
    expect(first.status).to.equal(200);
    expect(first.body.data.customer.id).to.equal(c.accountId);
    const reuse = await call('post', '/auth/customer/refresh', undefined, { refreshToken: c.refreshToken });
    expect(reuse.status).to.equal(401);
    expect(reuse.body.error.message).to.match(/already used/);
    // the family is revoked: the newest token no longer works either
    expect((await call('post', '/auth/customer/refresh', undefined, { refreshToken: first.body.data.refreshToken })).status).to.equal(401);
  });

  it('when the refresh cookie is sent instead of a body then it rotates too', async () => {
    const c = await signInCustomer();
    const res = await (await http()).post('/api/auth/customer/refresh').set('Cookie', `customer_refresh_token=${c.refreshToken}`);
    expect(res.status).to.equal(200);
  });

  it('when the customer logs out then the refresh token stops working and the cookies are cleared; logout is idempotent', async () => {
    const c = await signInCustomer();
    const out = await call('post', '/auth/customer/logout', undefined, { refreshToken: c.refreshToken });
    expect(out.status).to.equal(200);
    expect(([] as string[]).concat(out.headers['set-cookie'] ?? []).some((x) => x.startsWith('customer_access_token=;'))).to.equal(true);
    expect((await call('post', '/auth/customer/refresh', undefined, { refreshToken: c.refreshToken })).status).to.equal(401);
    expect((await call('post', '/auth/customer/logout', undefined, { refreshToken: c.refreshToken })).status).to.equal(200);
  });

  it("when the account's token version is bumped then older customer access tokens get 401", async () => {
    const c = await signInCustomer();
    expect((await call('get', '/auth/customer/me', c.accessToken)).status).to.equal(200);
    await (await knex())('customer_accounts').where({ id: c.accountId }).increment('tokenVersion', 1);
    const res = await call('get', '/auth/customer/me', c.accessToken);
    expect(res.status).to.equal(401);
    expect(res.body.error.message).to.match(/revoked/);
  });

  it('when the access cookie is used instead of a bearer header then the customer is recognised', async () => {
    const c = await signInCustomer();
    const res = await (await http()).get('/api/auth/customer/me').set('Cookie', `customer_access_token=${c.accessToken}`);
    expect(res.status).to.equal(200);
    expect(res.body.data.id).to.equal(c.accountId);
  });
});

describe('customer sessions end (docs/rules/auth.md#sessions)', () => {
  it('when a customer signs out then the access token of that session is refused at once (401)', async () => {
    const c = await signInCustomer();
    expect((await call('get', '/auth/customer/me', c.accessToken)).status).to.equal(200);
    expect((await call('post', '/auth/customer/logout', undefined, { refreshToken: c.refreshToken })).status).to.equal(200);
    const after = await call('get', '/auth/customer/me', c.accessToken);
    expect(after.status).to.equal(401);
    expect(after.body.error.message).to.match(/session has ended/);
  });

  it('when a customer session is refreshed 30 days after sign-in then it still works, and a millisecond later it is over', async () => {
    const email = `${unique('kunde')}@example.test`;
    const { app, at } = await appOnClock();
    const signedIn = at.now();
    const { idToken, nonce } = await idTokenFor(email);
    const first = (await request(app).post('/api/auth/customer/oauth').send({ idToken, nonce })).body.data;
    at.set(new Date(signedIn.getTime() + 30 * 24 * 3600_000));
    const atLimit = await request(app).post('/api/auth/customer/refresh').send({ refreshToken: first.refreshToken });
    expect(atLimit.status).to.equal(200);
    expect((await request(app).get('/api/auth/customer/me').set('Authorization', `Bearer ${atLimit.body.data.accessToken}`)).status).to.equal(200);
    at.advance(1);
    expect((await request(app).get('/api/auth/customer/me').set('Authorization', `Bearer ${atLimit.body.data.accessToken}`)).status).to.equal(401);
    expect((await request(app).post('/api/auth/customer/refresh').send({ refreshToken: atLimit.body.data.refreshToken })).status).to.equal(401);
  });
});

describe('customer tokens and staff tokens do not cross', () => {
  it('when a customer token is used on admin routes then 401', async () => {
    const c = await signInCustomer();
    for (const path of ['/auth/me', '/tenants/me', '/bookings', '/customers']) {
      const res = await call('get', path, c.accessToken);
      expect(res.status, path).to.equal(401);
      expect(res.body.error.code).to.equal('UNAUTHORIZED');
    }
  });

  it('when a staff or owner token is used on customer routes then 401', async () => {
    const { owner } = await createSalon();
    for (const path of ['/auth/customer/me', '/customer/me', '/customer/me/bookings']) {
      const res = await call('get', path, owner.token);
      expect(res.status, path).to.equal(401);
      expect(res.body.error.message).to.match(/Staff tokens are not accepted/);
    }
    expect((await call('patch', '/customer/me/profile', owner.token, { name: 'x' })).status).to.equal(401);
  });

  it('when no token is sent to a customer route then 401 before the body is looked at', async () => {
    const res = await call('patch', '/customer/me/profile', undefined, { bogus: true });
    expect(res.status).to.equal(401);
  });
});

describe('customer sign-in configuration', () => {
  async function appWithVerifier(verifier: IdTokenVerifier | undefined) {
    const { platform } = await stack();
    return createApp({ ...platform.deps, idTokenVerifier: verifier }, { validateResponses: true });
  }

  it('when no identity provider is configured then sign-in answers 503 CUSTOMER_SIGN_IN_NOT_CONFIGURED', async () => {
    const res = await request(await appWithVerifier(undefined))
      .post('/api/auth/customer/oauth')
      .send({ idToken: 'x.y.z', nonce: nonce() });
    expect(res.status).to.equal(503);
    expect(res.body.error.code).to.equal('CUSTOMER_SIGN_IN_NOT_CONFIGURED');
  });

  it('when the provider cannot be reached then 503 IDENTITY_PROVIDER_UNAVAILABLE, not a 401 or a 500', async () => {
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const res = await request(await appWithVerifier(new JoseIdTokenVerifier({ issuer: unreachable, audiences: ['salon-dev-client'] })))
      .post('/api/auth/customer/oauth')
      .send({ idToken: 'x.y.z', nonce: nonce() });
    expect(res.status).to.equal(503);
    expect(res.body.error.code).to.equal('IDENTITY_PROVIDER_UNAVAILABLE');
  });

  it('when OIDC_JWKS_URI names the key set directly (no discovery) then real tokens verify', async () => {
    const { idp } = await stack();
    const verifier = new JoseIdTokenVerifier({ issuer: idp.issuer, audiences: ['another-app', idp.clientId], jwksUri: `${idp.issuer}/jwks` });
    const { idToken, nonce: n } = await idTokenFor(`${unique('jwks')}@example.test`);
    const res = await request(await appWithVerifier(verifier))
      .post('/api/auth/customer/oauth')
      .send({ idToken, nonce: n });
    expect(res.status).to.equal(201);
  });

  it('when OIDC_ISSUER is set without OIDC_CLIENT_ID then the configuration is refused; with both, the client ids are the audiences', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://accounts.google.com' })).to.throw(/OIDC_CLIENT_ID/);
    const config = loadConfig({ OIDC_ISSUER: 'https://appleid.apple.com', OIDC_CLIENT_ID: 'no.salon.web, no.salon.ios' });
    expect(config.oidc).to.deep.equal({ issuer: 'https://appleid.apple.com', audiences: ['no.salon.web', 'no.salon.ios'], jwksUri: undefined });
    expect(loadConfig({}).oidc).to.equal(undefined);
  });
});
