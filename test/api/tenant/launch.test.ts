// A new salon, set up through the API only as a new owner would (docs/rules/salon.md#launch): it is
// neither listed nor bookable until it launches; the review step lists what blocks the launch, and
// the launch is refused while anything does. And the salon's contact (docs/rules/salon.md#tenant).
import { expect } from 'chai';
import { call } from '../../support/http';
import { unique } from '../../support/factories';
import { at, localDay } from '../../support/booking-fixtures';
import { stack } from '../../support/stack';

async function register() {
  const slug = unique('ny-salong');
  const res = await call('post', '/auth/register', undefined, {
    salonName: `Ny ${slug}`,
    slug,
    email: `${unique('eier')}@example.test`,
    password: 'owner-password-1',
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { slug, token: res.body.data.accessToken as string, tenantId: res.body.data.tenant.id as string };
}

const codesOf = (list: { code?: string; field?: string }[]) => list.map((b) => b.code ?? b.field);

describe('launching a salon', () => {
  it('when a new owner registers then the salon is not listed nor bookable online, and finishing onboarding with no services and no staff is 422 TENANT_LAUNCH_BLOCKED listing both', async () => {
    const salon = await register();
    const profile = await call('get', `/public/tenants/${salon.slug}`);
    expect(profile.body.data.acceptingBookings).to.equal(false);
    const listed = await call('get', `/public/tenants?search=${salon.slug}`);
    expect(listed.body.data).to.deep.equal([]);
    const review = await call('get', '/tenants/me/onboarding', salon.token);
    expect(codesOf(review.body.data.launchBlockers)).to.deep.equal(['NO_BOOKABLE_SERVICE', 'NO_READY_STAFF']);
    expect(review.body.data.launchedAt).to.equal(null);
    const launch = await call('post', '/tenants/me/onboarding/complete', salon.token);
    expect(launch.status, JSON.stringify(launch.body)).to.equal(422);
    expect(launch.body.error.code).to.equal('TENANT_LAUNCH_BLOCKED');
    expect(codesOf(launch.body.error.details)).to.deep.equal(['NO_BOOKABLE_SERVICE', 'NO_READY_STAFF']);
    const row = await (await stack()).platform.knex('tenants').where({ id: salon.tenantId }).first('onboardedAt', 'launchedAt');
    expect(row).to.deep.equal({ onboardedAt: null, launchedAt: null });
  });

  it('when the owner adds a service and a staff member with a schedule and the skill then the launch succeeds, and the salon is listed and takes a booking', async () => {
    const salon = await register();
    const service = await call('post', '/services', salon.token, { name: 'Klipp', duration: 30, price: 45000 });
    expect(service.status, JSON.stringify(service.body)).to.equal(201);
    const staff = await call('post', '/resources', salon.token, { name: 'Ingrid', serviceIds: [service.body.data.id] });
    expect(staff.status, JSON.stringify(staff.body)).to.equal(201);
    const halfway = await call('post', '/tenants/me/onboarding/complete', salon.token);
    expect(codesOf(halfway.body.error.details), 'a staff member without a schedule is not ready').to.deep.equal(['NO_READY_STAFF']);
    const week = [1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: '09:00', endTime: '15:00' }));
    expect((await call('post', `/resources/${staff.body.data.id}/schedules/bulk`, salon.token, { schedules: week })).status).to.equal(201);
    const launched = await call('post', '/tenants/me/onboarding/complete', salon.token);
    expect(launched.status, JSON.stringify(launched.body)).to.equal(200);
    expect(launched.body.data.launchBlockers).to.deep.equal([]);
    expect(launched.body.data.launchedAt).to.be.a('string');
    expect((await call('get', `/public/tenants/${salon.slug}`)).body.data.acceptingBookings).to.equal(true);
    expect((await call('get', `/public/tenants?search=${salon.slug}`)).body.data.map((t: { slug: string }) => t.slug)).to.deep.equal([salon.slug]);
    let day = localDay(2);
    while (new Date(`${day}T12:00:00Z`).getUTCDay() === 0) day = localDay(3);
    const booked = await call('post', `/public/tenants/${salon.slug}/bookings`, undefined, {
      startTime: at(day, '10:00'),
      items: [{ serviceId: service.body.data.id }],
      customer: { name: 'Kari', phone: '+4791234567' },
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
  });

  it('when a salon that has not launched is booked online then 409 TENANT_NOT_ACCEPTING_BOOKINGS and its availability is refused the same', async () => {
    const salon = await register();
    const service = await call('post', '/services', salon.token, { name: 'Klipp', duration: 30, price: 45000 });
    const booking = await call('post', `/public/tenants/${salon.slug}/bookings`, undefined, {
      startTime: at(localDay(2), '10:00'),
      items: [{ serviceId: service.body.data.id }],
      customer: { name: 'Kari', phone: '+4791234567' },
    });
    expect([booking.status, booking.body.error.code]).to.deep.equal([409, 'TENANT_NOT_ACCEPTING_BOOKINGS']);
    const slots = await call('get', `/public/tenants/${salon.slug}/availability?serviceIds=${service.body.data.id}&date=${localDay(2)}`);
    expect([slots.status, slots.body.error.code]).to.deep.equal([409, 'TENANT_NOT_ACCEPTING_BOOKINGS']);
  });

  it('when deposits are on without an active payment configuration, or at 0, then the review lists it and the launch is refused for it', async () => {
    const salon = await register();
    const patched = await call('patch', `/tenants/${salon.tenantId}`, salon.token, { settings: { depositEnabled: true, depositValue: 0 } });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    const review = await call('get', '/tenants/me/onboarding', salon.token);
    expect(codesOf(review.body.data.launchBlockers)).to.include.members(['DEPOSIT_WITHOUT_PAYMENT_CONFIG', 'DEPOSIT_ZERO']);
    const launch = await call('post', '/tenants/me/onboarding/complete', salon.token);
    expect(codesOf(launch.body.error.details)).to.include.members(['DEPOSIT_WITHOUT_PAYMENT_CONFIG', 'DEPOSIT_ZERO']);
  });
});

describe("the salon's contact", () => {
  it('when the owner sets a contact phone as typed and an e-mail then they are stored in E.164 and lower case and shown on the public profile; one that is no number is 400 naming contactPhone', async () => {
    const salon = await register();
    const res = await call('patch', `/tenants/${salon.tenantId}`, salon.token, { contactPhone: '22 33 44 55', contactEmail: 'Post@Salong.NO' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.include({ contactPhone: '+4722334455', contactEmail: 'post@salong.no' });
    const profile = await call('get', `/public/tenants/${salon.slug}`);
    expect(profile.body.data).to.include({ contactPhone: '+4722334455', contactEmail: 'post@salong.no' });
    const review = await call('get', '/tenants/me/onboarding', salon.token);
    expect(codesOf(review.body.data.warnings)).not.to.include('SALON_CONTACT_MISSING');
    expect((await call('get', '/tenants/me', salon.token)).body.data).to.include({ contactPhone: '+4722334455', contactEmail: 'post@salong.no' });
    expect((await call('get', `/tenants/slug/${salon.slug}`)).body.data).to.include({ contactPhone: '+4722334455', contactEmail: 'post@salong.no' });
    const bad = await call('patch', `/tenants/${salon.tenantId}`, salon.token, { contactPhone: '12' });
    expect([bad.status, bad.body.error.details?.[0]?.field]).to.deep.equal([400, 'contactPhone']);
    const badEmail = await call('patch', `/tenants/${salon.tenantId}`, salon.token, { contactEmail: 'no-at-sign' });
    expect([badEmail.status, badEmail.body.error.code, badEmail.body.error.details?.[0]?.field]).to.deep.equal([400, 'VALIDATION_ERROR', 'contactEmail']);
    expect((await call('get', '/tenants/me', salon.token)).body.data.contactEmail, 'a refused change keeps the stored one').to.equal('post@salong.no');
    const cleared = await call('patch', `/tenants/${salon.tenantId}`, salon.token, { contactPhone: null });
    expect(cleared.body.data.contactPhone).to.equal(null);
  });
});
