// The front desk's sign-in (docs/rules/front-desk.md#sessions): a session whose tokens live only in
// HttpOnly, SameSite=Lax cookies; no answer carries a token a script of the page could read; a page
// of another origin can neither sign a browser in nor act with its cookies.
import { expect } from 'chai';
import request from 'supertest';
import { stack } from '../../support/stack';
import { http } from '../../support/http';
import { bookingSalon, at, localDay } from '../../support/booking-fixtures';

/** The cookies an answer sets, by name, with their attributes. */
function setCookies(res: request.Response): Map<string, string> {
  const raw = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  return new Map(raw.map((c) => [c.split('=')[0], c]));
}

/** `name=value` pairs to send back, of the cookies an answer set (an emptied one is left out). */
function cookieHeader(res: request.Response): string {
  return [...setCookies(res).values()]
    .map((c) => c.split(';')[0])
    .filter((pair) => !pair.endsWith('='))
    .join('; ');
}

describe('the front desk: cookie sessions (HTTP)', function () {
  this.timeout(60_000);
  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it('when staff sign in with a cookie session then the answer carries no token, the cookies are HttpOnly and SameSite=Lax, and the cookies alone reach /auth/me', async () => {
    const s = await bookingSalon();
    const staff = s.staff[0].user;
    const res = await (await http()).post('/api/auth/cookie-session').send({ email: staff.email, password: staff.password, tenantSlug: s.tenant.slug });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(Object.keys(res.body.data).sort()).to.deep.equal(['expiresIn', 'refreshExpiresIn', 'user']);
    expect(JSON.stringify(res.body)).to.not.match(/eyJ/); // no JWT anywhere in the answer
    expect(res.body.data.user).to.include({ role: 'STAFF', tenantId: s.tenant.id });
    const cookies = setCookies(res);
    for (const name of ['access_token', 'refresh_token']) {
      expect(cookies.get(name), name).to.match(/HttpOnly/i);
      expect(cookies.get(name), name).to.match(/SameSite=Lax/i);
    }
    expect(cookies.get('refresh_token')).to.match(/Path=\/api\/auth/);
    const me = await (await http()).get('/api/auth/me').set('Cookie', cookieHeader(res));
    expect(me.status, JSON.stringify(me.body)).to.equal(200);
    expect(me.body.data).to.include({ id: staff.id, resourceId: s.staff[0].resourceId });
  });

  it('when the refresh cookie is rotated then new cookies come and no token, and the old refresh cookie presented again ends the session and clears the cookies', async () => {
    const s = await bookingSalon();
    const signIn = await (await http()).post('/api/auth/cookie-session').send({ email: s.owner.email, password: s.owner.password });
    expect(signIn.status).to.equal(200);
    const first = cookieHeader(signIn);
    const refreshed = await (await http()).post('/api/auth/cookie-session/refresh').set('Cookie', first);
    expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
    expect(JSON.stringify(refreshed.body)).to.not.match(/eyJ/);
    expect(refreshed.body.data.user).to.include({ id: s.owner.id, role: 'OWNER' });
    const second = cookieHeader(refreshed);
    expect(second).to.not.equal(first);

    const replay = await (await http()).post('/api/auth/cookie-session/refresh').set('Cookie', first);
    expect(replay.status).to.equal(401);
    expect(setCookies(replay).get('access_token')).to.match(/access_token=;/);
    // the replay ended the whole session: the rotated cookie is refused too
    expect((await (await http()).post('/api/auth/cookie-session/refresh').set('Cookie', second)).status).to.equal(401);
    expect((await (await http()).get('/api/auth/me').set('Cookie', second)).status).to.equal(401);
  });

  it('when the desk signs out with its cookies then the session ends at once: the access cookie and the refresh cookie are refused', async () => {
    const s = await bookingSalon();
    const signIn = await (await http()).post('/api/auth/cookie-session').send({ email: s.owner.email, password: s.owner.password });
    const cookies = cookieHeader(signIn);
    const out = await (await http()).post('/api/auth/logout').set('Cookie', cookies);
    expect(out.status).to.equal(200);
    expect((await (await http()).get('/api/auth/me').set('Cookie', cookies)).status).to.equal(401);
    expect((await (await http()).post('/api/auth/cookie-session/refresh').set('Cookie', cookies)).status).to.equal(401);
  });

  it("when a page of another origin posts the sign-in or the refresh then 403 and no cookie is set; the desk's own origin and a request of no browser are signed in", async () => {
    const s = await bookingSalon();
    const body = { email: s.owner.email, password: s.owner.password };
    const foreign = await (await http()).post('/api/auth/cookie-session').set('Origin', 'https://evil.example').send(body);
    expect(foreign.status).to.equal(403);
    expect(foreign.headers['set-cookie']).to.equal(undefined);
    const refererOnly = await (await http()).post('/api/auth/cookie-session').set('Referer', 'https://evil.example/page').send(body);
    expect(refererOnly.status).to.equal(403);
    const viaCase = await (await http()).post('/api/AUTH/Cookie-Session/').set('Origin', 'https://evil.example').send(body);
    expect(viaCase.status).to.equal(403);

    const own = await (await http()).post('/api/auth/cookie-session').set('Host', 'desk.test').set('Origin', 'http://desk.test').send(body);
    expect(own.status, JSON.stringify(own.body)).to.equal(200);
    const sameSite = await (
      await http()
    )
      .post('/api/auth/cookie-session')
      .set('Origin', 'https://evil.example')
      .set('Sec-Fetch-Site', 'same-origin')
      .send(body);
    expect(sameSite.status).to.equal(200);
    const noBrowser = await (await http()).post('/api/auth/cookie-session').send(body);
    expect(noBrowser.status).to.equal(200);

    const refresh = await (await http()).post('/api/auth/cookie-session/refresh').set('Cookie', cookieHeader(noBrowser)).set('Origin', 'https://evil.example');
    expect(refresh.status).to.equal(403);
  });

  it("when a page of another origin sends a booking change with the desk's cookies then 403 and the booking is unchanged (the Origin check, docs/rules/security.md#browsers)", async () => {
    const s = await bookingSalon();
    const signIn = await (await http()).post('/api/auth/cookie-session').send({ email: s.owner.email, password: s.owner.password });
    const cookies = cookieHeader(signIn);
    const created = await (
      await http()
    )
      .post('/api/bookings')
      .set('Cookie', cookies)
      .send({ startTime: at(localDay(2), '10:00'), items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }] });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const attack = await (
      await http()
    )
      .post(`/api/bookings/${created.body.data.id}/cancel`)
      .set('Cookie', cookies)
      .set('Origin', 'https://evil.example')
      .set('Content-Type', 'text/plain')
      .send('{}');
    expect(attack.status).to.equal(403);
    const after = await (await http()).get(`/api/bookings/${created.body.data.id}`).set('Cookie', cookies);
    expect(after.body.data.status).to.equal('CONFIRMED');
  });

  it('when the credentials are wrong, or missing, then 401 and 400, and no cookie is set', async () => {
    const s = await bookingSalon();
    const wrong = await (await http()).post('/api/auth/cookie-session').send({ email: s.owner.email, password: 'not-the-password' });
    expect(wrong.status).to.equal(401);
    expect(wrong.headers['set-cookie']).to.equal(undefined);
    const missing = await (await http()).post('/api/auth/cookie-session').send({ email: s.owner.email });
    expect(missing.status).to.equal(400);
    expect(missing.body.error.code).to.equal('VALIDATION_ERROR');
    const noCookie = await (await http()).post('/api/auth/cookie-session/refresh');
    expect(noCookie.status).to.equal(401);
  });
});
