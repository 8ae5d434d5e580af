// A signed-in customer's account and a salon's customer record (docs/rules/customers.md#linking-an-account):
// a phone typed into a booking proves nothing, nor does an e-mail (verified by the identity provider
// or not); a phone proven by a one-time SMS code (docs/rules/customers.md#verifying-a-phone) does.
import { expect } from 'chai';
import request from 'supertest';
import { call } from '../../support/http';
import { appOnClock, stack } from '../../support/stack';
import { idTokenFor, phoneCodeSentTo, provePhone, signInCustomer, uniquePhone, type TestCustomer } from '../../support/customers';
import { at, knex, localDay } from '../../support/booking-fixtures';
import { unique } from '../../support/factories';
import { addCustomer, bookingSalon, visitCard } from '../../support/loyalty';
import { issueVoucher } from '../../../domain/loyalty/loyalty-voucher.service';
import { findCard } from '../../../domain/loyalty/loyalty.repository';

async function voucherOf(s: Awaited<ReturnType<typeof bookingSalon>>, tenantCustomerId: string) {
  const db = await knex();
  const card = (await findCard(db, s.tenant.id, (await visitCard(s)).id))!;
  return db.transaction(async (trx) =>
    issueVoucher(trx, (await stack()).signaller, { card, tenantCustomerId, cycleNumber: 1, bookingId: null, now: new Date() }),
  );
}

async function bookAs(
  s: Awaited<ReturnType<typeof bookingSalon>>,
  who: TestCustomer,
  customer: { name: string; phone: string; email?: string },
  extra: Record<string, unknown> = {},
  days = 3,
) {
  return call('post', `/public/tenants/${s.tenant.slug}/bookings`, who.accessToken, {
    startTime: at(localDay(days), '10:00'),
    items: [{ serviceId: s.serviceId }],
    customer,
    ...extra,
  });
}

