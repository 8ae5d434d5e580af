import { expect } from 'chai';
import { call, http } from '../../support/http';
import { stack } from '../../support/stack';
import { createAdmin, createSalon, createUser, unique, type TestUser } from '../../support/factories';
import { impersonationToken } from '../../support/salon-roles';
import { defaultBusinessHours } from '../../../domain/tenant/tenant-settings.rules';
import { png, uploadAs } from '../../support/upload-files';

let admin: TestUser;
// Each suite signs its admin in when it starts (a root hook would run first of the whole run, and
// its token could expire before these suites run).
async function signInAdmin(this: Mocha.Context): Promise<void> {
  this.timeout(120_000);
  admin = await createAdmin();
}

const fields = (res: { body: { error: { details?: { field: string }[] } } }) => (res.body.error.details ?? []).map((d) => d.field);

describe('Tenants: GET /tenants and POST /tenants (ADMIN)', () => {
  before(signInAdmin);
  it('when the admin lists tenants then a page with meta comes back, newest first by default', async () => {
    const a = await createSalon();
    const b = await createSalon();
    const res = await call('get', '/tenants?limit=100', admin.token);
    expect(res.status).to.equal(200);
    expect(res.body.meta).to.include({ page: 1, limit: 100 });
    expect(res.body.meta.total).to.be.at.least(2);
    const ids = res.body.data.map((t: { id: string }) => t.id);
    expect(ids.indexOf(b.tenant.id)).to.be.lessThan(ids.indexOf(a.tenant.id));
    const asc = await call('get', '/tenants?limit=1&page=1&order=asc', admin.token);
    expect(asc.body.data).to.have.length(1);
    expect(asc.body.meta.totalPages).to.equal(asc.body.meta.total);
  });

  it('when paging is out of range then limit 101 and page 0 are rejected; limit 100 is accepted; a page past the end is empty', async () => {
    expect((await call('get', '/tenants?limit=100', admin.token)).status).to.equal(200);
    const over = await call('get', '/tenants?limit=101', admin.token);
    expect(over.status).to.equal(400);
    expect(over.body.error.code).to.equal('VALIDATION_ERROR');
    expect(fields(over)).to.include('limit');
    const zero = await call('get', '/tenants?page=0', admin.token);
    expect(zero.status).to.equal(400);
    expect(fields(zero)).to.include('page');
    expect((await call('get', '/tenants?limit=abc', admin.token)).status).to.equal(400);
    expect((await call('get', '/tenants?sortBy=name', admin.token)).status).to.equal(400);
    const past = await call('get', '/tenants?page=100000', admin.token);
    expect(past.status).to.equal(200);
    expect(past.body.data).to.deep.equal([]);
  });

  it('when an OWNER or STAFF lists or creates tenants then 403; without a token 401', async () => {
    const { tenant, owner } = await createSalon();
    const staff = await createUser(tenant.id, 'STAFF');
    for (const token of [owner.token, staff.token]) {
      expect((await call('get', '/tenants', token)).status).to.equal(403);
      expect((await call('post', '/tenants', token, { name: 'X', slug: unique('x'), owner: { email: 'x@example.test', password: '123456' } })).status).to.equal(
        403,
      );
    }
    expect((await call('get', '/tenants')).status).to.equal(401);
    expect(
      (await call('post', '/tenants', undefined, { name: 'X', slug: unique('x'), owner: { email: 'x@example.test', password: '123456' } })).status,
    ).to.equal(401);
    // authentication is checked before the body: no token and a bad body is still 401
    const anonymousBadBody = await call('post', '/tenants', undefined, { unknownField: true });
    expect(anonymousBadBody.status).to.equal(401);
    expect(anonymousBadBody.body.error.code).to.equal('UNAUTHORIZED');
  });

  it('when the admin creates a tenant then tenant (complete nail defaults + given settings) and its OWNER are created; the owner can log in', async () => {
    const slug = unique('nails');
    const email = `${unique('o')}@example.test`;
    const res = await call('post', '/tenants', admin.token, {
      name: 'Nail Bar',
      slug,
      industryType: 'nail',
      settings: { timezone: 'America/New_York', currency: 'USD' },
      owner: { email, password: 'owner-password', name: 'Nina' },
    });
    expect(res.status).to.equal(201);
    expect(res.body.data.tenant).to.include({ slug, name: 'Nail Bar', industryType: 'nail', onboardedAt: null });
    expect(res.body.data.tenant.settings).to.include({ timezone: 'America/New_York', currency: 'USD', autoConfirm: false, cancellationHours: 24 });
    expect(res.body.data.owner).to.include({ role: 'OWNER', email, tenantId: res.body.data.tenant.id, name: 'Nina' });
    const login = await call('post', '/auth/login', undefined, { email, password: 'owner-password', tenantSlug: slug });
    expect(login.status).to.equal(200);
  });

  it('when the slug is taken then 409 TENANT_SLUG_EXISTS', async () => {
    const { tenant } = await createSalon();
    const res = await call('post', '/tenants', admin.token, {
      name: 'Dup',
      slug: tenant.slug,
      owner: { email: `${unique('o')}@example.test`, password: 'owner-password' },
    });
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('TENANT_SLUG_EXISTS');
  });

  it('when the create body is bad then 400 with the failing fields', async () => {
    const base = { name: 'X', slug: unique('x'), owner: { email: `${unique('o')}@example.test`, password: 'owner-password' } };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, owner: undefined }, 'owner'],
      [{ ...base, industryType: 'spa' }, 'industryType'],
      [{ ...base, extra: 1 }, 'extra'],
      [{ ...base, owner: { ...base.owner, role: 'ADMIN' } }, 'owner.role'],
      [{ ...base, settings: { maxBookingDaysInAdvance: 366 } }, 'settings.maxBookingDaysInAdvance'],
      [{ ...base, settings: { currency: 'XXQ' } }, 'settings.currency'],
    ];
    for (const [body, field] of cases) {
      const res = await call('post', '/tenants', admin.token, body);
      expect(res.status, field).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(fields(res), field).to.include(field);
    }
  });
});

