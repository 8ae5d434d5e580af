// What a page of another origin can make a signed-in browser do (docs/rules/security.md#browsers):
// CORS gives cookies only to origins the platform trusts, and never to a salon origin over plain
// http in production; a state-changing request that carries the platform's cookies from a foreign
// page is refused by the Origin check, whatever its content type.
import crypto from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { appWith, stack } from '../../support/stack';
import { call, http } from '../../support/http';
import { createSalon, unique } from '../../support/factories';
import { at, bookingSalon, localDay } from '../../support/booking-fixtures';

/** A signed-in browser's cookies (as the login route set them). */
async function cookieSession(email: string, password: string): Promise<string[]> {
  const res = await (await http()).post('/api/auth/login').send({ email, password });
  expect(res.status).to.equal(200);
  return (res.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]);
}

describe('browser origins', function () {
  this.timeout(60_000);

  it('when a salon origin is plain http in production then CORS answers it without credentials; over https, and outside production, with them', async () => {
    const { tenant } = await createSalon();
    const production = await appWith({ NODE_ENV: 'production', PLATFORM_DOMAIN: 'salon.test' });
    const plain = await request(production).get('/api/health').set('Origin', `http://${tenant.slug}.salon.test`);
    expect(plain.headers['access-control-allow-origin']).to.equal(`http://${tenant.slug}.salon.test`);
    expect(plain.headers).to.not.have.property('access-control-allow-credentials');
    const secure = await request(production).get('/api/health').set('Origin', `https://${tenant.slug}.salon.test`);
    expect(secure.headers['access-control-allow-credentials']).to.equal('true');
    const development = await appWith({ NODE_ENV: 'development', PLATFORM_DOMAIN: 'salon.test' });
    expect(
      (await request(development).get('/api/health').set('Origin', `http://${tenant.slug}.salon.test`)).headers['access-control-allow-credentials'],
    ).to.equal('true');
  });

  it("when a foreign page posts with the user's cookies (a text/plain logout, a JSON write) then 403 and nothing happens; the platform's own pages and non-browser clients are let through", async () => {
    const { owner } = await createSalon();
    const cookies = await cookieSession(owner.email, owner.password);
    const agent = await http();
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1.evil.example']) {
      const logout = await agent.post('/api/auth/logout').set('Cookie', cookies).set('Origin', origin).set('content-type', 'text/plain').send('x');
      expect([logout.status, logout.body.error?.code], origin).to.deep.equal([403, 'FORBIDDEN']);
      const write = await agent
        .post('/api/service-categories')
        .set('Cookie', cookies)
        .set('Origin', origin)
        .send({ name: unique('csrf') });
      expect(write.status, origin).to.equal(403);
    }
    // a Referer names the page when Origin is missing
    expect((await agent.post('/api/auth/logout').set('Cookie', cookies).set('Referer', 'https://evil.example/page').send({})).status).to.equal(403);
    // the session is untouched
    expect((await agent.get('/api/auth/me').set('Cookie', cookies)).status).to.equal(200);
    // the same request from the api's own host, or without any Origin (curl, a server), goes through
    const { baseUrl } = await stack();
    const own = await agent
      .post('/api/service-categories')
      .set('Cookie', cookies)
      .set('Origin', baseUrl)
      .set('Host', new URL(baseUrl).host)
      .send({ name: unique('own') });
    expect(own.status).to.equal(201);
    expect(
      (
        await agent
          .post('/api/service-categories')
          .set('Cookie', cookies)
          .send({ name: unique('server') })
      ).status,
    ).to.equal(201);
  });

  it("when a foreign page posts the booking page's cancel form with the browser's proof cookie then 403 and the booking stays", async () => {
    const salon = await bookingSalon();
    const created = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(3), '10:00'),
      items: [{ serviceId: salon.serviceId }],
      customer: { name: 'Kari', phone: '+4741112233' },
    });
    const { id, manageToken } = created.body.data;
    const res = await (
      await http()
    )
      .post(`/${salon.tenant.slug}/bookings/${id}/cancel`)
      .set('Cookie', `salon_bp_${id}=${manageToken}`)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ token: manageToken });
    expect(res.status).to.equal(403);
    expect((await (await stack()).platform.knex('bookings').where({ id }).first()).status).to.not.equal('CANCELLED');
    // a null Origin (what a browser sends under no-referrer) is foreign unless the browser says the post is same-origin
    const agent = await http();
    const nullOrigin = () =>
      agent.post(`/${salon.tenant.slug}/bookings/${id}/cancel`).set('Cookie', `salon_bp_${id}=${manageToken}`).set('Origin', 'null').type('form');
    expect((await nullOrigin().send({ token: manageToken })).status).to.equal(403);
    expect((await nullOrigin().set('Sec-Fetch-Site', 'cross-site').send({ token: manageToken })).status).to.equal(403);
    expect((await nullOrigin().set('Sec-Fetch-Site', 'same-origin').send({ token: manageToken })).status).to.equal(303);
    expect((await (await stack()).platform.knex('bookings').where({ id }).first()).status).to.equal('CANCELLED');
  });

  it('when /reset-password or /customer-sign-in is served then its CSP runs only its own inline script (by hash), loads nothing from elsewhere and may not be framed', async () => {
    for (const path of ['/reset-password?token=abc', '/customer-sign-in']) {
      const res = await (await http()).get(path);
      expect(res.status, path).to.equal(200);
      const csp = String(res.headers['content-security-policy']);
      const script = /<script>([\s\S]*?)<\/script>/.exec(res.text)![1];
      const hash = crypto.createHash('sha256').update(script, 'utf8').digest('base64');
      expect(csp, path)
        .to.contain("default-src 'none'")
        .and.contain(`script-src 'sha256-${hash}'`)
        .and.contain("frame-ancestors 'none'")
        .and.contain("base-uri 'none'");
      expect(csp, path).to.not.contain('unsafe-inline');
      expect(res.headers['cache-control'], path).to.equal('no-store');
    }
  });
});
