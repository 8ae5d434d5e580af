import { expect } from 'chai';
import { call } from '../../support/http';
import { stack } from '../../support/stack';
import { unique, uniquePhone } from '../../support/factories';
import { at, bookingSalon, localDay, type BookingSalon } from '../../support/booking-fixtures';
import { activateSandbox, platformAdmin, registerSalon } from '../../support/billing';

const DAY = 24 * 60 * 60 * 1000;

/** A bookable salon whose subscription is in the given state (row and read-model). */
async function salonIn(state: { status: string; trialEndsAt?: Date | null; providerSubId?: string | null; billingExempt?: boolean }): Promise<BookingSalon> {
  const { platform } = await stack();
  const salon = await bookingSalon();
  const providerSubId = state.providerSubId === undefined ? null : state.providerSubId;
  await platform.knex('subscriptions').insert({
    tenantId: salon.tenant.id,
    planKey: 'start',
    status: state.status,
    trialEndsAt: state.trialEndsAt ?? null,
    provider: providerSubId ? 'sandbox' : null,
    providerSubId,
  });
  await platform
    .knex('tenants')
    .where({ id: salon.tenant.id })
    .update({ subscriptionStatus: state.status, trialEndsAt: providerSubId ? null : (state.trialEndsAt ?? null), billingExempt: state.billingExempt ?? false });
  return salon;
}

const lapsedTrial = () => salonIn({ status: 'ACTIVE', trialEndsAt: new Date(Date.now() - 1000) });
const expired = () => salonIn({ status: 'EXPIRED', trialEndsAt: new Date(Date.now() - DAY) });

function guestBooking(s: BookingSalon) {
  return call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
    startTime: at(localDay(3), '11:00'),
    items: [{ serviceId: s.serviceId }],
    customer: { name: 'Kari', phone: uniquePhone() },
  });
}

async function listed(slug: string): Promise<boolean> {
  const res = await call('get', `/public/tenants?search=${slug}`);
  return res.body.data.some((t: { slug: string }) => t.slug === slug);
}

