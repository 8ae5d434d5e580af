// The attacks of the ASVS level 2 audit (docs/rules/security.md#the-asvs-audit), one
// per finding, each made the way the auditor made it: over HTTP against the running app, asserting
// what the attacker must not get. The file is portable: it uses only the public API, the database
// for setup and checks, and test helpers older than the fixes, so the same file can be run against
// an earlier revision to show each attack succeeding there. The area tests (auth, customer linking,
// billing, uploads, browsers) hold the limits and edge cases of each fix.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { call, http } from '../../support/http';
import { appWith, stack, TEST_SMS_REPLY_SECRET } from '../../support/stack';
import { createAdmin, createSalon, unique } from '../../support/factories';
import { at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import { provePhone, signInCustomer } from '../../support/customers';
import { activateSandbox, checkoutIdOf, platformAdmin, registerSalon } from '../../support/billing';
import { png, uploadAs } from '../../support/upload-files';
import { createApp } from '../../../api/app';
import { eventually } from '../../support/eventually';
import { workflowSettled } from '../../support/workflow-barriers';
import { bookOk, complete, visitCard } from '../../support/loyalty';
import { clickCheckout, depositSalon, paymentPage } from '../../support/payments';
import { bookDueOccurrences } from '../../../domain/series/series-occurrence.service';
import { bookingHooks } from '../../../composition/domain-hooks';
import { localToUtc } from '../../../domain/time/salon-time.rules';
import { createKnex } from '../../../db/knex';
import pino from 'pino';

const phone = () => `+474${crypto.randomInt(1_000_000, 9_999_999)}`;

async function guestBooking(s: Awaited<ReturnType<typeof bookingSalon>>, days = 3, contactPhone = phone()) {
  const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
    startTime: at(localDay(days), '10:00'),
    items: [{ serviceId: s.serviceId }],
    customer: { name: 'Gjest Gjestesen', phone: contactPhone },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { id: string; manageToken: string };
}

async function login(email: string, password: string) {
  const res = await (await http()).post('/api/auth/login').send({ email, password });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  return { accessToken: res.body.data.accessToken as string, refreshToken: res.body.data.refreshToken as string, cookies: cookies.map((c) => c.split(';')[0]) };
}

describe('the ASVS audit: each attack, over HTTP (docs/rules/security.md)', function () {
  this.timeout(90_000);

  it('#1 when a signed-in customer claims a guest booking by its id alone then it is refused, and they can neither list nor cancel it', async () => {
    const s = await bookingSalon();
    const booking = await guestBooking(s);
    const attacker = await signInCustomer();
    const claim = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${booking.id}/claim`, attacker.accessToken, {});
    expect(claim.status, JSON.stringify(claim.body)).to.equal(403);
    expect((await (await knex())('bookings').where({ id: booking.id }).first('customerAccountId')).customerAccountId).to.equal(null);
    expect((await call('get', '/customer/me/bookings', attacker.accessToken)).body.data.map((b: { id: string }) => b.id)).to.not.include(booking.id);
    const cancel = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${booking.id}/cancel`, attacker.accessToken, {});
    expect(cancel.status, JSON.stringify(cancel.body)).to.be.oneOf([400, 403, 404]);
    expect((await (await knex())('bookings').where({ id: booking.id }).first('status')).status).to.not.equal('CANCELLED');
  });

  it("#2 when a signed-in customer books with someone else's phone then that person's salon record is not linked to their account", async () => {
    const s = await bookingSalon();
    const victimPhone = phone();
    const victim = await call('post', '/customers', s.owner.token, { name: 'Kari Ekte', phone: victimPhone });
    expect(victim.status, JSON.stringify(victim.body)).to.equal(201);
    const attacker = await signInCustomer();
    const booked = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, attacker.accessToken, {
      startTime: at(localDay(3), '11:00'),
      items: [{ serviceId: s.serviceId }],
      customer: { name: 'Ikke Kari', phone: victimPhone },
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    expect((await (await knex())('customers').where({ id: victim.body.data.id }).first('accountId')).accountId).to.equal(null);
    expect((await call('get', '/customer/me', attacker.accessToken)).body.data.salons).to.deep.equal([]);
  });

  it('#3 when an access token alone changes the e-mail then it is refused and the account keeps its address', async () => {
    const { owner } = await createSalon();
    const res = await call('patch', '/auth/profile', owner.token, { email: `${unique('attacker')}@evil.example` });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect((await (await knex())('users').where({ id: owner.id }).first('email')).email).to.equal(owner.email);
  });

  it("#4 when the platform admin's own token names a salon then creating a service and reading customers and payment configs are 403, and nothing is written", async () => {
    const admin = await createAdmin();
    const { tenant } = await createSalon();
    const name = unique('Admin-tjeneste');
    const created = await (
      await http()
    )
      .post('/api/services')
      .set('Authorization', `Bearer ${admin.token}`)
      .set('x-tenant-id', tenant.id)
      .send({ name, duration: 30, price: 10000 });
    expect(created.status, JSON.stringify(created.body)).to.equal(403);
    expect(await (await knex())('services').where({ tenantId: tenant.id, name })).to.deep.equal([]);
    for (const path of ['/api/customers', '/api/admin/payment-configs']) {
      const read = await (await http()).get(path).set('Authorization', `Bearer ${admin.token}`).set('x-tenant-id', tenant.id);
      expect(read.status, path).to.equal(403);
    }
  });

  it('#5 when checkout is asked with Host: evil.example then the provider sends the owner back to the platform, not to evil.example', async () => {
    await activateSandbox();
    const salon = await registerSalon();
    const { billingSandbox } = await stack();
    const res = await (
      await http()
    )
      .post('/api/subscription/checkout')
      .set('Authorization', `Bearer ${salon.token}`)
      .set('Host', 'evil.example')
      .send({ planKey: 'start' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const checkout = billingSandbox.server.checkouts.get(checkoutIdOf(res.body.data.checkoutUrl))!;
    for (const url of [checkout.successUrl, checkout.cancelUrl]) expect(new URL(url).hostname).to.not.equal('evil.example');
  });

  it('#6 when a signed Lemon Squeezy event is replayed under a new x-event-id, or was signed hours ago, then it is applied once, and the stale one not at all', async () => {
    const admin = (await platformAdmin()).token;
    const { platform } = await stack();
    await platform.knex('platform_billing_configs').where({ provider: 'lemonsqueezy' }).delete();
    const secret = crypto.randomBytes(16).toString('hex');
    try {
      const config = await call('post', '/superadmin/billing-configs', admin, {
        provider: 'lemonsqueezy',
        isTest: true,
        apiBaseUrl: 'https://api.lemonsqueezy.com',
        storeId: '1234',
        displayName: 'Lemon Squeezy',
        credentials: { apiKey: 'k', webhookSecret: secret },
      });
      expect(config.status, JSON.stringify(config.body)).to.equal(201);
      await call('put', `/superadmin/billing-configs/${config.body.data.id}/plan-mappings`, admin, {
        mappings: [{ planKey: 'team', providerVariantId: '98765' }],
      });
      const salon = await registerSalon();
      const subId = String(crypto.randomInt(100_000, 999_999));
      const body = (updatedAt: Date) =>
        JSON.stringify({
          meta: { event_name: 'subscription_created', custom_data: { tenant_id: salon.tenantId } },
          data: {
            type: 'subscriptions',
            id: subId,
            attributes: {
              status: 'active',
              variant_id: 98765,
              customer_id: 42,
              renews_at: '2030-01-01T00:00:00.000000Z',
              cancelled: false,
              updated_at: updatedAt.toISOString(),
            },
          },
        });
      const post = async (raw: string, eventId: string) =>
        (await http())
          .post('/api/webhooks/subscription/LemonSqueezy')
          .set('content-type', 'application/json')
          .set('x-signature', crypto.createHmac('sha256', secret).update(raw).digest('hex'))
          .set('x-event-id', eventId)
          .send(raw);
      const captured = body(new Date());
      expect((await post(captured, 'evt-original')).status).to.equal(200);
      expect((await post(captured, 'evt-replayed')).status).to.equal(200);
      const inbox = () => platform.knex('subscription_webhook_inbox').where({ tenantId: salon.tenantId });
      expect(await inbox(), 'the replay is the same event').to.have.length(1);
      const stale = await post(body(new Date(Date.now() - 3 * 3_600_000)), 'evt-stale');
      expect(stale.status).to.equal(401);
      expect(await inbox()).to.have.length(1);
    } finally {
      await platform.knex('platform_billing_configs').where({ provider: 'lemonsqueezy' }).delete();
    }
  });

  it('#7 when a user signs out then the access token of that session is refused at once', async () => {
    const { owner } = await createSalon();
    const session = await login(owner.email, owner.password);
    expect((await call('get', '/auth/me', session.accessToken)).status).to.equal(200);
    const out = await (
      await http()
    )
      .post('/api/auth/logout')
      .set('Authorization', `Bearer ${session.accessToken}`)
      .send({ refreshToken: session.refreshToken });
    expect(out.status).to.be.oneOf([200, 204]);
    expect((await call('get', '/auth/me', session.accessToken)).status).to.equal(401);
  });

  it('#8 when an owner registers with a 6-character password, or one longer than bcrypt reads (72 bytes), then it is refused', async () => {
    for (const password of ['abc123', 'å'.repeat(37)]) {
      const slug = unique('audit');
      const res = await call('post', '/auth/register', undefined, { salonName: 'Revisjon', slug, email: `${slug}@example.test`, password });
      expect(res.status, `${Buffer.byteLength(password)} bytes: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(await (await knex())('tenants').where({ slug })).to.deep.equal([]);
    }
  });

  it('#9 when forgot-password is asked for a known and an unknown e-mail then both answer alike without the api sending any mail itself', async () => {
    const { platform } = await stack();
    const { owner } = await createSalon();
    let sentByTheApi = 0;
    const app = createApp({ ...platform.deps, mailer: { send: async () => void sentByTheApi++ } } as never, { validateResponses: true });
    const request = (await import('supertest')).default;
    const known = await request(app).post('/api/auth/forgot-password').send({ email: owner.email });
    const unknown = await request(app)
      .post('/api/auth/forgot-password')
      .send({ email: `${unique('ghost')}@example.test` });
    expect([known.status, unknown.status]).to.deep.equal([200, 200]);
    expect(known.body).to.deep.equal(unknown.body);
    expect(sentByTheApi, "the mail is the worker's, so the answer takes as long for both").to.equal(0);
  });

  it('#10 when a signed-in customer signs a public image at a size and quality of their own then it is refused', async () => {
    const { owner } = await createSalon();
    const logo = (await uploadAs(owner.token, 'TENANT_LOGO', await png(400, 200))).body.data as { key: string };
    const customer = await signInCustomer();
    const res = await call('get', `/image-proxy/sign?key=${encodeURIComponent(logo.key)}&w=2400&h=2400&q=100`, customer.accessToken);
    expect(res.status, JSON.stringify(res.body)).to.equal(403);
  });

  it('#11 when a manage link is used long after its appointment then it no longer opens the booking', async () => {
    const s = await bookingSalon();
    const booking = await guestBooking(s);
    const token = encodeURIComponent(booking.manageToken);
    expect((await call('get', `/public/tenants/${s.tenant.slug}/bookings/${booking.id}?token=${token}`)).status).to.equal(200);
    // the appointment was 15 days ago (its items move with it, so the booking stays whole)
    const db = await knex();
    const shift = `- interval '${3 + 15} days'`;
    await db.raw(`UPDATE bookings SET start_time = start_time ${shift}, end_time = end_time ${shift} WHERE id = ?`, [booking.id]);
    await db.raw(`UPDATE booking_items SET start_time = start_time ${shift}, end_time = end_time ${shift} WHERE booking_id = ?`, [booking.id]);
    expect((await call('get', `/public/tenants/${s.tenant.slug}/bookings/${booking.id}?token=${token}`)).status).to.equal(404);
  });

  it("#12 when a foreign page posts a body-less sign-out with the user's cookies (a simple request: no preflight) then it is refused and the session goes on", async () => {
    const { owner } = await createSalon();
    const session = await login(owner.email, owner.password);
    const res = await (await http()).post('/api/auth/logout').set('Origin', 'https://evil.example').set('Cookie', session.cookies.join('; '));
    expect(res.status).to.equal(403);
    const refreshed = await call('post', '/auth/refresh', undefined, { refreshToken: session.refreshToken });
    expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
  });
});

// The second round (docs/rules/security.md#the-second-round): the round's attacks on a running
// platform, each again as the attacker made it, portable like the first round's.
describe('the second security round: each attack, as the attacker made it (docs/rules/security.md)', function () {
  this.timeout(120_000);

  it("#1 when a stranger books with a phone the salon does not know and their own verified e-mail then the record is not theirs, even after cancelling; the phone's owner proves it and gets the record, its stamps and its voucher, which the stranger cannot use", async () => {
    const s = await bookingSalon();
    const victimPhone = phone();
    const stranger = await signInCustomer();
    const booked = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, stranger.accessToken, {
      startTime: at(localDay(3), '11:00'),
      items: [{ serviceId: s.serviceId }],
      customer: { name: 'Ikke Eier', phone: victimPhone, email: stranger.email },
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const db = await knex();
    const record = await db('customers').where({ tenantId: s.tenant.id, phone: victimPhone }).first('id', 'email');
    const linkOfRecord = async () => (await db('customers').where({ id: record.id }).first('accountId')).accountId;
    expect(record.email, 'the record keeps what the booking typed').to.equal(stranger.email);
    expect(await linkOfRecord(), 'an e-mail typed on a booking is no proof').to.equal(null);
    const cancelled = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${booked.body.data.id}/cancel`, stranger.accessToken, {});
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect(await linkOfRecord()).to.equal(null);

    const owner = await signInCustomer();
    await provePhone(owner, victimPhone);
    expect(await linkOfRecord()).to.equal(owner.accountId);
    // the stamps of the owner's visits issue a voucher on the record
    await visitCard(s, { requiredStamps: 1 });
    const visit = await bookOk(s, { customerId: record.id, tenantCustomerId: '', phone: victimPhone });
    await complete(s, visit.id);
    const vouchers = await eventually(async () => {
      const mine = (await call('get', '/customer/loyalty/vouchers', owner.accessToken)).body.data as { code: string }[];
      return mine.length ? mine : undefined;
    }, "the voucher of the owner's stamp");
    expect((await call('get', '/customer/loyalty/vouchers', stranger.accessToken)).body.data).to.deep.equal([]);
    const redeemed = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, stranger.accessToken, {
      startTime: at(localDay(4), '11:00'),
      items: [{ serviceId: s.serviceId }],
      customer: { name: 'Ikke Eier', phone: victimPhone, email: stranger.email },
      voucherCode: vouchers[0].code,
    });
    expect([redeemed.status, redeemed.body.error?.code]).to.deep.equal([422, 'LOYALTY_VOUCHER_NOT_OWNED']);
  });

  it('#2 when a customer makes their PENDING, unpaid booking at a salon with deposits on and autoConfirm off a weekly series then it is refused; from a paid, approved one the occurrences wait for approval and deposit, and the owner cancelling the first booking cancels them', async () => {
    const s = await depositSalon();
    const customer = await signInCustomer();
    const book = async (days: number) => {
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, customer.accessToken, {
        startTime: at(localDay(days), '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { name: 'Kari Nordmann', phone: phone() },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.data as { id: string; manageToken: string; status: string; paymentRequired: boolean };
    };
    const pending = await book(3);
    expect([pending.status, pending.paymentRequired]).to.deep.equal(['PENDING', true]);
    const series = (bookingId: string) => call('post', '/customer/me/series', customer.accessToken, { bookingId, intervalWeeks: 1, occurrenceCount: 4 });
    const refused = await series(pending.id);
    expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
    const db = await knex();
    expect(await db('booking_series').where({ firstBookingId: pending.id })).to.deep.equal([]);

    const honoured = await book(4);
    const pay = await paymentPage(s, { id: honoured.id, token: honoured.manageToken, status: honoured.status, paymentRequired: true, phone: '' });
    await clickCheckout(pay.redirectUrl!, 'pay');
    await eventually(async () => {
      const row = await db('bookings').where({ id: honoured.id }).first();
      return row.status === 'CONFIRMED' && row.depositStatus === 'PAID' ? true : undefined;
    }, 'the paid booking confirmed');
    const made = await series(honoured.id);
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    // the worker's step on day 4, a week before the next occurrence (day 11)
    const { platform } = await stack();
    const deps = { knex: platform.knex, signaller: platform.deps.signaller, manageLinkKey: platform.deps.config.keys.manageLink, bookingHooks };
    await bookDueOccurrences(deps, made.body.data.id, localToUtc(localDay(4), '00:00', 'Europe/Oslo'), 0);
    const occurrence = await db('booking_series_occurrences').where({ seriesId: made.body.data.id, occurrenceIndex: 1 }).first();
    const booked = await db('bookings').where({ id: occurrence.bookingId }).first();
    // a week ahead, its deposit is owed and asked for 6 days before (docs/rules/payments.md#deposits-at-any-distance)
    expect([booked.status, booked.depositStatus], 'waits for the salon and the deposit').to.deep.equal(['PENDING', 'SCHEDULED']);

    const cancelled = await call('post', `/bookings/${honoured.id}/cancel`, s.owner.token, { bySalon: true });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    await eventually(
      async () => ((await db('bookings').where({ id: booked.id }).first()).status === 'CANCELLED' ? true : undefined),
      'the occurrence cancelled with it',
    );
  });

  it('#3 when a guest booking with a Nigerian number nobody proved is moved ten times in ten seconds then at most 3 moves happen and no SMS goes to that number', async () => {
    const app = await appWith({ RATE_LIMIT_BOOKING_MOVE: '10', RATE_LIMIT_BOOKING_MOVE_PER_BOOKING: '3' });
    const request = (await import('supertest')).default;
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const nigerian = `+23480${crypto.randomInt(10_000_000, 99_999_999)}`;
    const created = await request(app)
      .post(`/api/public/tenants/${s.tenant.slug}/bookings`)
      .send({ startTime: at(localDay(3), '09:00'), items: [{ serviceId: s.serviceId }], customer: { name: 'Ola Premium', phone: nigerian } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const times = ['10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00']
      .map((t) => at(localDay(3), t))
      .concat(['09:00', '10:00', '11:00'].map((t) => at(localDay(4), t)));
    const statuses: number[] = [];
    for (const startTime of times) {
      const moved = await request(app)
        .post(`/api/public/tenants/${s.tenant.slug}/bookings/${created.body.data.id}/move`)
        .send({ startTime, token: created.body.data.manageToken });
      statuses.push(moved.status);
    }
    expect(statuses.filter((x) => x === 200).length, statuses.join(' ')).to.be.at.most(3);
    await workflowSettled(`booking:${created.body.data.id}`);
    const { sms } = await stack();
    expect(await sms.sentTo(nigerian)).to.deep.equal([]);
  });

  it("#4 when a stranger's guest booking waits on the victim's phone next to the victim's own and the victim replies NEI then neither is cancelled and the answer names both, by salon, day and time", async () => {
    const victims = await bookingSalon({ settings: { autoConfirm: true } });
    const strangers = await bookingSalon({ settings: { autoConfirm: true } });
    const national = String(crypto.randomInt(40_000_000, 49_999_999));
    const victimPhone = `+47${national}`;
    const own = await guestBooking(victims, 4, victimPhone);
    const planted = await guestBooking(strangers, 3, victimPhone);
    const db = await knex();
    // both reminders went out, the stranger's last
    for (const [bookingId, tenantId, sentAt] of [
      [own.id, victims.tenant.id, new Date(Date.now() - 60_000)],
      [planted.id, strangers.tenant.id, new Date()],
    ] as const) {
      await db('booking_notifications').insert({ bookingId, tenantId, kind: 'REMINDER', channel: 'SMS', dedupeKey: `REMINDER:${crypto.randomUUID()}`, sentAt });
    }
    const form = new URLSearchParams({ number: `47${national}`, msg: 'NEI', id: crypto.randomUUID(), key: TEST_SMS_REPLY_SECRET });
    const res = await (await http()).post('/api/webhooks/sms/sveve').set('content-type', 'application/x-www-form-urlencoded').send(form.toString());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.include({ bookingId: null });
    for (const id of [own.id, planted.id]) expect((await db('bookings').where({ id }).first()).status, id).to.equal('CONFIRMED');
    const { sms } = await stack();
    const answer = (await sms.sentTo(victimPhone)).find((m) => m.meta?.kind === 'REPLY_ANSWER')!.text;
    expect(answer).to.contain(victims.tenant.name).and.contain(strangers.tenant.name).and.contain('10:00');
  });

  it('#5 when a manage page or the booking page is asked for a week past the calendar then 404, not 500; and a page that fails on the server logs the manage token redacted', async () => {
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const b = await guestBooking(s);
    const agent = await http();
    const manage = `/${s.tenant.slug}/bookings/${b.id}?token=${encodeURIComponent(b.manageToken)}`;
    for (const path of [
      `${manage}&week=9999-12-31`,
      `${manage}&move=1&week=9999-12-31`,
      `${manage}&move=1&date=9999-12-31`,
      `/${s.tenant.slug}?services=${s.serviceId}&staff=any&week=9999-12-27`,
    ]) {
      const res = await agent.get(path);
      expect(res.status, path).to.be.oneOf([200, 400, 404]);
      if (path.includes('move=1') || path.includes('staff=any')) expect(res.status, path).to.equal(404);
    }

    const { platform } = await stack();
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const deadDatabase = createKnex('postgres://salon:salon@127.0.0.1:1/salon', { max: 1 });
    try {
      const app = createApp({ ...platform.deps, logger, knex: deadDatabase });
      const request = (await import('supertest')).default;
      const failed = await request(app).get(`/${s.tenant.slug}/bookings/${b.id}?token=${encodeURIComponent(b.manageToken)}&week=9999-12-31`);
      expect(failed.status).to.be.within(500, 599);
      expect(lines.find((l) => l.includes('customer page failed'))).to.contain('token=[redacted]');
      expect(lines.join('\n')).to.not.contain(encodeURIComponent(b.manageToken));
    } finally {
      await deadDatabase.destroy();
    }
  });

  it('#6 when someone joins the waitlist with a phone that already waits for overlapping dates then the answer is that of any join, and the number gets its own link again', async () => {
    const s = await bookingSalon();
    const owner = phone();
    const body = (name: string) => ({ serviceIds: [s.serviceId], fromDate: localDay(1), toDate: localDay(5), customer: { name, phone: owner } });
    const waiting = await call('post', `/public/tenants/${s.tenant.slug}/waitlist`, undefined, body('Eier Eiersen'));
    expect(waiting.status).to.equal(201);
    const probe = await call('post', `/public/tenants/${s.tenant.slug}/waitlist`, undefined, body('Nysgjerrig'));
    expect(probe.status, JSON.stringify(probe.body)).to.equal(201);
    expect(JSON.stringify(probe.body)).to.not.match(/already|allerede|EXISTS/i);
    // the answer's link opens as a new entry's does
    const opened = await call('get', `/public/tenants/${s.tenant.slug}/waitlist/${probe.body.data.id}?token=${probe.body.data.token}`);
    expect([opened.status, opened.body.data?.status, opened.body.data?.customer?.name]).to.deep.equal([200, 'WAITING', 'Nysgjerrig']);
    const { sms } = await stack();
    await eventually(async () => {
      const links = (await sms.sentTo(owner)).filter((m) => m.text.includes(`/waitlist/${waiting.body.data.id}?token=`));
      return links.length === 2 ? true : undefined;
    }, "the owner's link, sent again");
  });

  it('#7 when the platform runs in production behind a proxy that ends TLS (TRUST_PROXY=0) and a guest books on the page then the booking-proof cookie is Secure, as the session cookies are', async () => {
    const app = await appWith({ NODE_ENV: 'production', TRUST_PROXY: '0' });
    const request = (await import('supertest')).default;
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const booked = await request(app)
      .post(`/${s.tenant.slug}/book`)
      .type('form')
      .send({
        services: s.serviceId,
        staff: s.staff[0].resourceId,
        time: at(localDay(2), '10:00'),
        lang: 'nb',
        name: 'Kari Proxy',
        phone: phone(),
        email: '',
        notes: '',
      });
    expect(booked.status, booked.text.slice(0, 300)).to.equal(303);
    const cookies = ([] as string[]).concat(booked.headers['set-cookie'] ?? []);
    const proof = cookies.find((c) => c.startsWith('salon_bp_'));
    expect(proof, cookies.join(' | ')).to.match(/;\s*Secure/i);
    const lang = ([] as string[]).concat((await request(app).get(`/${s.tenant.slug}?lang=en`)).headers['set-cookie'] ?? []);
    expect(lang.find((c) => c.startsWith('salon_lang'))).to.match(/;\s*Secure/i);
  });
});