describe('linking an account to a salon customer record', function () {
  this.timeout(60_000);

  it("when a signed-in customer books with someone else's phone then that person's record stays theirs: not linked, not listed, their voucher LOYALTY_VOUCHER_NOT_OWNED; the real owner links it by proving the phone", async () => {
    const s = await bookingSalon();
    const victim = await addCustomer(s);
    const voucher = await voucherOf(s, victim.tenantCustomerId);
    const attacker = await signInCustomer();
    // the booking itself is taken (as a guest's would be), but proves nothing about the record
    const booked = await bookAs(s, attacker, { name: 'Not Kari', phone: victim.phone });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    expect((await (await knex())('customers').where({ id: victim.customerId }).first()).accountId).to.equal(null);
    expect((await call('get', '/customer/me', attacker.accessToken)).body.data.salons).to.deep.equal([]);
    expect((await call('get', '/customer/loyalty/vouchers', attacker.accessToken)).body.data).to.deep.equal([]);
    expect((await call('get', '/customer/me/loyalty', attacker.accessToken)).body.data).to.deep.equal([]);
    const withVoucher = await bookAs(s, attacker, { name: 'Not Kari', phone: victim.phone }, { voucherCode: voucher.code }, 4);
    expect([withVoucher.status, withVoucher.body.error?.code]).to.deep.equal([422, 'LOYALTY_VOUCHER_NOT_OWNED']);

    const owner = await signInCustomer();
    await provePhone(owner, victim.phone);
    expect((await call('get', '/customer/me', owner.accessToken)).body.data.salons.map((x: { customerId: string }) => x.customerId)).to.deep.equal([
      victim.customerId,
    ]);
    expect((await call('get', '/customer/loyalty/vouchers', owner.accessToken)).body.data.map((v: { id: string }) => v.id)).to.deep.equal([voucher.id]);
    const own = await bookAs(s, owner, { name: 'Kari', phone: victim.phone }, { voucherCode: voucher.code }, 5);
    expect(own.status, JSON.stringify(own.body)).to.equal(201);
  });

  it('when a record was linked without proof (before proof was asked) then the owner who proves the phone takes it over', async () => {
    const s = await bookingSalon();
    const victim = await addCustomer(s);
    const squatter = await signInCustomer();
    await (await knex())('customers').where({ id: victim.customerId }).update({ accountId: squatter.accountId });
    const owner = await signInCustomer();
    await provePhone(owner, victim.phone);
    expect((await (await knex())('customers').where({ id: victim.customerId }).first()).accountId).to.equal(owner.accountId);
    expect((await call('get', '/customer/me', squatter.accessToken)).body.data.salons).to.deep.equal([]);
    // once proven, another account's proof of the same number does not move it again
    const latecomer = await signInCustomer();
    await provePhone(latecomer, victim.phone);
    expect((await (await knex())('customers').where({ id: victim.customerId }).first()).accountId).to.equal(owner.accountId);
  });

  it("when a booking carries the account's e-mail, verified by the identity provider, then the salon's record is not linked: an e-mail proves nothing", async () => {
    const s = await bookingSalon();
    const c = await signInCustomer();
    expect((await call('get', '/auth/customer/me', c.accessToken)).body.data).to.include({ emailVerified: true });
    const booked = await bookAs(s, c, { name: 'Kari', phone: uniquePhone(), email: c.email.toUpperCase() });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const row = await (await knex())('bookings').where({ id: booked.body.data.id }).first();
    const record = await (await knex())('customers').where({ id: row.customerId }).first();
    expect([record.email, record.accountId]).to.deep.equal([c.email, null]);
    expect(row.customerAccountId, 'the booking is still the account’s own').to.equal(c.accountId);
    expect((await call('get', '/customer/me', c.accessToken)).body.data.salons).to.deep.equal([]);
  });

  it('when the profile gets a new phone then it is not proven until verified', async () => {
    const c = await signInCustomer();
    const phone = uniquePhone();
    await provePhone(c, phone);
    expect((await call('get', '/auth/customer/me', c.accessToken)).body.data).to.include({ phoneVerified: true });
    const changed = await call('patch', '/customer/me/profile', c.accessToken, { phone: uniquePhone() });
    expect(changed.body.data.phoneVerified).to.equal(false);
  });

  it('when the profile phone is the proven number written another way then it is stored in E.164 and stays proven; a number of impossible length is 400 naming the field (docs/rules/conventions.md#phone-numbers)', async () => {
    const c = await signInCustomer();
    const phone = uniquePhone(); // "+47 4xxxxxxx"
    await provePhone(c, phone);
    const e164 = phone.replace(/\s/g, '');
    const local = await call('patch', '/customer/me/profile', c.accessToken, { phone: `00${e164.slice(1, 3)} ${e164.slice(3)}` });
    expect(local.status, JSON.stringify(local.body)).to.equal(200);
    expect(local.body.data).to.include({ phone: e164, phoneVerified: true });
    const withoutCountry = await call('patch', '/customer/me/profile', c.accessToken, { phone: e164.slice(3) });
    expect(withoutCountry.body.data).to.include({ phone: e164, phoneVerified: true });
    for (const bad of ['+47 4123456', '+47 412345678', '4123456']) {
      const refused = await call('patch', '/customer/me/profile', c.accessToken, { phone: bad });
      expect([refused.status, refused.body.error?.code, refused.body.error?.details?.[0]?.field], bad).to.deep.equal([400, 'VALIDATION_ERROR', 'phone']);
      const code = await call('post', '/customer/me/phone-verifications', c.accessToken, { phone: bad });
      expect([code.status, code.body.error?.details?.[0]?.field], bad).to.deep.equal([400, 'phone']);
    }
    expect((await call('get', '/auth/customer/me', c.accessToken)).body.data).to.include({ phoneVerified: true });
  });
});