describe('the subscription gate', function () {
  this.timeout(60_000);
  before(() => activateSandbox());

  it('when the trial lapsed then staff writes get 402 SUBSCRIPTION_REQUIRED and nothing is written, while reads still work', async () => {
    const s = await lapsedTrial();
    const res = await call('post', '/services', s.owner.token, { name: 'Nytt', duration: 30, price: 10000 });
    expect(res.status).to.equal(402);
    expect(res.body.error.code).to.equal('SUBSCRIPTION_REQUIRED');
    expect((await call('patch', `/services/${s.serviceId}`, s.owner.token, { name: 'x' })).status).to.equal(402);
    expect((await call('delete', `/services/${s.serviceId}`, s.owner.token)).status).to.equal(402);
    expect((await call('get', '/services', s.owner.token)).status).to.equal(200);
    expect((await call('get', '/subscription', s.owner.token)).body.data.writesBlocked).to.equal(true);
    const { platform } = await stack();
    expect(await platform.knex('services').where({ tenantId: s.tenant.id })).to.have.length(1);
  });

  it('when the subscription is EXPIRED then writes are 402 too, but checkout and auth routes stay open', async () => {
    const s = await expired();
    expect((await call('post', '/services', s.owner.token, { name: 'Nytt', duration: 30, price: 10000 })).status).to.equal(402);
    const checkout = await call('post', '/subscription/checkout', s.owner.token, { planKey: 'start' });
    expect(checkout.status, JSON.stringify(checkout.body)).to.equal(200);
    expect(checkout.body.data.trialDays).to.equal(0);
    expect(
      (await call('post', '/auth/change-password', s.owner.token, { currentPassword: 'wrong-password', newPassword: 'new-password-1' })).status,
    ).to.not.equal(402);
    expect((await call('post', '/auth/logout', s.owner.token, {})).status).to.not.equal(402);
  });

  it('when the salon lapsed then public booking creation is 409 TENANT_NOT_ACCEPTING_BOOKINGS, the profile says acceptingBookings false, and the salon leaves /public/tenants', async () => {
    for (const s of [await lapsedTrial(), await expired()]) {
      const res = await guestBooking(s);
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('TENANT_NOT_ACCEPTING_BOOKINGS');
      const profile = await call('get', `/public/tenants/${s.tenant.slug}`);
      expect(profile.body.data.acceptingBookings).to.equal(false);
      expect(profile.body.data).to.not.have.property('subscriptionStatus');
      expect(await listed(s.tenant.slug)).to.equal(false);
    }
  });

  it('when the subscription is PAST_DUE or CANCELED, or the trial still runs, then the salon stays open for writes and bookings', async () => {
    for (const s of [
      await salonIn({ status: 'PAST_DUE', providerSubId: unique('sub') }),
      await salonIn({ status: 'CANCELED', providerSubId: unique('sub') }),
      await salonIn({ status: 'ACTIVE', trialEndsAt: new Date(Date.now() + DAY) }),
    ]) {
      expect((await call('post', '/services', s.owner.token, { name: unique('svc'), duration: 30, price: 10000 })).status).to.equal(201);
      expect((await guestBooking(s)).status).to.equal(201);
      expect((await call('get', `/public/tenants/${s.tenant.slug}`)).body.data.acceptingBookings).to.equal(true);
      expect(await listed(s.tenant.slug)).to.equal(true);
    }
  });

  it('when a freshly registered salon writes then its trial lets it', async () => {
    const salon = await registerSalon();
    expect((await call('post', '/services', salon.token, { name: 'Dameklipp', duration: 60, price: 69900 })).status).to.equal(201);
  });

  it('when the platform admin grants billing-exempt then a lapsed salon is open again (audit-logged); revoking closes it', async () => {
    const s = await expired();
    const admin = await platformAdmin();
    const grant = await call('patch', `/superadmin/tenants/${s.tenant.id}/billing-exempt`, admin.token, { billingExempt: true });
    expect(grant.status).to.equal(200);
    expect(grant.body.data).to.include({ billingExempt: true, writesBlocked: false, status: 'EXPIRED' });
    expect((await call('post', '/services', s.owner.token, { name: 'Fri', duration: 30, price: 0 })).status).to.equal(201);
    expect((await guestBooking(s)).status).to.equal(201);
    expect(await listed(s.tenant.slug)).to.equal(true);
    const revoke = await call('patch', `/superadmin/tenants/${s.tenant.id}/billing-exempt`, admin.token, { billingExempt: false });
    expect(revoke.body.data.writesBlocked).to.equal(true);
    expect((await call('post', '/services', s.owner.token, { name: 'Stengt', duration: 30, price: 0 })).status).to.equal(402);
    const { platform } = await stack();
    const audit = await platform.knex('platform_audit_logs').where({ tenantId: s.tenant.id }).orderBy('createdAt');
    expect(audit.map((a: { action: string; adminUserId: string }) => [a.action, a.adminUserId])).to.deep.equal([
      ['BILLING_EXEMPT_GRANTED', admin.id],
      ['BILLING_EXEMPT_REVOKED', admin.id],
    ]);
  });

  it('when billing-exempt is set by a non-admin or for an unknown tenant then 403 / 404 TENANT_NOT_FOUND', async () => {
    const s = await expired();
    expect((await call('patch', `/superadmin/tenants/${s.tenant.id}/billing-exempt`, s.owner.token, { billingExempt: true })).status).to.equal(403);
    const admin = await platformAdmin();
    const missing = await call('patch', `/superadmin/tenants/00000000-0000-4000-8000-000000000000/billing-exempt`, admin.token, { billingExempt: true });
    expect(missing.status).to.equal(404);
    expect(missing.body.error.code).to.equal('TENANT_NOT_FOUND');
  });
});
