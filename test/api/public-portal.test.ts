import { expect } from 'chai';
import { call } from '../support/http';
import { stack } from '../support/stack';
import { createSalon, unique } from '../support/factories';
import { addService, addStaff, at, bookingSalon, knex, localDay, ALL_WEEK } from '../support/booking-fixtures';
import type { RecordingSignaller } from '../support/recording-signaller';

const guest = (over: Record<string, unknown> = {}) => ({ name: 'Ola Gjest', phone: '+47 955 55 555', email: 'ola@example.no', ...over });

describe('public booking portal', () => {
  describe('GET /public/tenants', () => {
    it('when searching by part of the name or slug then matching active salons are listed, inactive ones never', async () => {
      const tag = unique('zq').replace('-', '');
      const a = await createSalon({ name: `Studio ${tag} Alfa` });
      const b = await createSalon({ name: `Studio ${tag} Beta` });
      const hidden = await createSalon({ name: `Studio ${tag} Closed` });
      const db = await knex();
      await db('tenants').where({ id: hidden.tenant.id }).update({ isActive: false });
      const res = await call('get', `/public/tenants?search=${tag}`);
      expect(res.status).to.equal(200);
      expect(res.body.data.map((t: { id: string }) => t.id)).to.deep.equal([a.tenant.id, b.tenant.id]);
      expect(res.body.data[0]).to.have.keys(['id', 'name', 'slug', 'industryType', 'description', 'address', 'branding']);
      const bySlug = await call('get', `/public/tenants?search=${b.tenant.slug}`);
      expect(bySlug.body.data.map((t: { id: string }) => t.id)).to.deep.equal([b.tenant.id]);
      const page = await call('get', `/public/tenants?search=${tag}&limit=1&page=2`);
      expect(page.body.data.map((t: { id: string }) => t.id)).to.deep.equal([b.tenant.id]);
      expect(page.body.meta).to.deep.equal({ total: 2, page: 2, limit: 1, totalPages: 2 });
    });

    it('when the query is bad then 400 (limit 101, unknown parameter, search too long)', async () => {
      for (const q of ['limit=101', 'foo=bar', `search=${'a'.repeat(101)}`]) {
        const res = await call('get', `/public/tenants?${q}`);
        expect(res.status, q).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
    });
  });

  describe('GET /public/tenants/:slug', () => {
    it('when the salon is active then the profile says acceptingBookings true and shows only public settings', async () => {
      const s = await createSalon({ industry: 'barbershop' });
      const res = await call('get', `/public/tenants/${s.tenant.slug}`);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ id: s.tenant.id, slug: s.tenant.slug, acceptingBookings: true, industryType: 'barbershop' });
      expect(res.body.data.settings).to.include({ timezone: 'Europe/Oslo', currency: 'NOK', cancellationHours: 2, autoConfirm: true });
      expect(res.body.data.settings).to.not.have.property('depositValue');
    });

    it('when the salon is inactive then acceptingBookings is false; unknown slug 404; malformed slug 400', async () => {
      const s = await createSalon();
      const db = await knex();
      await db('tenants').where({ id: s.tenant.id }).update({ isActive: false });
      expect((await call('get', `/public/tenants/${s.tenant.slug}`)).body.data.acceptingBookings).to.equal(false);
      const missing = await call('get', `/public/tenants/${unique('none')}`);
      expect(missing.status).to.equal(404);
      expect(missing.body.error.code).to.equal('TENANT_NOT_FOUND');
      expect((await call('get', '/public/tenants/Not_A_Slug')).status).to.equal(400);
    });
  });

  describe('GET /public/tenants/:slug/services and /resources', () => {
    it('when the catalogue has categories then active services come grouped by category sortOrder, uncategorised last', async () => {
      const s = await createSalon();
      const db = await knex();
      const [late] = await db('service_categories').insert({ tenantId: s.tenant.id, name: 'Farge', sortOrder: 2 }).returning('id');
      const [early] = await db('service_categories').insert({ tenantId: s.tenant.id, name: 'Klipp', sortOrder: 1 }).returning('id');
      await db('service_categories').insert({ tenantId: s.tenant.id, name: 'Empty', sortOrder: 0 });
      const c2 = await addService(s.tenant.id, { name: 'Herreklipp', categoryId: early.id, sortOrder: 2 });
      const c1 = await addService(s.tenant.id, { name: 'Dameklipp', categoryId: early.id, sortOrder: 1 });
      const f = await addService(s.tenant.id, { name: 'Striper', categoryId: late.id });
      await addService(s.tenant.id, { name: 'Old', categoryId: late.id, isActive: false });
      const loose = await addService(s.tenant.id, { name: 'Vask' });
      const res = await call('get', `/public/tenants/${s.tenant.slug}/services`);
      expect(res.status).to.equal(200);
      const groups = res.body.data.map((g: { category: { name: string } | null; services: { id: string }[] }) => [g.category?.name ?? null, g.services.map((x) => x.id)]);
      expect(groups).to.deep.equal([
        ['Klipp', [c1.id, c2.id]],
        ['Farge', [f.id]],
        [null, [loose.id]],
      ]);
    });

    it('when resources are listed then only active, online-bookable ones; with serviceId only those with the skill', async () => {
      const s = await bookingSalon();
      const other = await addService(s.tenant.id);
      const specialist = await addStaff(s.tenant.id, [other.id], { sortOrder: 5 });
      await addStaff(s.tenant.id, [s.serviceId], { isBookableOnline: false });
      await addStaff(s.tenant.id, [s.serviceId], { isActive: false });
      const all = await call('get', `/public/tenants/${s.tenant.slug}/resources`);
      expect(all.body.data.map((r: { id: string }) => r.id)).to.deep.equal([s.staff[0].resourceId, specialist.resourceId]);
      const forService = await call('get', `/public/tenants/${s.tenant.slug}/resources?serviceId=${other.id}`);
      expect(forService.body.data.map((r: { id: string }) => r.id)).to.deep.equal([specialist.resourceId]);
      expect(forService.body.data[0].serviceIds).to.deep.equal([other.id]);
      const foreign = await bookingSalon();
      const r404 = await call('get', `/public/tenants/${s.tenant.slug}/resources?serviceId=${foreign.serviceId}`);
      expect(r404.status).to.equal(404);
      expect(r404.body.error.code).to.equal('SERVICE_NOT_FOUND');
      expect((await call('get', `/public/tenants/${s.tenant.slug}/resources?serviceId=nope`)).status).to.equal(400);
    });
  });

  describe('POST /public/tenants/:slug/bookings', () => {
    it('when a guest books then 201 PENDING (autoConfirm off) with a cancellation token, paymentRequired false, a contact snapshot and a customer found by phone', async () => {
      const s = await bookingSalon();
      const start = at(localDay(3), '10:00');
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
        startTime: start,
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: guest({ notes: 'first time' }),
      });
      expect(res.status).to.equal(201);
      const d = res.body.data;
      expect(d).to.include({ status: 'PENDING', startTime: start, paymentRequired: false, totalAmount: 50000, currency: 'NOK', customerName: 'Ola Gjest' });
      expect(d.cancellationToken).to.be.a('string').with.length.greaterThan(40);
      expect(d.items[0]).to.include({ resourceId: s.staff[0].resourceId });
      const db = await knex();
      const row = await db('bookings').where({ id: d.id }).first();
      expect(row).to.include({ source: 'ONLINE', isGuest: true, contactName: 'Ola Gjest', contactPhone: '+4795555555', contactEmail: 'ola@example.no', notes: 'first time' });
      expect(row.cancellationTokenHash).to.be.a('string').and.not.equal(d.cancellationToken);
      const customer = await db('customers').where({ id: row.customerId }).first();
      expect(customer.phone).to.equal('+4795555555');
      const sig = (await stack()).platform.deps.signaller as RecordingSignaller;
      expect(sig.sent.filter((x) => x.ref.workflowId === `booking:${d.id}`).map((x) => x.event)).to.deep.equal([{ type: 'BookingCreated', entityVersion: 1 }]);
    });

    it('when the phone belongs to an existing customer then the booking links to them without changing their name (not merged)', async () => {
      const s = await bookingSalon();
      const db = await knex();
      const [c] = await db('customers').insert({ tenantId: s.tenant.id, name: 'Kari Fast', phone: '+4795555555' }).returning('id');
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, { startTime: at(localDay(3), '12:00'), items: [{ serviceId: s.serviceId }], customer: guest({ name: 'Someone Else' }) });
      expect(res.status).to.equal(201);
      const row = await db('bookings').where({ id: res.body.data.id }).first();
      expect(row.customerId).to.equal(c.id);
      expect(row.contactName).to.equal('Someone Else');
      expect((await db('customers').where({ id: c.id }).first()).name).to.equal('Kari Fast');
    });

    it('when autoConfirm is on then the booking starts CONFIRMED', async () => {
      const s = await bookingSalon({ settings: { autoConfirm: true } });
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, { startTime: at(localDay(3), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() });
      expect(res.body.data.status).to.equal('CONFIRMED');
    });

    it('when bookingMode is assigned_only then a missing resourceId is 422 RESOURCE_REQUIRED; allow_unassigned accepts it', async () => {
      const s = await bookingSalon({ settings: { bookingMode: 'assigned_only' } });
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, { startTime: at(localDay(3), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('RESOURCE_REQUIRED');
      const open = await bookingSalon();
      const ok = await call('post', `/public/tenants/${open.tenant.slug}/bookings`, undefined, { startTime: at(localDay(3), '10:00'), items: [{ serviceId: open.serviceId }], customer: guest() });
      expect(ok.status).to.equal(201);
      expect(ok.body.data.items[0].resourceId).to.equal(null);
    });

    it('when the staff member is not bookable online then 422 RESOURCE_NOT_QUALIFIED; outside hours 422 RESOURCE_NOT_AVAILABLE; in the past 422 BOOKING_IN_PAST', async () => {
      const s = await bookingSalon();
      const hiddenStaff = await addStaff(s.tenant.id, [s.serviceId], { isBookableOnline: false });
      const url = `/public/tenants/${s.tenant.slug}/bookings`;
      const a = await call('post', url, undefined, { startTime: at(localDay(3), '10:00'), items: [{ serviceId: s.serviceId, resourceId: hiddenStaff.resourceId }], customer: guest() });
      expect(a.body.error.code).to.equal('RESOURCE_NOT_QUALIFIED');
      const b = await call('post', url, undefined, { startTime: at(localDay(3), '18:00'), items: [{ serviceId: s.serviceId }], customer: guest() });
      expect(b.status).to.equal(422);
      expect(b.body.error.code).to.equal('RESOURCE_NOT_AVAILABLE');
      const c = await call('post', url, undefined, { startTime: at(localDay(-1), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() });
      expect(c.body.error.code).to.equal('BOOKING_IN_PAST');
    });

    it('when the start is on the last bookable day then 201; the day after 422 DATE_BEYOND_BOOKING_WINDOW', async () => {
      const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 10 } });
      const url = `/public/tenants/${s.tenant.slug}/bookings`;
      expect((await call('post', url, undefined, { startTime: at(localDay(10), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() })).status).to.equal(201);
      const late = await call('post', url, undefined, { startTime: at(localDay(11), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() });
      expect(late.status).to.equal(422);
      expect(late.body.error.code).to.equal('DATE_BEYOND_BOOKING_WINDOW');
      expect(late.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal(['startTime']);
    });

    it('when the salon is inactive then 409 TENANT_NOT_ACCEPTING_BOOKINGS', async () => {
      const s = await bookingSalon();
      const db = await knex();
      await db('tenants').where({ id: s.tenant.id }).update({ isActive: false });
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, { startTime: at(localDay(3), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('TENANT_NOT_ACCEPTING_BOOKINGS');
    });

    it('when the body is bad then 400 (no customer, no phone, unknown field, bad email; a guest voucherCode is 422, see loyalty-vouchers.test.ts)', async () => {
      const s = await bookingSalon();
      const base = { startTime: at(localDay(3), '10:00'), items: [{ serviceId: s.serviceId }] };
      for (const body of [base, { ...base, customer: { name: 'A' } }, { ...base, customer: guest(), extra: 1 }, { ...base, customer: guest({ email: 'nope' }) }, { ...base, customer: guest({ name: '' }) }]) {
        const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
    });
  });

  describe('confirmation and self-cancel', () => {
    async function guestBooking(settings = {}, days = 5) {
      const s = await bookingSalon({ settings: { businessHours: ALL_WEEK, ...settings } });
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, { startTime: at(localDay(days), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() });
      expect(res.status).to.equal(201);
      return { s, id: res.body.data.id as string, token: res.body.data.cancellationToken as string };
    }

    it('when the token or the contact phone is given then the confirmation is shown; otherwise 404', async () => {
      const { s, id, token } = await guestBooking();
      const base = `/public/tenants/${s.tenant.slug}/bookings/${id}`;
      const byToken = await call('get', `${base}?token=${encodeURIComponent(token)}`);
      expect(byToken.status).to.equal(200);
      expect(byToken.body.data).to.include({ id, status: 'PENDING' });
      expect((await call('get', `${base}?phone=${encodeURIComponent('+47 95 55 55 55')}`)).status).to.equal(200);
      for (const q of ['', '?phone=%2B4711111111', `?token=${encodeURIComponent(token.slice(0, -2) + 'xx')}`]) {
        const res = await call('get', `${base}${q}`);
        expect(res.status, q).to.equal(404);
        expect(res.body.error.code).to.equal('BOOKING_NOT_FOUND');
      }
      const other = await guestBooking();
      expect((await call('get', `/public/tenants/${other.s.tenant.slug}/bookings/${id}?token=${encodeURIComponent(token)}`)).status).to.equal(404);
      expect((await call('get', `/public/tenants/${s.tenant.slug}/bookings/${other.id}?token=${encodeURIComponent(token)}`)).status).to.equal(404);
    });

    it('when the customer cancels inside the free window with the token then CANCELLED by CUSTOMER; again 409', async () => {
      const { s, id, token } = await guestBooking({ cancellationHours: 24 }, 5);
      const url = `/public/tenants/${s.tenant.slug}/bookings/${id}/cancel`;
      const res = await call('post', url, undefined, { token, reason: 'sick' });
      expect(res.status).to.equal(200);
      expect(res.body.data.status).to.equal('CANCELLED');
      const db = await knex();
      expect(await db('bookings').where({ id }).first()).to.include({ cancelledBy: 'CUSTOMER', cancelReason: 'sick' });
      const log = await db('booking_audit_logs').where({ bookingId: id, action: 'CANCELLED' }).first();
      expect(log).to.include({ actorRole: 'CUSTOMER', actorUserId: null });
      const again = await call('post', url, undefined, { token });
      expect(again.status).to.equal(409);
      expect(again.body.error.code).to.equal('BOOKING_INVALID_TRANSITION');
    });

    it('when the customer cancels with the phone outside the free window then 422 CANCELLATION_WINDOW_CLOSED and nothing changes', async () => {
      const { s, id } = await guestBooking({ cancellationHours: 168 }, 3);
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${id}/cancel`, undefined, { phone: '+4795555555' });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('CANCELLATION_WINDOW_CLOSED');
      const db = await knex();
      expect((await db('bookings').where({ id }).first()).status).to.equal('PENDING');
    });

    it('when the proof is wrong then 404; when no proof or an unknown field is sent then 400', async () => {
      const { s, id } = await guestBooking();
      const url = `/public/tenants/${s.tenant.slug}/bookings/${id}/cancel`;
      expect((await call('post', url, undefined, { phone: '+4712345678' })).status).to.equal(404);
      expect((await call('post', url, undefined, { token: 'abc.def' })).status).to.equal(404);
      expect((await call('post', url, undefined, {})).status).to.equal(400);
      expect((await call('post', url, undefined, { phone: '+4795555555', why: 'x' })).status).to.equal(400);
    });
  });
});