describe('verifying a phone with a one-time SMS code (docs/rules/limits.md#sizes-and-counts)', function () {
  this.timeout(60_000);

  it('when the code is typed 10 minutes after it was asked for then it works, and a millisecond later it has expired', async () => {
    const { app, at: clock } = await appOnClock();
    for (const [late, expected] of [
      [0, 200],
      [1, 422],
    ] as const) {
      const email = `${unique('klokke')}@example.test`;
      const { idToken, nonce } = await idTokenFor(email);
      const token = (await request(app).post('/api/auth/customer/oauth').send({ idToken, nonce })).body.data.accessToken;
      const phone = uniquePhone();
      const askedAt = clock.now();
      expect((await request(app).post('/api/customer/me/phone-verifications').set('Authorization', `Bearer ${token}`).send({ phone })).status).to.equal(201);
      const code = await phoneCodeSentTo(phone);
      clock.set(new Date(askedAt.getTime() + 10 * 60_000 + late));
      const res = await request(app).post('/api/customer/me/phone-verifications/confirm').set('Authorization', `Bearer ${token}`).send({ phone, code });
      expect(res.status, `${late} ms late: ${JSON.stringify(res.body)}`).to.equal(expected);
      if (expected === 422) expect(res.body.error.code).to.equal('PHONE_CODE_EXPIRED');
    }
  });

  it('when 4 wrong codes were typed then the right one still works; after the 5th wrong one even the right code is refused', async () => {
    for (const [wrongs, expected] of [
      [4, 200],
      [5, 422],
    ] as const) {
      const c = await signInCustomer();
      const phone = uniquePhone();
      expect((await call('post', '/customer/me/phone-verifications', c.accessToken, { phone })).status).to.equal(201);
      const code = await phoneCodeSentTo(phone);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < wrongs; i++) {
        const res = await call('post', '/customer/me/phone-verifications/confirm', c.accessToken, { phone, code: wrong });
        expect([res.status, res.body.error.code]).to.deep.equal([422, 'PHONE_CODE_INVALID']);
      }
      const right = await call('post', '/customer/me/phone-verifications/confirm', c.accessToken, { phone, code });
      expect(right.status, `after ${wrongs} wrong: ${JSON.stringify(right.body)}`).to.equal(expected);
      if (expected === 422) expect(right.body.error.code).to.equal('PHONE_CODE_ATTEMPTS_EXCEEDED');
      expect((await call('get', '/auth/customer/me', c.accessToken)).body.data.phoneVerified).to.equal(expected === 200);
    }
  });

  it('when an account asks for a 3rd code within the hour then it is sent; the 4th is 429 and no SMS goes out', async () => {
    const c = await signInCustomer();
    const phones = [uniquePhone(), uniquePhone(), uniquePhone(), uniquePhone()];
    for (const phone of phones.slice(0, 3)) expect((await call('post', '/customer/me/phone-verifications', c.accessToken, { phone })).status).to.equal(201);
    const fourth = await call('post', '/customer/me/phone-verifications', c.accessToken, { phone: phones[3] });
    expect([fourth.status, fourth.body.error.code]).to.deep.equal([429, 'RATE_LIMIT_EXCEEDED']);
    expect(await (await knex())('phone_verifications').where({ customerAccountId: c.accountId })).to.have.length(3);
    expect(await (await knex())('account_messages').where({ kind: 'PHONE_CODE', phone: phones[3].replace(/\s/g, '') })).to.have.length(0);
  });

  it('when three accounts ask for codes to one number within the hour then the 3rd is sent and a 4th account gets 429 (no SMS bombing a number)', async () => {
    const phone = uniquePhone();
    for (let i = 0; i < 3; i++)
      expect((await call('post', '/customer/me/phone-verifications', (await signInCustomer()).accessToken, { phone })).status).to.equal(201);
    const fourth = await call('post', '/customer/me/phone-verifications', (await signInCustomer()).accessToken, { phone });
    expect(fourth.status).to.equal(429);
  });

  it('when no code was asked for, or the code is malformed, then 422 PHONE_CODE_NOT_REQUESTED / 400; without a customer token 401', async () => {
    const c = await signInCustomer();
    const none = await call('post', '/customer/me/phone-verifications/confirm', c.accessToken, { phone: uniquePhone(), code: '123456' });
    expect([none.status, none.body.error.code]).to.deep.equal([422, 'PHONE_CODE_NOT_REQUESTED']);
    expect((await call('post', '/customer/me/phone-verifications/confirm', c.accessToken, { phone: uniquePhone(), code: '12345' })).status).to.equal(400);
    expect((await call('post', '/customer/me/phone-verifications', undefined, { phone: uniquePhone() })).status).to.equal(401);
  });
});