describe('Tenants: GET /tenants/:id, /tenants/me, /tenants/slug/:slug', () => {
  before(signInAdmin);
  it('when OWNER and STAFF read their own tenant by id and by /me then they get it; ADMIN reads any', async () => {
    const { tenant, owner } = await createSalon();
    const staff = await createUser(tenant.id, 'STAFF');
    for (const token of [owner.token, staff.token, admin.token]) {
      const res = await call('get', `/tenants/${tenant.id}`, token);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ id: tenant.id, slug: tenant.slug });
      expect(res.body.data.settings.businessHours).to.have.length(7);
    }
    for (const token of [owner.token, staff.token]) {
      const me = await call('get', '/tenants/me', token);
      expect(me.status).to.equal(200);
      expect(me.body.data.id).to.equal(tenant.id);
    }
  });

  it('when the admin asks /tenants/me then 403 with its own token, with or without x-tenant-id, and the tenant when impersonating its owner', async () => {
    const { tenant } = await createSalon();
    expect((await call('get', '/tenants/me', admin.token)).status).to.equal(403);
    const own = await (await http()).get('/api/tenants/me').set('Authorization', `Bearer ${admin.token}`).set('x-tenant-id', tenant.id);
    expect(own.status).to.equal(403);
    const res = await call('get', '/tenants/me', await impersonationToken(admin, tenant.id));
    expect(res.status).to.equal(200);
    expect(res.body.data.id).to.equal(tenant.id);
  });

  it('when an id is unknown or not a uuid then 404 TENANT_NOT_FOUND / 400', async () => {
    const res = await call('get', '/tenants/00000000-0000-4000-8000-000000000000', admin.token);
    expect(res.status).to.equal(404);
    expect(res.body.error.code).to.equal('TENANT_NOT_FOUND');
    expect((await call('get', '/tenants/not-a-uuid', admin.token)).status).to.equal(400);
    expect((await call('get', `/tenants/${(await createSalon()).tenant.id}`)).status).to.equal(401);
  });

  it('when anyone resolves a slug then the public profile comes back without private settings and without a token', async () => {
    const { tenant } = await createSalon({ settings: { posEnabled: true, depositEnabled: true, depositValue: 25 } });
    const res = await call('get', `/tenants/slug/${tenant.slug}`);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ id: tenant.id, slug: tenant.slug, name: tenant.name });
    expect(res.body.data.settings).to.include({ currency: 'NOK', timezone: 'Europe/Oslo', depositEnabled: true, depositValue: 25 });
    expect(res.body.data.settings).to.not.have.any.keys('posEnabled', 'walkInEnabled', 'allowDoubleBooking', 'autoConfirm', 'organizationName');
    expect(res.body.data).to.not.have.any.keys('subscriptionStatus', 'billingExempt', 'customDomain', 'onboardedAt');
  });

  it('when the slug is unknown, malformed, or the tenant inactive then 404 / 400', async () => {
    const missing = await call('get', `/tenants/slug/${unique('ghost')}`);
    expect(missing.status).to.equal(404);
    expect(missing.body.error.code).to.equal('TENANT_NOT_FOUND');
    expect((await call('get', '/tenants/slug/Not_A_Slug')).status).to.equal(400);
    const { tenant } = await createSalon();
    await (await stack()).platform.knex('tenants').where({ id: tenant.id }).update({ isActive: false });
    expect((await call('get', `/tenants/slug/${tenant.slug}`)).status).to.equal(404);
  });
});

