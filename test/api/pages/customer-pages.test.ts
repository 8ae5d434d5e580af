// Where and how the api serves the customer pages (outside /api), checked over HTTP: the salon's
// page on the platform host, its subdomain and its custom domain; a salon not taking bookings; the
// built assets (hashed, immutable, compressed); the server-rendered form posts; calendar files.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { http, call } from '../../support/http';
import request from 'supertest';
import { appOnClock, stack } from '../../support/stack';
import { unique } from '../../support/factories';
import { at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import { platformAdmin } from '../../support/billing';

const phone = () => `+47${Math.floor(40000000 + Math.random() * 9999999)}`;

/** The body as bytes (superagent has already undone the gzip or brotli encoding the headers name). */
const binary = (res: import('supertest').Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('customer pages served by the api (outside /api)', function () {
  this.timeout(60_000);

  it('when the salon page is asked for on the platform host, the salon subdomain or its custom domain then each answers the same server-rendered page', async () => {
    const salon = await bookingSalon();
    const { config } = await stack();
    const domain = `${unique('book')}.example.no`;
    await (await knex())('tenants').where({ id: salon.tenant.id }).update({ customDomain: domain });
    const byPath = await (await http()).get(`/${salon.tenant.slug}`);
    const bySubdomain = await (await http()).get('/').set('Host', `${salon.tenant.slug}.${config.platformDomain}`);
    const byDomain = await (await http()).get('/').set('Host', domain);
    for (const res of [byPath, bySubdomain, byDomain]) {
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(res.text).to.contain(`<h1>${salon.tenant.name}</h1>`);
      expect(res.text).to.contain('Velg tjenester');
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.headers['content-security-policy']).to.contain("script-src 'self'");
    }
    // the form on the salon's own host goes to its own root
    expect(bySubdomain.text).to.contain('action="/"');
    expect(byPath.text).to.contain(`action="/${salon.tenant.slug}"`);
  });

  it('when the salon is not taking bookings (deactivated, or its trial ended unpaid) then its page says so (200, a page, not an error envelope); an unknown salon is a 404 page', async () => {
    const salon = await bookingSalon();
    await (await knex())('tenants').where({ id: salon.tenant.id }).update({ isActive: false });
    const closed = await (await http()).get(`/${salon.tenant.slug}`);
    expect(closed.status).to.equal(200);
    expect(closed.headers['content-type']).to.contain('text/html');
    expect(closed.text).to.contain(`${salon.tenant.name} tar ikke imot bestillinger på nett akkurat nå.`);
    expect(closed.text).to.not.contain('Velg tjenester');
    // a lapsed subscription (trial over, nothing paid) closes the page the same way
    const lapsed = await bookingSalon();
    await (
      await knex()
    )('tenants')
      .where({ id: lapsed.tenant.id })
      .update({ subscriptionStatus: 'ACTIVE', trialEndsAt: new Date(Date.now() - 60_000), billingExempt: false });
    const lapsedPage = await (await http()).get(`/${lapsed.tenant.slug}`);
    expect(lapsedPage.status).to.equal(200);
    expect(lapsedPage.text).to.contain(`${lapsed.tenant.name} tar ikke imot bestillinger på nett akkurat nå.`);
    expect(lapsedPage.text).to.not.contain('Velg tjenester');
    const unknown = await (await http()).get(`/${unique('no-such-salon')}`);
    expect(unknown.status).to.equal(404);
    expect(unknown.text).to.contain('Fant ikke siden');
  });

  it('when the platform routes share the first path segment then they keep working: /api, and / on the platform host', async () => {
    const api = await (await http()).get('/api');
    expect(api.status).to.equal(200);
    expect(api.body.success).to.equal(true);
    const root = await (await http()).get('/');
    expect(root.status).to.equal(404);
    expect(root.body.error.code).to.equal('ROUTE_NOT_FOUND');
  });

  it('when a path is not valid percent-encoding then a page path is a 400 page and an API path the 400 envelope, never a 500', async () => {
    const page = await (await http()).get('/%ED%A0%80');
    expect(page.status).to.equal(400);
    expect(page.type).to.equal('text/html');
    const manage = await (await http()).get('/salong/bookings/%ED%A0%80');
    expect(manage.status).to.equal(400);
    // with a token that may call the route the path's decoding answers; without one the token is checked first
    const salon = await bookingSalon();
    const api = await (await http()).patch('/api/bookings/%ED%A0%80').set('Authorization', `Bearer ${salon.owner.token}`).send({});
    expect(api.status).to.equal(400);
    expect(api.body).to.deep.equal({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: 'Request validation failed', details: [{ field: 'path', message: 'has a malformed percent-encoding' }] },
    });
    const anonymous = await (await http()).patch('/api/bookings/%ED%A0%80').send({});
    expect([anonymous.status, anonymous.body.error.code]).to.deep.equal([401, 'UNAUTHORIZED']);
  });

  it('when the page and its assets are fetched then the HTML is compressed and never cached, and the hashed assets are immutable for a year in brotli or gzip', async () => {
    const salon = await bookingSalon();
    const page = await (await http()).get(`/${salon.tenant.slug}`).set('Accept-Encoding', 'gzip').buffer(true).parse(binary);
    expect(page.headers['content-encoding']).to.equal('gzip');
    const html = (page.body as Buffer).toString('utf8');
    const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    // the stylesheet is inlined (the first view paints from the HTML alone)
    expect(html).to.match(/<style nonce="[^"]+">\s*:root\{--brand:/);
    expect(assets.some((a) => /\/assets\/booking-[\w-]{8}\.js$/.test(a))).to.equal(true);
    for (const asset of assets) {
      const br = await (await http()).get(asset).set('Accept-Encoding', 'gzip, deflate, br').buffer(true).parse(binary);
      expect(br.status, asset).to.equal(200);
      expect(br.headers['content-encoding']).to.equal('br');
      expect(br.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      expect(br.headers.vary).to.contain('Accept-Encoding');
      const plain = await (await http()).get(asset).set('Accept-Encoding', 'identity').buffer(true).parse(binary);
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect((br.body as Buffer).equals(plain.body as Buffer)).to.equal(true);
      expect(Number(br.headers['content-length']), 'brotli bytes on the wire').to.be.lessThan(Number(plain.headers['content-length']));
    }
    expect((await (await http()).get('/assets/nothing-here.js')).status).to.equal(404);
  });

  it('when a browser loads the v2 page then the JavaScript it fetches (the entry, what it preloads and everything those import) is at most 50 kB compressed, in brotli and in gzip', async () => {
    const salon = await bookingSalon();
    const html = (await (await http()).get(`/${salon.tenant.slug}`)).text;
    const queue = [...html.matchAll(/<(?:script type="module" src|link rel="modulepreload" href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(queue.length, 'the page links its bundle').to.be.greaterThan(0);
    const seen = new Set<string>();
    const bytes = { br: 0, gzip: 0 };
    while (queue.length) {
      const asset = queue.shift()!;
      if (seen.has(asset)) continue;
      seen.add(asset);
      for (const encoding of ['br', 'gzip'] as const) {
        const res = await (await http()).get(asset).set('Accept-Encoding', encoding).buffer(true).parse(binary);
        expect(res.headers['content-encoding'], asset).to.equal(encoding);
        bytes[encoding] += Number(res.headers['content-length']);
      }
      // static and dynamic imports of other chunks count too: the budget is what the page can pull in
      const code = ((await (await http()).get(asset).set('Accept-Encoding', 'identity').buffer(true).parse(binary)).body as Buffer).toString('utf8');
      for (const m of code.matchAll(/(?:from|import)\s*\(?\s*["'](\.\/[^"']+\.js|\/assets\/[^"']+\.js)["']/g))
        queue.push(new URL(m[1], `http://x${asset}`).pathname);
    }
    expect(bytes.br, `brotli bytes of ${[...seen].join(', ')}`).to.be.at.most(50_000);
    expect(bytes.gzip, `gzip bytes of ${[...seen].join(', ')}`).to.be.at.most(50_000);
  });

  it('when bookingUiVersion is v1 then the page carries no script; v2 carries the bundle and the boot data of the first view', async () => {
    const salon = await bookingSalon();
    const admin = (await platformAdmin()).token;
    try {
      await call('patch', '/superadmin/platform-settings', admin, { bookingUiVersion: 'v1' });
      const v1 = await (await http()).get(`/${salon.tenant.slug}`);
      expect(v1.text).to.not.contain('<script');
      await call('patch', '/superadmin/platform-settings', admin, { bookingUiVersion: 'v2' });
      const v2 = await (await http()).get(`/${salon.tenant.slug}`);
      expect(v2.text).to.match(/<script type="module" src="\/assets\/booking-[\w-]+\.js"><\/script>/);
      const boot = JSON.parse(/<script type="application\/json" id="boot">(.*?)<\/script>/s.exec(v2.text)![1]);
      expect(boot).to.include({ slug: salon.tenant.slug, lang: 'nb', pagePath: `/${salon.tenant.slug}` });
      expect(boot.services[0].services[0].id).to.equal(salon.serviceId);
    } finally {
      await call('patch', '/superadmin/platform-settings', admin, { bookingUiVersion: 'v2' });
    }
  });

  it("when the page is opened with services and a staff member in the address (a rebooking nudge's link) then v1 and v2 open at the time step with them chosen; a staff member who does not do the service is dropped", async () => {
    const salon = await bookingSalon();
    const admin = (await platformAdmin()).token;
    const staff = salon.staff[0].resourceId;
    const link = `/${salon.tenant.slug}?services=${salon.serviceId}&staff=${staff}`;
    try {
      await call('patch', '/superadmin/platform-settings', admin, { bookingUiVersion: 'v1' });
      const v1 = await (await http()).get(link);
      expect(v1.status).to.equal(200);
      expect(v1.text).to.contain('Velg dag og tid').and.not.contain('<script');
      expect(v1.text).to.contain(`staff=${staff}`);
      await call('patch', '/superadmin/platform-settings', admin, { bookingUiVersion: 'v2' });
      const v2 = await (await http()).get(link);
      expect(v2.text).to.contain('Velg dag og tid');
      expect(v2.text).to.match(/<script type="module" src="\/assets\/booking-[\w-]+\.js"><\/script>/);
      const boot = JSON.parse(/<script type="application\/json" id="boot">(.*?)<\/script>/s.exec(v2.text)![1]);
      expect(boot).to.deep.include({ chosenServices: [salon.serviceId], chosenStaff: staff });
      const stranger = await (await http()).get(`/${salon.tenant.slug}?services=${salon.serviceId}&staff=${crypto.randomUUID()}`);
      const strangerBoot = /id="boot">(.*?)<\/script>/s.exec(stranger.text);
      expect(stranger.text).to.not.contain('Velg dag og tid');
      expect(strangerBoot && JSON.parse(strangerBoot[1]).chosenStaff).to.equal(null);
    } finally {
      await call('patch', '/superadmin/platform-settings', admin, { bookingUiVersion: 'v2' });
    }
  });

  it('when the v1 contact form posts then it books and redirects to the confirmation; a taken time redirects to fresh times with a notice; bad contact details re-render the form with 422', async () => {
    const salon = await bookingSalon({ settings: { autoConfirm: true } });
    const time = at(localDay(2), '10:00');
    const form = {
      services: salon.serviceId,
      staff: salon.staff[0].resourceId,
      time,
      lang: 'nb',
      name: 'Kari Skjema',
      phone: '912 34 567',
      email: '',
      notes: '',
    };
    const bad = await (
      await http()
    )
      .post(`/${salon.tenant.slug}/book`)
      .type('form')
      .send({ ...form, name: '', phone: 'x' });
    expect(bad.status).to.equal(422);
    expect(bad.text).to.contain('id="contact-name-error"').and.to.contain('Skriv et gyldig telefonnummer.');
    const booked = await (await http()).post(`/${salon.tenant.slug}/book`).type('form').send(form);
    expect(booked.status).to.equal(303);
    expect(booked.headers.location).to.match(new RegExp(`^/${salon.tenant.slug}/bookings/[0-9a-f-]{36}\\?token=.+&new=1$`));
    expect(([] as string[]).concat(booked.headers['set-cookie'] ?? []).join(';')).to.match(/salon_bp_[0-9a-f-]{36}=.+HttpOnly/);
    const row = await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first();
    expect(row).to.include({ contactName: 'Kari Skjema', contactPhone: '+4791234567', status: 'CONFIRMED' });
    const again = await (
      await http()
    )
      .post(`/${salon.tenant.slug}/book`)
      .type('form')
      .send({ ...form, phone: '912 34 568' });
    expect(again.status).to.equal(303);
    expect(again.headers.location).to.equal(
      `/${salon.tenant.slug}?services=${salon.serviceId}&staff=${salon.staff[0].resourceId}&date=${localDay(2)}&notice=conflict`,
    );
    const fresh = await (await http()).get(again.headers.location);
    expect(fresh.text).to.contain('Tiden du valgte ble nettopp tatt av noen andre.');
    expect(fresh.text).to.not.contain(`value="${time}"`);
  });

  it('when the calendar file is fetched with the token then it is the booking as one iCalendar event; a wrong token is a 404 page', async () => {
    const salon = await bookingSalon();
    const created = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(2), '11:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Kari Kalender', phone: phone() },
    });
    const { id, manageToken } = created.body.data;
    const ics = await (await http()).get(`/${salon.tenant.slug}/bookings/${id}/calendar.ics?token=${encodeURIComponent(manageToken)}`);
    expect(ics.status).to.equal(200);
    expect(ics.headers['content-type']).to.equal('text/calendar; charset=utf-8');
    expect(ics.headers['content-disposition']).to.equal('attachment; filename="booking.ics"');
    expect(ics.text)
      .to.contain('METHOD:PUBLISH')
      .and.to.contain(`UID:booking-${id}@`)
      .and.to.contain(`DTSTART;TZID=Europe/Oslo:${localDay(2).replace(/-/g, '')}T110000`)
      .and.to.contain('STATUS:TENTATIVE');
    const wrong = await (await http()).get(`/${salon.tenant.slug}/bookings/${id}/calendar.ics?token=nope.nope`);
    expect(wrong.status).to.equal(404);
    const manage = await (await http()).get(`/${salon.tenant.slug}/bookings/${id}?token=nope.nope`);
    expect(manage.status).to.equal(404);
    expect(manage.headers['content-type']).to.contain('text/html');
  });

  it('when a manage link is used 14 days after its appointment ended then it still opens the booking (page, calendar file, API); a millisecond later it no longer does', async () => {
    const salon = await bookingSalon();
    const created = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(2), '11:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Kari Gammel', phone: phone() },
    });
    const { id, manageToken } = created.body.data;
    const { endTime } = await (await knex())('bookings').where({ id }).first('endTime');
    const { app, at: clock } = await appOnClock();
    const token = encodeURIComponent(manageToken);
    for (const [late, expected] of [
      [0, 200],
      [1, 404],
    ] as const) {
      clock.set(new Date(new Date(endTime).getTime() + 14 * 86_400_000 + late));
      expect((await request(app).get(`/${salon.tenant.slug}/bookings/${id}?token=${token}`)).status, `page, ${late} ms late`).to.equal(expected);
      expect((await request(app).get(`/${salon.tenant.slug}/bookings/${id}/calendar.ics?token=${token}`)).status, `calendar, ${late} ms late`).to.equal(
        expected,
      );
      expect((await request(app).get(`/api/public/tenants/${salon.tenant.slug}/bookings/${id}?token=${token}`)).status, `API, ${late} ms late`).to.equal(
        expected,
      );
    }
  });

  it('when the payment return page is asked for an unknown payment then it is a 404 page', async () => {
    const res = await (await http()).get('/payments/00000000-0000-4000-8000-000000000000/return');
    expect(res.status).to.equal(404);
    expect(res.text).to.contain('Fant ikke siden');
    expect((await (await http()).get('/payments/not-a-uuid/return')).status).to.equal(404);
  });
});
