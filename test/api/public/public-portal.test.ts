// The public booking portal as a consumer calls it: through the client generated from openapi.yaml
// (test/support/api-client.ts), so the paths, parameters, bodies and answers used here are the
// contract's. Requests the contract's types do not allow are marked @ts-expect-error: they must not
// compile for a consumer, and the api must still refuse them.
import { expect } from 'chai';
import { stack } from '../../support/stack';
import { createSalon, unique } from '../../support/factories';
import { addService, addStaff, at, bookingSalon, knex, localDay, ALL_WEEK } from '../../support/booking-fixtures';
import type { RecordingSignaller } from '../../support/recording-signaller';
import { apiClient, expectError, expectOk, type Schemas } from '../../support/api-client';
import { call, http } from '../../support/http';

type Contact = Schemas['BookingContactInput'];
const guest = (over: Partial<Contact> = {}): Contact => ({ name: 'Ola Gjest', phone: '+47 955 55 555', email: 'ola@example.no', ...over });

/** createPublicBooking, as the portal calls it */
async function book(salon: { tenant: { slug: string } }, body: Schemas['PublicBookingCreateRequest']) {
  return (await apiClient()).POST('/public/tenants/{slug}/bookings', { params: { path: { slug: salon.tenant.slug } }, body });
}

describe('public booking portal', () => {
  describe('GET /public/tenants', () => {
    it('when searching by part of the name or slug then matching active salons are listed, inactive ones never', async () => {
      const tag = unique('zq').replace('-', '');
      const a = await createSalon({ name: `Studio ${tag} Alfa` });
      const b = await createSalon({ name: `Studio ${tag} Beta` });
      const hidden = await createSalon({ name: `Studio ${tag} Closed` });
      const db = await knex();
      await db('tenants').where({ id: hidden.tenant.id }).update({ isActive: false });
      const api = await apiClient();
      const res = expectOk(await api.GET('/public/tenants', { params: { query: { search: tag } } }), 200);
      expect(res.data.map((t) => t.id)).to.deep.equal([a.tenant.id, b.tenant.id]);
      expect(res.data[0]).to.have.keys(['id', 'name', 'slug', 'industryType', 'description', 'address', 'branding']);
      const bySlug = expectOk(await api.GET('/public/tenants', { params: { query: { search: b.tenant.slug } } }), 200);
      expect(bySlug.data.map((t) => t.id)).to.deep.equal([b.tenant.id]);
      const page = expectOk(await api.GET('/public/tenants', { params: { query: { search: tag, limit: 1, page: 2 } } }), 200);
      expect(page.data.map((t) => t.id)).to.deep.equal([b.tenant.id]);
      expect(page.meta).to.deep.equal({ total: 2, page: 2, limit: 1, totalPages: 2 });
    });

    it('when the query is bad then 400 (limit 101, unknown parameter, search too long)', async () => {
      const api = await apiClient();
      expectError(await api.GET('/public/tenants', { params: { query: { limit: 101 } } }), 400, 'VALIDATION_ERROR');
      // @ts-expect-error an unknown query parameter: not in the contract
      expectError(await api.GET('/public/tenants', { params: { query: { foo: 'bar' } } }), 400, 'VALIDATION_ERROR');
      expectError(await api.GET('/public/tenants', { params: { query: { search: 'a'.repeat(101) } } }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('GET /public/tenants/:slug', () => {
    it('when the salon is active then the profile says acceptingBookings true and shows only public settings', async () => {
      const s = await createSalon({ industry: 'barbershop' });
      const res = expectOk(await (await apiClient()).GET('/public/tenants/{slug}', { params: { path: { slug: s.tenant.slug } } }), 200);
      expect(res.data).to.include({ id: s.tenant.id, slug: s.tenant.slug, acceptingBookings: true, industryType: 'barbershop' });
      expect(res.data.settings).to.include({ timezone: 'Europe/Oslo', currency: 'NOK', cancellationHours: 2, autoConfirm: true });
      expect(res.data.settings).to.not.have.property('depositValue');
    });

    it('when the salon is inactive then acceptingBookings is false; unknown slug 404; malformed slug 400', async () => {
      const s = await createSalon();
      const db = await knex();
      await db('tenants').where({ id: s.tenant.id }).update({ isActive: false });
      const api = await apiClient();
      expect(expectOk(await api.GET('/public/tenants/{slug}', { params: { path: { slug: s.tenant.slug } } }), 200).data.acceptingBookings).to.equal(false);
      expectError(await api.GET('/public/tenants/{slug}', { params: { path: { slug: unique('none') } } }), 404, 'TENANT_NOT_FOUND');
      expectError(await api.GET('/public/tenants/{slug}', { params: { path: { slug: 'Not_A_Slug' } } }), 400, 'VALIDATION_ERROR');
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
      const res = expectOk(await (await apiClient()).GET('/public/tenants/{slug}/services', { params: { path: { slug: s.tenant.slug } } }), 200);
      const groups = res.data.map((g) => [g.category?.name ?? null, g.services.map((x) => x.id)]);
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
      const api = await apiClient();
      const resources = (serviceId?: string) =>
        api.GET('/public/tenants/{slug}/resources', { params: { path: { slug: s.tenant.slug }, query: serviceId === undefined ? {} : { serviceId } } });
      const all = expectOk(await resources(), 200);
      expect(all.data.map((r) => r.id)).to.deep.equal([s.staff[0].resourceId, specialist.resourceId]);
      const forService = expectOk(await resources(other.id), 200);
      expect(forService.data.map((r) => r.id)).to.deep.equal([specialist.resourceId]);
      expect(forService.data[0].serviceIds).to.deep.equal([other.id]);
      const foreign = await bookingSalon();
      expectError(await resources(foreign.serviceId), 404, 'SERVICE_NOT_FOUND');
      expectError(await resources('nope'), 400, 'VALIDATION_ERROR');
    });
  });

  describe('POST /public/tenants/:slug/bookings', () => {
    it('when a guest books then 201 PENDING (autoConfirm off) with a manage token, paymentRequired false, a contact snapshot and a customer found by phone', async () => {
      const s = await bookingSalon();
      const start = at(localDay(3), '10:00');
      const res = await (
        await apiClient()
      ).POST('/public/tenants/{slug}/bookings', {
        params: { path: { slug: s.tenant.slug } },
        body: { startTime: start, items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }], customer: guest({ notes: 'first time' }) },
      });
      const d = expectOk(res, 201).data;
      expect(d).to.include({ status: 'PENDING', startTime: start, paymentRequired: false, totalAmount: 50000, currency: 'NOK', customerName: 'Ola Gjest' });
      expect(d.manageToken).to.be.a('string').with.length.greaterThan(40);
      expect(d.items[0]).to.include({ resourceId: s.staff[0].resourceId });
      const db = await knex();
      const row = await db('bookings').where({ id: d.id }).first();
      expect(row).to.include({
        source: 'ONLINE',
        isGuest: true,
        contactName: 'Ola Gjest',
        contactPhone: '+4795555555',
        contactEmail: 'ola@example.no',
        notes: 'first time',
      });
      expect(row.manageTokenHash).to.be.a('string').and.not.equal(d.manageToken);
      const customer = await db('customers').where({ id: row.customerId }).first();
      expect(customer.phone).to.equal('+4795555555');
      const sig = (await stack()).platform.deps.signaller as RecordingSignaller;
      expect(sig.sent.filter((x) => x.ref.workflowId === `booking:${d.id}`).map((x) => x.event)).to.deep.equal([{ type: 'BookingCreated', entityVersion: 1 }]);
    });

    it("when a guest books 13:07 at a salon of 15-minute steps then 422 BOOKING_START_OFF_GRID naming startTime and nothing is booked; 13:15 is booked, and the salon's own booking at 15:07 too", async () => {
      const s = await bookingSalon();
      const day = localDay(3);
      const off = await book(s, { startTime: at(day, '13:07'), items: [{ serviceId: s.serviceId }], customer: guest() });
      expect(off.response.status, JSON.stringify(off.error)).to.equal(422);
      expect(off.error?.error.code).to.equal('BOOKING_START_OFF_GRID');
      expect(off.error?.error.details?.map((d) => d.field)).to.deep.equal(['startTime']);
      const seconds = await book(s, {
        startTime: new Date(Date.parse(at(day, '13:15')) + 30_000).toISOString(),
        items: [{ serviceId: s.serviceId }],
        customer: guest(),
      });
      expect(seconds.error?.error.code, 'half a minute past the grid').to.equal('BOOKING_START_OFF_GRID');
      expect(await (await knex())('bookings').where({ tenantId: s.tenant.id })).to.have.length(0);
      expectOk(await book(s, { startTime: at(day, '13:15'), items: [{ serviceId: s.serviceId }], customer: guest() }), 201);
      const staff = await call('post', '/bookings', s.owner.token, {
        startTime: at(day, '15:07'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      expect(staff.status, JSON.stringify(staff.body)).to.equal(201);
    });

    it('when the phone belongs to an existing customer then the booking links to them without changing their name (not merged)', async () => {
      const s = await bookingSalon();
      const db = await knex();
      const [c] = await db('customers').insert({ tenantId: s.tenant.id, name: 'Kari Fast', phone: '+4795555555' }).returning('id');
      const res = await book(s, { startTime: at(localDay(3), '12:00'), items: [{ serviceId: s.serviceId }], customer: guest({ name: 'Someone Else' }) });
      const row = await db('bookings')
        .where({ id: expectOk(res, 201).data.id })
        .first();
      expect(row.customerId).to.equal(c.id);
      expect(row.contactName).to.equal('Someone Else');
      expect((await db('customers').where({ id: c.id }).first()).name).to.equal('Kari Fast');
    });

    it('when autoConfirm is on then the booking starts CONFIRMED', async () => {
      const s = await bookingSalon({ settings: { autoConfirm: true } });
      const res = await book(s, { startTime: at(localDay(3), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() });
      expect(expectOk(res, 201).data.status).to.equal('CONFIRMED');
    });

    it('when bookingMode is assigned_only then "anyone" is given the staff member the slot offers, by the API and by the form without JavaScript alike; allow_unassigned leaves it unassigned', async () => {
      const s = await bookingSalon({ settings: { bookingMode: 'assigned_only' }, staff: 3 });
      const day = localDay(3);
      // the first staff member is busy at 10:00: the slot offers the second, and both paths book the second
      expectOk(await book(s, { startTime: at(day, '10:00'), items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }], customer: guest() }), 201);
      const offered = async () => {
        const slots = await call('get', `/public/tenants/${s.tenant.slug}/availability?serviceId=${s.serviceId}&date=${day}`);
        return (slots.body.data.slots as { start: string; items: { resourceId: string }[] }[]).find((x) => x.start === at(day, '10:00'))!.items[0].resourceId;
      };
      expect(await offered()).to.equal(s.staff[1].resourceId);
      const byApi = expectOk(await book(s, { startTime: at(day, '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() }), 201);
      expect(byApi.data.items[0].resourceId).to.equal(s.staff[1].resourceId);

      // the same question again, now through the server-rendered form: the slot offers the third, the form books the third
      expect(await offered()).to.equal(s.staff[2].resourceId);
      const form = { services: s.serviceId, staff: 'any', time: at(day, '10:00'), lang: 'nb', name: 'Kari Skjema', phone: guest().phone, email: '', notes: '' };
      const byForm = await (await http()).post(`/${s.tenant.slug}/book`).type('form').send(form);
      expect(byForm.status, byForm.text).to.equal(303);
      const formBookingId = /bookings\/([0-9a-f-]{36})/.exec(byForm.headers.location)![1];
      const formRow = await (await knex())('bookings').where({ id: formBookingId }).first();
      expect(formRow.resourceId).to.equal(s.staff[2].resourceId);

      // nobody left at 10:00: the placement refuses "anyone" rather than leave it unassigned
      expectError(await book(s, { startTime: at(day, '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() }), 409, 'BOOKING_CONFLICT');
      expect(await (await knex())('bookings').where({ tenantId: s.tenant.id }).whereNull('resourceId')).to.deep.equal([]);

      const open = await bookingSalon();
      const ok = expectOk(await book(open, { startTime: at(localDay(3), '10:00'), items: [{ serviceId: open.serviceId }], customer: guest() }), 201);
      expect(ok.data.items[0].resourceId).to.equal(null);
    });

    it('when the staff member is not bookable online then 422 RESOURCE_NOT_QUALIFIED; outside hours 422 RESOURCE_NOT_AVAILABLE; in the past 422 BOOKING_IN_PAST', async () => {
      const s = await bookingSalon();
      const hiddenStaff = await addStaff(s.tenant.id, [s.serviceId], { isBookableOnline: false });
      expectError(
        await book(s, { startTime: at(localDay(3), '10:00'), items: [{ serviceId: s.serviceId, resourceId: hiddenStaff.resourceId }], customer: guest() }),
        422,
        'RESOURCE_NOT_QUALIFIED',
      );
      expectError(
        await book(s, { startTime: at(localDay(3), '18:00'), items: [{ serviceId: s.serviceId }], customer: guest() }),
        422,
        'RESOURCE_NOT_AVAILABLE',
      );
      expectError(await book(s, { startTime: at(localDay(-1), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() }), 422, 'BOOKING_IN_PAST');
    });

    it('when the start is on the last bookable day then 201; the day after 422 DATE_BEYOND_BOOKING_WINDOW', async () => {
      const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 10 } });
      expectOk(await book(s, { startTime: at(localDay(10), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() }), 201);
      const late = expectError(
        await book(s, { startTime: at(localDay(11), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() }),
        422,
        'DATE_BEYOND_BOOKING_WINDOW',
      );
      expect(late.details?.map((d) => d.field)).to.deep.equal(['startTime']);
    });

    it('when the salon is inactive then 409 TENANT_NOT_ACCEPTING_BOOKINGS', async () => {
      const s = await bookingSalon();
      const db = await knex();
      await db('tenants').where({ id: s.tenant.id }).update({ isActive: false });
      expectError(
        await book(s, { startTime: at(localDay(3), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() }),
        409,
        'TENANT_NOT_ACCEPTING_BOOKINGS',
      );
    });

    it('when the body is bad then 400 (no customer, no phone, unknown field, bad email; a guest voucherCode is 422, see loyalty-vouchers.test.ts)', async () => {
      const s = await bookingSalon();
      const base = { startTime: at(localDay(3), '10:00'), items: [{ serviceId: s.serviceId }] };
      // @ts-expect-error no customer: the contract requires one
      expectError(await book(s, base), 400, 'VALIDATION_ERROR');
      // @ts-expect-error a customer without a phone
      expectError(await book(s, { ...base, customer: { name: 'A' } }), 400, 'VALIDATION_ERROR');
      // @ts-expect-error a field the contract does not have
      expectError(await book(s, { ...base, customer: guest(), extra: 1 }), 400, 'VALIDATION_ERROR');
      expectError(await book(s, { ...base, customer: guest({ email: 'nope' }) }), 400, 'VALIDATION_ERROR');
      expectError(await book(s, { ...base, customer: guest({ name: '' }) }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('confirmation and self-cancel', () => {
    async function guestBooking(settings = {}, days = 5) {
      const s = await bookingSalon({ settings: { businessHours: ALL_WEEK, ...settings } });
      const { data } = expectOk(await book(s, { startTime: at(localDay(days), '10:00'), items: [{ serviceId: s.serviceId }], customer: guest() }), 201);
      return { s, id: data.id, token: data.manageToken };
    }

    it('when the token or the contact phone is given then the confirmation is shown; otherwise 404', async () => {
      const { s, id, token } = await guestBooking();
      const api = await apiClient();
      const confirmation = (slug: string, bookingId: string, query: { token?: string; phone?: string }) =>
        api.GET('/public/tenants/{slug}/bookings/{id}', { params: { path: { slug, id: bookingId }, query } });
      const byToken = expectOk(await confirmation(s.tenant.slug, id, { token }), 200);
      expect(byToken.data).to.include({ id, status: 'PENDING' });
      expectOk(await confirmation(s.tenant.slug, id, { phone: '+47 95 55 55 55' }), 200);
      for (const query of [{}, { phone: '+4711111111' }, { token: token.slice(0, -2) + 'xx' }]) {
        expectError(await confirmation(s.tenant.slug, id, query), 404, 'BOOKING_NOT_FOUND');
      }
      const other = await guestBooking();
      expectError(await confirmation(other.s.tenant.slug, id, { token }), 404, 'BOOKING_NOT_FOUND');
      expectError(await confirmation(s.tenant.slug, other.id, { token }), 404, 'BOOKING_NOT_FOUND');
    });

    it('when the customer cancels inside the free window with the token then CANCELLED by CUSTOMER; again 409', async () => {
      const { s, id, token } = await guestBooking({ cancellationHours: 24 }, 5);
      const cancel = async (body: Schemas['PublicBookingCancelRequest']) =>
        (await apiClient()).POST('/public/tenants/{slug}/bookings/{id}/cancel', { params: { path: { slug: s.tenant.slug, id } }, body });
      const res = expectOk(await cancel({ token, reason: 'sick' }), 200);
      expect(res.data.status).to.equal('CANCELLED');
      const db = await knex();
      expect(await db('bookings').where({ id }).first()).to.include({ cancelledBy: 'CUSTOMER', cancelReason: 'sick' });
      const log = await db('booking_audit_logs').where({ bookingId: id, action: 'CANCELLED' }).first();
      expect(log).to.include({ actorRole: 'CUSTOMER', actorUserId: null });
      expectError(await cancel({ token }), 409, 'BOOKING_INVALID_TRANSITION');
    });

    it('when the customer cancels with the phone outside the free window then 422 CANCELLATION_WINDOW_CLOSED and nothing changes', async () => {
      const { s, id } = await guestBooking({ cancellationHours: 168 }, 3);
      const res = await (
        await apiClient()
      ).POST('/public/tenants/{slug}/bookings/{id}/cancel', { params: { path: { slug: s.tenant.slug, id } }, body: { phone: '+4795555555' } });
      expectError(res, 422, 'CANCELLATION_WINDOW_CLOSED');
      const db = await knex();
      expect((await db('bookings').where({ id }).first()).status).to.equal('PENDING');
    });

    it('when the proof is wrong then 404; when no proof is sent and nobody is signed in then 401; an unknown field is 400', async () => {
      const { s, id } = await guestBooking();
      const api = await apiClient();
      const params = { path: { slug: s.tenant.slug, id } };
      expectError(await api.POST('/public/tenants/{slug}/bookings/{id}/cancel', { params, body: { phone: '+4712345678' } }), 404, 'BOOKING_NOT_FOUND');
      expectError(await api.POST('/public/tenants/{slug}/bookings/{id}/cancel', { params, body: { token: 'abc.def' } }), 404, 'BOOKING_NOT_FOUND');
      expectError(await api.POST('/public/tenants/{slug}/bookings/{id}/cancel', { params, body: {} }), 401, 'UNAUTHORIZED');
      const unknownField = { phone: '+4795555555', why: 'x' };
      expectError(await api.POST('/public/tenants/{slug}/bookings/{id}/cancel', { params, body: unknownField }), 400, 'VALIDATION_ERROR');
    });
  });
});