describe('Tenants: PATCH /tenants/:id', () => {
  before(signInAdmin);
  it('when the owner sends nested partial settings then they are merged onto the stored settings', async () => {
    const { tenant, owner } = await createSalon();
    const res = await call('patch', `/tenants/${tenant.id}`, owner.token, { name: 'Renamed', settings: { cancellationHours: 12 } });
    expect(res.status).to.equal(200);
    expect(res.body.data.name).to.equal('Renamed');
    expect(res.body.data.settings).to.include({ cancellationHours: 12, currency: 'NOK', timezone: 'Europe/Oslo', autoConfirm: false });
    const stored = await (await stack()).platform.knex('tenants').where({ id: tenant.id }).first();
    expect(stored.settings.cancellationHours).to.equal(12);
    expect(Object.keys(stored.settings).sort()).to.deep.equal(Object.keys(tenant.settings).sort());
  });

  it('when numeric settings are at the limits then they pass; one past gives 400', async () => {
    const { tenant, owner } = await createSalon();
    const ok = [
      { cancellationHours: 0 },
      { cancellationHours: 168 },
      { maxBookingDaysInAdvance: 1 },
      { maxBookingDaysInAdvance: 365 },
      { depositType: 'percentage', depositValue: 0 },
      { depositType: 'percentage', depositValue: 100 },
      { depositType: 'fixed', depositValue: 50000 },
    ];
    for (const settings of ok) expect((await call('patch', `/tenants/${tenant.id}`, owner.token, { settings })).status, JSON.stringify(settings)).to.equal(200);
    const bad: [Record<string, unknown>, string][] = [
      [{ cancellationHours: -1 }, 'settings.cancellationHours'],
      [{ cancellationHours: 169 }, 'settings.cancellationHours'],
      [{ maxBookingDaysInAdvance: 0 }, 'settings.maxBookingDaysInAdvance'],
      [{ maxBookingDaysInAdvance: 366 }, 'settings.maxBookingDaysInAdvance'],
      [{ depositType: 'percentage', depositValue: 101 }, 'settings.depositValue'],
      [{ depositValue: -1 }, 'settings.depositValue'],
      [{ currency: 'nok' }, 'settings.currency'],
      [{ currency: 'ABC' }, 'settings.currency'],
      [{ timezone: 'Europe/Atlantis' }, 'settings.timezone'],
      [{ timezone: 'europe/oslo' }, 'settings.timezone'],
      [{ bookingMode: 'anyone' }, 'settings.bookingMode'],
      [{ unknownSetting: true }, 'settings.unknownSetting'],
    ];
    for (const [settings, field] of bad) {
      const res = await call('patch', `/tenants/${tenant.id}`, owner.token, { settings });
      expect(res.status, JSON.stringify(settings)).to.equal(400);
      expect(fields(res), JSON.stringify(settings)).to.include(field);
    }
  });

  it('when switching a percentage deposit of 100 to fixed 5000 then it passes, and back to percentage with 5000 fails', async () => {
    const { tenant, owner } = await createSalon();
    expect((await call('patch', `/tenants/${tenant.id}`, owner.token, { settings: { depositType: 'fixed', depositValue: 5000 } })).status).to.equal(200);
    const res = await call('patch', `/tenants/${tenant.id}`, owner.token, { settings: { depositType: 'percentage' } });
    expect(res.status).to.equal(400);
    expect(fields(res)).to.include('settings.depositValue');
  });

  it('when business hours have several slots per day then they are stored; overlaps, bad HH:mm, end before start, duplicate days, or not 7 days are rejected', async () => {
    const { tenant, owner } = await createSalon();
    const hours = defaultBusinessHours();
    hours[1] = {
      dayOfWeek: 1,
      isOpen: true,
      slots: [
        { startTime: '09:00', endTime: '12:00' },
        { startTime: '13:00', endTime: '18:30' },
      ],
    };
    const ok = await call('patch', `/tenants/${tenant.id}`, owner.token, { settings: { businessHours: hours } });
    expect(ok.status).to.equal(200);
    expect(ok.body.data.settings.businessHours[1].slots).to.have.length(2);

    const withDay = (day: unknown) => hours.map((d, i) => (i === 2 ? day : d));
    const cases: [unknown, string][] = [
      [
        withDay({
          dayOfWeek: 2,
          isOpen: true,
          slots: [
            { startTime: '09:00', endTime: '12:00' },
            { startTime: '11:00', endTime: '14:00' },
          ],
        }),
        'settings.businessHours[2].slots',
      ],
      [withDay({ dayOfWeek: 2, isOpen: true, slots: [{ startTime: '9:00', endTime: '12:00' }] }), 'settings.businessHours.2.slots.0.startTime'],
      [withDay({ dayOfWeek: 2, isOpen: true, slots: [{ startTime: '24:00', endTime: '12:00' }] }), 'settings.businessHours.2.slots.0.startTime'],
      [withDay({ dayOfWeek: 2, isOpen: true, slots: [{ startTime: '12:00', endTime: '11:00' }] }), 'settings.businessHours[2].slots[0].endTime'],
      [withDay({ dayOfWeek: 1, isOpen: true, slots: [{ startTime: '09:00', endTime: '12:00' }] }), 'settings.businessHours[2].dayOfWeek'],
      [withDay({ dayOfWeek: 2, isOpen: true, slots: [] }), 'settings.businessHours[2].slots'],
      [withDay({ dayOfWeek: 7, isOpen: true, slots: [] }), 'settings.businessHours.2.dayOfWeek'],
      [hours.slice(0, 6), 'settings.businessHours'],
    ];
    for (const [businessHours, field] of cases) {
      const res = await call('patch', `/tenants/${tenant.id}`, owner.token, { settings: { businessHours } });
      expect(res.status, field).to.equal(400);
      expect(fields(res), field).to.include(field);
    }
  });

  it('when branding, address and an HTML description are sent then colors are checked, branding merged and the HTML sanitized', async () => {
    const { tenant, owner } = await createSalon();
    const first = await call('patch', `/tenants/${tenant.id}`, owner.token, { branding: { primaryColor: '#AA00ff' } });
    expect(first.status).to.equal(200);
    const logoKey: string = (await uploadAs(owner.token, 'TENANT_LOGO', await png())).body.data.key;
    const res = await call('patch', `/tenants/${tenant.id}`, owner.token, {
      branding: { secondaryColor: '#000000', logoKey },
      address: { street: 'Storgata 1', city: 'Oslo', postalCode: '0155', country: 'NO', latitude: 59.91, longitude: 10.75 },
      description:
        '<p onclick="evil()">Hello <strong>world</strong><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a></p>',
    });
    expect(res.status).to.equal(200);
    expect(res.body.data.branding).to.deep.equal({ primaryColor: '#AA00ff', secondaryColor: '#000000', logoKey });
    expect(res.body.data.address).to.include({ city: 'Oslo', latitude: 59.91 });
    expect(res.body.data.description).to.equal('<p>Hello <strong>world</strong><a>x</a></p>');
    expect((await call('patch', `/tenants/${tenant.id}`, owner.token, { address: null })).body.data.address).to.equal(null);
    for (const body of [
      { branding: { primaryColor: 'red' } },
      { branding: { primaryColor: '#12345' } },
      { address: { latitude: 91 } },
      { address: { planet: 'Mars' } },
      { branding: { font: 'x' } },
    ]) {
      expect((await call('patch', `/tenants/${tenant.id}`, owner.token, body)).status, JSON.stringify(body)).to.equal(400);
    }
  });

  it('when the OWNER sends a slug then 403 FORBIDDEN and nothing changes; the ADMIN may change it (and gets 409 when taken)', async () => {
    const { tenant, owner } = await createSalon();
    const denied = await call('patch', `/tenants/${tenant.id}`, owner.token, { slug: unique('mine'), name: 'Changed?' });
    expect(denied.status).to.equal(403);
    expect(denied.body.error.code).to.equal('FORBIDDEN');
    const stored = await (await stack()).platform.knex('tenants').where({ id: tenant.id }).first();
    expect(stored).to.include({ slug: tenant.slug, name: tenant.name });
    const slug = unique('moved');
    const res = await call('patch', `/tenants/${tenant.id}`, admin.token, { slug });
    expect(res.status).to.equal(200);
    expect(res.body.data.slug).to.equal(slug);
    const other = await createSalon();
    const taken = await call('patch', `/tenants/${tenant.id}`, admin.token, { slug: other.tenant.slug });
    expect(taken.status).to.equal(409);
    expect(taken.body.error.code).to.equal('TENANT_SLUG_EXISTS');
  });

  it('when applyToStaff is sent then the update succeeds (the staff-schedule hook runs inside the transaction)', async () => {
    const { tenant, owner } = await createSalon();
    const res = await call('patch', `/tenants/${tenant.id}`, owner.token, { applyToStaff: true, settings: { businessHours: defaultBusinessHours() } });
    expect(res.status).to.equal(200);
    expect((await call('patch', `/tenants/${tenant.id}`, owner.token, { applyToStaff: 'maybe' })).status).to.equal(400);
  });

  it('when the body is empty, has unknown fields or wrong types, or the name is over 200 chars then 400', async () => {
    const { tenant, owner } = await createSalon();
    for (const body of [{}, { onboardedAt: '2020-01-01T00:00:00.000Z' }, { name: { x: 1 } }, { name: 'x'.repeat(201) }, { industryType: 'spa' }]) {
      const res = await call('patch', `/tenants/${tenant.id}`, owner.token, body);
      expect(res.status, JSON.stringify(body).slice(0, 50)).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    }
    expect((await call('patch', `/tenants/${tenant.id}`, owner.token, { name: 'x'.repeat(200) })).status).to.equal(200);
  });

  it('when STAFF patches its own tenant then 403; without a token 401', async () => {
    const { tenant } = await createSalon();
    const staff = await createUser(tenant.id, 'STAFF');
    expect((await call('patch', `/tenants/${tenant.id}`, staff.token, { name: 'X' })).status).to.equal(403);
    expect((await call('patch', `/tenants/${tenant.id}`, undefined, { name: 'X' })).status).to.equal(401);
  });
});

