import { expect } from 'chai';
import { call } from '../../support/http';
import { unique } from '../../support/factories';
import { provePhone, signInCustomer, signInWithProvenPhone, uniquePhone, type TestCustomer } from '../../support/customers';
import { ALL_WEEK, at, bookingSalon, knex, localDay, type BookingSalon } from '../../support/booking-fixtures';
import { isBookingOfAccount } from '../../../domain/booking/booking-account.repository';

let phoneSeq = 0;
const contact = () => ({
  name: 'Kari Nordmann',
  phone: `+47 9${String(Date.now() % 10_000_000)
    .padStart(7, '0')
    .slice(0, 5)}${String(++phoneSeq).padStart(2, '0')}`,
});

/** `days` ahead of the salon's today, or on a salon-local date. */
async function book(
  s: BookingSalon,
  token?: string,
  days: number | string = 5,
  time = '10:00',
  customer: { name: string; phone: string; email?: string } = contact(),
) {
  const date = typeof days === 'string' ? days : localDay(days, s.tz);
  const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, token, {
    startTime: at(date, time, s.tz),
    items: [{ serviceId: s.serviceId }],
    customer,
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { id: string; manageToken: string };
}

describe('customer account routes', () => {
  it('when the customer reads GET /auth/customer/me and GET /customer/me then both show the account; /customer/me lists the salons', async () => {
    const c = await signInWithProvenPhone({ name: 'Siri' });
    const me = await call('get', '/auth/customer/me', c.accessToken);
    expect(me.status).to.equal(200);
    expect(me.body.data).to.include({ id: c.accountId, email: c.email, name: 'Siri' });
    const s = await bookingSalon();
    // the account proved its phone: a booking with it links the salon's record (docs/rules/customers.md#linking-an-account)
    await book(s, c.accessToken, 5, '10:00', { name: 'Siri', phone: c.phone, email: c.email });
    const profile = await call('get', '/customer/me', c.accessToken);
    expect(profile.status).to.equal(200);
    expect(profile.body.data.salons.map((x: { slug: string }) => x.slug)).to.deep.equal([s.tenant.slug]);
  });

  it('when the customer patches the profile then name and phone change; unknown fields and an empty body are 400', async () => {
    const c = await signInCustomer();
    const res = await call('patch', '/customer/me/profile', c.accessToken, { name: 'Nytt Navn', phone: '+47 912 34 567' });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ name: 'Nytt Navn', phone: '+4791234567' });
    expect((await call('patch', '/customer/me/profile', c.accessToken, { email: 'x@example.test' })).status).to.equal(400);
    expect((await call('patch', '/customer/me/profile', c.accessToken, {})).status).to.equal(400);
    expect((await call('patch', '/customer/me/profile', c.accessToken, { phone: null })).body.data.phone).to.equal(null);
  });
});