describe('Tenants: onboarding (OWNER only)', () => {
  before(signInAdmin);
  it('when a new owner asks for the state then 7 steps come back, none completed, and the warnings list what blocks the launch and the missing contact', async () => {
    const { owner } = await createSalon();
    const res = await call('get', '/tenants/me/onboarding', owner.token);
    expect(res.status).to.equal(200);
    expect(res.body.data.steps.map((s: { key: string }) => s.key)).to.deep.equal([
      'welcome',
      'salon_info',
      'business_hours',
      'services',
      'staff',
      'booking_policy',
      'review_launch',
    ]);
    expect(res.body.data).to.deep.include({ currentStep: 0, completedSteps: [], isComplete: false, onboardedAt: null });
    expect(res.body.data.launchBlockers.map((b: { code: string }) => b.code)).to.deep.equal(['NO_BOOKABLE_SERVICE', 'NO_READY_STAFF']);
    expect(res.body.data.warnings.map((w: { code: string }) => w.code)).to.deep.equal(['NO_BOOKABLE_SERVICE', 'NO_READY_STAFF', 'SALON_CONTACT_MISSING']);
  });

  it('when steps are marked done then progress moves forward, and going back is ignored (200, unchanged)', async () => {
    const { owner } = await createSalon();
    const one = await call('patch', '/tenants/me/onboarding/step', owner.token, { step: 'welcome' });
    expect(one.body.data).to.deep.include({ currentStep: 1, completedSteps: ['welcome'] });
    const three = await call('patch', '/tenants/me/onboarding/step', owner.token, { step: 'business_hours' });
    expect(three.body.data).to.deep.include({ currentStep: 3, completedSteps: ['welcome', 'salon_info', 'business_hours'] });
    const back = await call('patch', '/tenants/me/onboarding/step', owner.token, { step: 'salon_info' });
    expect(back.status).to.equal(200);
    expect(back.body.data.currentStep).to.equal(3);
    const same = await call('patch', '/tenants/me/onboarding/step', owner.token, { step: 'business_hours' });
    expect(same.body.data.currentStep).to.equal(3);
    const state = await call('get', '/tenants/me/onboarding', owner.token);
    expect(state.body.data.steps.filter((s: { completed: boolean }) => s.completed)).to.have.length(3);
  });

  it('when deposits are enabled (no payment configuration exists yet) then a warning is reported', async () => {
    const { owner } = await createSalon({ settings: { depositEnabled: true, depositValue: 20 } });
    const res = await call('get', '/tenants/me/onboarding', owner.token);
    expect(res.body.data.warnings.map((w: { code: string }) => w.code)).to.include('DEPOSIT_WITHOUT_PAYMENT_CONFIG');
    expect(res.body.data.launchBlockers.map((w: { code: string }) => w.code)).to.include('DEPOSIT_WITHOUT_PAYMENT_CONFIG');
  });

  it('when onboarding is completed then onboardedAt is set once, all steps are done, and the tenant shows it', async () => {
    const { tenant, owner } = await createSalon();
    const res = await call('post', '/tenants/me/onboarding/complete', owner.token);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ isComplete: true, currentStep: 7 });
    expect(res.body.data.completedSteps).to.have.length(7);
    const onboardedAt = res.body.data.onboardedAt;
    expect(new Date(onboardedAt).getTime()).to.be.closeTo(Date.now(), 10_000);
    const again = await call('post', '/tenants/me/onboarding/complete', owner.token);
    expect(again.body.data.onboardedAt).to.equal(onboardedAt);
    expect((await call('get', `/tenants/${tenant.id}`, owner.token)).body.data.onboardedAt).to.equal(onboardedAt);
  });

  it('when ADMIN or STAFF use onboarding then 403; without a token 401; a bad step is 400', async () => {
    const { tenant, owner } = await createSalon();
    const staff = await createUser(tenant.id, 'STAFF');
    for (const token of [admin.token, staff.token]) {
      expect((await call('get', '/tenants/me/onboarding', token)).status).to.equal(403);
      expect((await call('patch', '/tenants/me/onboarding/step', token, { step: 'welcome' })).status).to.equal(403);
      expect((await call('post', '/tenants/me/onboarding/complete', token)).status).to.equal(403);
    }
    expect((await call('get', '/tenants/me/onboarding')).status).to.equal(401);
    expect((await call('patch', '/tenants/me/onboarding/step', undefined, { step: 'welcome' })).status).to.equal(401);
    expect((await call('post', '/tenants/me/onboarding/complete')).status).to.equal(401);
    for (const body of [{ step: 'launch_party' }, {}, { step: 'welcome', extra: 1 }, { step: 3 }]) {
      const res = await call('patch', '/tenants/me/onboarding/step', owner.token, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
    }
  });
});