describe('signed-in booking on the public portal', () => {
  it('when a signed-in customer books with the phone they proved then the booking is theirs (not a guest), linked to the salon customer record', async () => {
    const c = await signInCustomer();
    const s = await bookingSalon();
    const phone = uniquePhone();
    await provePhone(c, phone);
    const { id } = await book(s, c.accessToken, 5, '10:00', { name: 'Kari Nordmann', phone });
    const db = await knex();
    const row = await db('bookings').where({ id }).first();
    expect(row).to.include({ customerAccountId: c.accountId, isGuest: false });
    const customer = await db('customers').where({ id: row.customerId }).first();
    expect(customer.accountId).to.equal(c.accountId);
    expect(await isBookingOfAccount(db, s.tenant.id, id, c.accountId)).to.equal(true);
    expect(await isBookingOfAccount(db, (await bookingSalon()).tenant.id, id, c.accountId)).to.equal(false);
    const other = await signInCustomer();
    expect(await isBookingOfAccount(db, s.tenant.id, id, other.accountId)).to.equal(false);
    // a second booking in the same salon uses the same customer record, whatever phone it gives
    const second = await book(s, c.accessToken, 6);
    expect((await db('bookings').where({ id: second.id }).first()).customerId).to.equal(row.customerId);
  });

  it('when a guest books without a token then the booking is a guest booking owned by no account', async () => {
    const s = await bookingSalon();
    const { id } = await book(s);
    const row = await (await knex())('bookings').where({ id }).first();
    expect(row).to.include({ customerAccountId: null, isGuest: true });
  });

  it('when an expired or revoked customer token is sent with a booking then 401, not a silent guest booking', async () => {
    const c = await signInCustomer();
    await (await knex())('customer_accounts').where({ id: c.accountId }).increment('tokenVersion', 1);
    const s = await bookingSalon();
    const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, c.accessToken, {
      startTime: at(localDay(5, s.tz), '10:00', s.tz),
      items: [{ serviceId: s.serviceId }],
      customer: contact(),
    });
    expect(res.status).to.equal(401);
    expect(await (await knex())('bookings').where({ tenantId: s.tenant.id }).first()).to.equal(undefined);
  });

  it('when the customer cancels their own booking with the token alone then it is cancelled; another customer gets 404', async () => {
    const c = await signInCustomer();
    const other = await signInCustomer();
    const s = await bookingSalon();
    const { id } = await book(s, c.accessToken);
    const path = `/public/tenants/${s.tenant.slug}/bookings/${id}/cancel`;
    const denied = await call('post', path, other.accessToken, {});
    expect(denied.status).to.equal(404);
    expect(denied.body.error.code).to.equal('BOOKING_NOT_FOUND');
    expect((await call('get', `/public/tenants/${s.tenant.slug}/bookings/${id}`, other.accessToken)).status).to.equal(404);
    expect((await call('get', `/public/tenants/${s.tenant.slug}/bookings/${id}`, c.accessToken)).body.data.id).to.equal(id);
    const res = await call('post', path, c.accessToken, { reason: 'Kan ikke komme' });
    expect(res.status).to.equal(200);
    expect(res.body.data.status).to.equal('CANCELLED');
    const audit = await (await knex())('booking_audit_logs').where({ bookingId: id, action: 'CANCELLED' }).first();
    expect(audit.actorRole).to.equal('CUSTOMER');
  });

  it("when a customer cancels a guest booking that is not theirs by token alone then 404 (the guest's own proof still works)", async () => {
    const c = await signInCustomer();
    const s = await bookingSalon();
    const { id, manageToken } = await book(s);
    expect((await call('post', `/public/tenants/${s.tenant.slug}/bookings/${id}/cancel`, c.accessToken, {})).status).to.equal(404);
    expect((await call('post', `/public/tenants/${s.tenant.slug}/bookings/${id}/cancel`, undefined, { token: manageToken })).status).to.equal(200);
  });

  it('when the free cancellation window has closed then self-cancel is 422 CANCELLATION_WINDOW_CLOSED', async () => {
    const c = await signInCustomer();
    const s = await bookingSalon({ settings: { businessHours: ALL_WEEK, cancellationHours: 168 } });
    const { id } = await book(s, c.accessToken, 2);
    const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${id}/cancel`, c.accessToken, {});
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('CANCELLATION_WINDOW_CLOSED');
  });
});

describe('GET /customer/me/bookings', () => {
  it('when the customer has bookings in two salons then both are listed, newest appointment first, with tenantTimezone and local times from the snapshot', async () => {
    const c = await signInCustomer();
    const oslo = await bookingSalon();
    const london = await bookingSalon({ settings: { businessHours: ALL_WEEK, timezone: 'Europe/London' } });
    const a = await book(oslo, c.accessToken, 3, '10:00');
    // the date once: a run that crosses midnight in London between booking and checking still agrees
    const londonDay = localDay(4, 'Europe/London');
    const b = await book(london, c.accessToken, londonDay, '11:00');
    // the salon changes its timezone later: the booking keeps rendering in its snapshot's timezone
    const db = await knex();
    await db.raw(`UPDATE tenants SET settings = jsonb_set(settings, '{timezone}', '"America/New_York"') WHERE id = ?`, [oslo.tenant.id]);
    const res = await call('get', '/customer/me/bookings', c.accessToken);
    expect(res.status).to.equal(200);
    expect(res.body.meta).to.deep.equal({ total: 2, page: 1, limit: 20, totalPages: 1 });
    expect(res.body.data.map((x: { id: string }) => x.id)).to.deep.equal([b.id, a.id]);
    expect(res.body.data[0]).to.include({
      tenantTimezone: 'Europe/London',
      localDate: londonDay,
      localStartTime: '11:00',
      localEndTime: '12:00',
      tenantSlug: london.tenant.slug,
    });
    expect(res.body.data[1]).to.include({ tenantTimezone: 'Europe/Oslo', localStartTime: '10:00', currency: 'NOK' });
    expect(res.body.data[1].items[0]).to.include({ serviceId: oslo.serviceId, localStartTime: '10:00' });
  });

  it('when paginated then limit and page apply; limit 100 is accepted and 101 refused; other customers see nothing of it', async () => {
    const c = await signInCustomer();
    const s = await bookingSalon();
    await book(s, c.accessToken, 3);
    await book(s, c.accessToken, 4);
    const page2 = await call('get', '/customer/me/bookings?page=2&limit=1', c.accessToken);
    expect(page2.body.meta).to.deep.equal({ total: 2, page: 2, limit: 1, totalPages: 2 });
    expect(page2.body.data).to.have.length(1);
    expect((await call('get', '/customer/me/bookings?limit=100', c.accessToken)).status).to.equal(200);
    expect((await call('get', '/customer/me/bookings?limit=101', c.accessToken)).status).to.equal(400);
    const other = await signInCustomer();
    expect((await call('get', '/customer/me/bookings', other.accessToken)).body.meta.total).to.equal(0);
  });
});

describe('claiming a guest booking (POST /public/tenants/:slug/bookings/:id/claim)', () => {
  async function guestBookingAged(minutesAgo: number, secondsExtra = 0, customer = contact()) {
    const s = await bookingSalon();
    const { id, manageToken } = await book(s, undefined, 5, '10:00', customer);
    await (
      await knex()
    )('bookings')
      .where({ id })
      .update({ createdAt: new Date(Date.now() - minutesAgo * 60_000 - secondsExtra * 1000) });
    return { s, id, token: manageToken, path: `/public/tenants/${s.tenant.slug}/bookings/${id}/claim` };
  }

  it('when a signed-in customer claims a guest booking they did not make (its id alone) then 403 BOOKING_CLAIM_PROOF_REQUIRED, and they can neither read nor cancel it', async () => {
    const stranger = await signInCustomer();
    const { s, id, path } = await guestBookingAged(0);
    for (const body of [undefined, { token: 'not.the-token' }]) {
      const res = await call('post', path, stranger.accessToken, body);
      expect([res.status, res.body.error.code]).to.deep.equal([403, 'BOOKING_CLAIM_PROOF_REQUIRED']);
    }
    // a phone the stranger proved, but not the booking's, is no proof either
    await provePhone(stranger, uniquePhone());
    expect((await call('post', path, stranger.accessToken)).status).to.equal(403);
    expect((await (await knex())('bookings').where({ id }).first()).customerAccountId).to.equal(null);
    expect((await call('get', `/public/tenants/${s.tenant.slug}/bookings/${id}`, stranger.accessToken)).status).to.equal(404);
    expect((await call('post', `/public/tenants/${s.tenant.slug}/bookings/${id}/cancel`, stranger.accessToken, {})).status).to.equal(404);
    expect((await (await knex())('bookings').where({ id }).first()).status).to.not.equal('CANCELLED');
  });

  it('when the customer proved the phone the guest booking was made with then the claim needs no token', async () => {
    const c = await signInCustomer();
    const phone = uniquePhone();
    const { id, path } = await guestBookingAged(0, 0, { name: 'Kari Nordmann', phone });
    await provePhone(c, phone);
    expect((await call('post', path, c.accessToken)).status).to.equal(200);
    expect((await (await knex())('bookings').where({ id }).first()).customerAccountId).to.equal(c.accountId);
  });

  it('when a signed-in customer claims a fresh guest booking with its manage token then it becomes theirs and shows in their list', async () => {
    const c: TestCustomer = await signInCustomer();
    const { id, token, path } = await guestBookingAged(0);
    const res = await call('post', path, c.accessToken, { token });
    expect(res.status).to.equal(200);
    expect(res.body.data.id).to.equal(id);
    expect((await (await knex())('bookings').where({ id }).first()).customerAccountId).to.equal(c.accountId);
    expect((await call('get', '/customer/me/bookings', c.accessToken)).body.data.map((b: { id: string }) => b.id)).to.include(id);
    expect((await (await knex())('booking_audit_logs').where({ bookingId: id, action: 'CLAIMED' })).length).to.equal(1);
    // claiming it again is harmless
    expect((await call('post', path, c.accessToken, { token })).status).to.equal(200);
  });

  it('when the booking was created just under 60 minutes ago then the claim succeeds (at the limit)', async () => {
    const c = await signInCustomer();
    const { path, token } = await guestBookingAged(59, 50);
    expect((await call('post', path, c.accessToken, { token })).status).to.equal(200);
  });

  it('when the booking was created more than 60 minutes ago then 422 BOOKING_CLAIM_WINDOW_CLOSED and nothing changes', async () => {
    const c = await signInCustomer();
    const { id, path, token } = await guestBookingAged(60, 1);
    const res = await call('post', path, c.accessToken, { token });
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('BOOKING_CLAIM_WINDOW_CLOSED');
    expect((await (await knex())('bookings').where({ id }).first()).customerAccountId).to.equal(null);
  });

  it('when two customers claim the same booking at once then exactly one wins and the other gets 409 BOOKING_ALREADY_CLAIMED', async () => {
    const [a, b] = await Promise.all([signInCustomer(), signInCustomer()]);
    const { id, path, token } = await guestBookingAged(1);
    const results = await Promise.all([call('post', path, a.accessToken, { token }), call('post', path, b.accessToken, { token })]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).to.deep.equal([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.body.error.code).to.equal('BOOKING_ALREADY_CLAIMED');
    const winner = results[0].status === 200 ? a : b;
    expect((await (await knex())('bookings').where({ id }).first()).customerAccountId).to.equal(winner.accountId);
  });

  it("when the booking is another customer's signed-in booking then 409; an unknown booking is 404; without a customer token 401", async () => {
    const owner = await signInCustomer();
    const c = await signInCustomer();
    const s = await bookingSalon();
    const { id, manageToken } = await book(s, owner.accessToken);
    expect((await call('post', `/public/tenants/${s.tenant.slug}/bookings/${id}/claim`, c.accessToken, { token: manageToken })).status).to.equal(409);
    const missing = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/claim`, c.accessToken, {
      token: manageToken,
    });
    expect(missing.status).to.equal(404);
    expect((await call('post', `/public/tenants/${s.tenant.slug}/bookings/${id}/claim`)).status).to.equal(401);
    expect((await call('post', `/public/tenants/${unique('none')}/bookings/${id}/claim`, c.accessToken)).status).to.equal(404);
  });
});
