import crypto from 'node:crypto';
// Bad input is refused at the edge with field details, never a 500 and never rolled over;
// staff may record past bookings, explicitly.
import zlib from 'node:zlib';
import { expect } from 'chai';
import { call, http } from '../../support/http';
import { stack } from '../../support/stack';
import { createSalon } from '../../support/factories';
import { at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import { signAccessToken } from '../../../domain/auth/tokens';
import type { RecordingSignaller } from '../../support/recording-signaller';
import { eventually } from '../../support/eventually';

const fieldsOf = (res: { body: { error?: { details?: { field: string }[] } } }) => (res.body.error?.details ?? []).map((d) => d.field);

function expectValidation(res: { status: number; body: { error?: { code?: string; details?: { field: string }[] } } }, field: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body.error?.code).to.equal('VALIDATION_ERROR');
  expect(fieldsOf(res)).to.include(field);
}

async function rowCount(table: string, tenantId: string): Promise<number> {
  const [{ count }] = await (await knex())(table).where({ tenantId }).count({ count: '*' });
  return Number(count);
}

describe('input at the edge', () => {
  describe('impossible and far dates', () => {
    it('when a list is asked for 9999-12-31, 0000-01-01 or 2026-02-30 then 400 naming the parameter, not a 500', async () => {
      const s = await bookingSalon();
      for (const [param, value] of [
        ['date', '9999-12-31'],
        ['dateFrom', '9999-12-31'],
        ['dateTo', '9999-12-31'],
        ['date', '0000-01-01'],
        ['date', '2026-02-30'],
        ['dateFrom', '2026-13-01'],
      ]) {
        expectValidation(await call('get', `/bookings?${param}=${value}`, s.owner.token), param);
      }
    });

    it('when dates sit at the supported range 1900-01-01 and 2200-12-31 then they pass; one day past each is 400', async () => {
      const s = await bookingSalon();
      expect((await call('get', '/bookings?dateFrom=1900-01-01&dateTo=2200-12-31', s.owner.token)).status).to.equal(200);
      expect((await call('get', '/bookings?date=2200-12-31', s.owner.token)).status).to.equal(200);
      expectValidation(await call('get', '/bookings?date=1899-12-31', s.owner.token), 'date');
      expectValidation(await call('get', '/bookings?date=2201-01-01', s.owner.token), 'date');
    });

    it('when a booking startTime is 2027-02-30 (staff, public or PATCH) then 400 naming startTime and nothing is booked', async () => {
      const s = await bookingSalon();
      const items = [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }];
      expectValidation(await call('post', '/bookings', s.owner.token, { startTime: '2027-02-30T12:00:00Z', items }), 'startTime');
      expectValidation(
        await call('post', '/bookings', s.owner.token, { startTime: at(localDay(2), '10:00'), items: [{ ...items[0], startTime: '2026-13-01T10:00:00Z' }] }),
        'items.0.startTime',
      );
      expectValidation(
        await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
          startTime: '2027-02-30T12:00:00Z',
          items,
          customer: { name: 'Kari', phone: '+4791234567' },
        }),
        'startTime',
      );
      expect(await rowCount('bookings', s.tenant.id)).to.equal(0);
      const made = await call('post', '/bookings', s.owner.token, { startTime: at(localDay(2), '10:00'), items });
      expect(made.status).to.equal(201);
      expectValidation(await call('patch', `/bookings/${made.body.data.id}`, s.owner.token, { startTime: '2027-02-30T12:00:00Z' }), 'startTime');
      expect((await call('get', `/bookings/${made.body.data.id}`, s.owner.token)).body.data.startTime).to.equal(made.body.data.startTime);
    });

    it('when a tenant customer gets firstVisit/lastVisit 2027-02-30 then 400 naming the field and nothing changes', async () => {
      const s = await bookingSalon();
      const c = await call('post', '/customers', s.owner.token, { name: 'Kari', phone: '+4791234500' });
      expect(c.status).to.equal(201);
      const tc = (await call('get', `/tenant-customers?customerId=${c.body.data.id}`, s.owner.token)).body.data[0];
      expectValidation(await call('patch', `/tenant-customers/${tc.id}`, s.owner.token, { firstVisit: '2027-02-30T12:00:00Z' }), 'firstVisit');
      expectValidation(await call('patch', `/tenant-customers/${tc.id}`, s.owner.token, { lastVisit: '2026-13-01T00:00:00Z' }), 'lastVisit');
      const ok = await call('patch', `/tenant-customers/${tc.id}`, s.owner.token, { firstVisit: '2026-01-31T12:00:00Z' });
      expect(ok.status).to.equal(200);
      expect(ok.body.data.firstVisit).to.equal('2026-01-31T12:00:00.000Z');
    });

    it('when a schedule override or time-off has 2026-02-30, 2026-13-01 or 0000-01-01 then 400 naming the field and nothing is stored', async () => {
      const s = await bookingSalon();
      const r = s.staff[0].resourceId;
      for (const date of ['2026-02-30', '2026-13-01', '0000-01-01']) {
        expectValidation(await call('post', `/resources/${r}/schedule-overrides`, s.owner.token, { date, startTime: null, endTime: null }), 'date');
        expectValidation(
          await call('post', `/resources/${r}/time-offs`, s.owner.token, { type: 'vacation', startDate: date, endDate: '2026-03-05' }),
          'startDate',
        );
        expectValidation(
          await call('post', `/resources/${r}/time-offs`, s.owner.token, { type: 'vacation', startDate: '2026-01-05', endDate: date }),
          'endDate',
        );
        expectValidation(await call('get', `/time-offs?dateFrom=${date}`, s.owner.token), 'dateFrom');
      }
      expect(await rowCount('resource_schedule_overrides', s.tenant.id)).to.equal(0);
      expect(await rowCount('time_offs', s.tenant.id)).to.equal(0);
    });
  });

  describe('NUL characters and lone surrogates', () => {
    it('when a body string holds \\u0000 or a lone surrogate then 400 VALIDATION_ERROR naming the field and nothing is stored', async () => {
      const s = await createSalon();
      expectValidation(await call('post', '/services', s.owner.token, { name: 'Cut\u0000', duration: 30, price: 100 }), 'name');
      expectValidation(await call('post', '/services', s.owner.token, { name: 'Cut', duration: 30, price: 100, description: 'a\uD800b' }), 'description');
      expectValidation(await call('post', '/customers', s.owner.token, { name: 'Kari', phone: '+4791234567', notes: 'x\u0000' }), 'notes');
      expect(await rowCount('services', s.tenant.id)).to.equal(0);
      expect(await rowCount('customers', s.tenant.id)).to.equal(0);
    });

    it('when registration names hold \\u0000 then 400 naming them, and no tenant is created', async () => {
      const slug = `nul-${Date.now()}`;
      const res = await call('post', '/auth/register', undefined, {
        salonName: 'Salon\u0000',
        ownerName: 'Owner\u0000',
        slug,
        email: `${slug}@example.test`,
        password: 'secret-password',
      });
      expectValidation(res, 'salonName');
      expect(fieldsOf(res)).to.include('ownerName');
      expect(await (await knex())('tenants').where({ slug }).first()).to.equal(undefined);
    });

    it('when ?search= holds \\u0000 on /customers, /tenant-customers and /public/tenants then 400 naming search', async () => {
      const s = await createSalon();
      expectValidation(await call('get', '/customers?search=a%00b', s.owner.token), 'search');
      expectValidation(await call('get', '/tenant-customers?search=%00', s.owner.token), 'search');
      expectValidation(await call('get', '/public/tenants?search=%00'), 'search');
    });

    it('when ?search= holds a lone surrogate written as its UTF-8-less bytes (%ED%B0%80) or a broken escape then 400 naming search; a valid escape passes', async () => {
      expectValidation(await call('get', '/public/tenants?search=x%ED%B0%80y'), 'search');
      expectValidation(await call('get', '/public/tenants?search=%E0%A4%A'), 'search');
      expect((await call('get', '/public/tenants?search=%C3%B8l%20x')).status).to.equal(200);
    });

    it('when a path segment holds \\u0000 or a malformed escape then 400 naming the path', async () => {
      const s = await createSalon();
      expectValidation(await call('get', '/public/tenants/a%00b'), 'path');
      expectValidation(await call('get', '/services/%E0%A4%A', s.owner.token), 'path');
    });
  });

  describe('broken bodies', () => {
    it('when content-encoding gzip carries no gzip then 400 VALIDATION_ERROR on the body', async () => {
      const s = await createSalon();
      const res = await (
        await http()
      )
        .post('/api/services')
        .set('Authorization', `Bearer ${s.owner.token}`)
        .set('content-type', 'application/json')
        .set('content-encoding', 'gzip')
        .send('{"name":"x"}');
      expectValidation(res, 'body');
    });

    it('when a real gzip body is sent then it is read (and its NUL still refused)', async () => {
      const s = await createSalon();
      const res = await (
        await http()
      )
        .post('/api/services')
        .set('Authorization', `Bearer ${s.owner.token}`)
        .set('content-type', 'application/json')
        .set('content-encoding', 'gzip')
        .serialize((raw: unknown) => raw as string) // superagent would JSON-encode a Buffer
        .send(zlib.gzipSync(JSON.stringify({ name: 'a\u0000b', duration: 30, price: 100 })));
      expectValidation(res, 'name');
    });

    it('when content-encoding is compress then 415 UNSUPPORTED_CONTENT_ENCODING', async () => {
      const s = await createSalon();
      const res = await (
        await http()
      )
        .post('/api/services')
        .set('Authorization', `Bearer ${s.owner.token}`)
        .set('content-type', 'application/json')
        .set('content-encoding', 'compress')
        .send('{}');
      expect(res.status).to.equal(415);
      expect(res.body).to.deep.include({ success: false });
      expect(res.body.error.code).to.equal('UNSUPPORTED_CONTENT_ENCODING');
    });

    it('when the charset is latin1 then 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      const s = await createSalon();
      const res = await (
        await http()
      )
        .post('/api/services')
        .set('Authorization', `Bearer ${s.owner.token}`)
        .set('content-type', 'application/json; charset=latin1')
        .send('{"name":"x"}');
      expect(res.status).to.equal(415);
      expect(res.body.error.code).to.equal('UNSUPPORTED_MEDIA_TYPE');
    });

    it('when a body comes without a content-type, or the required body is missing, then 400 VALIDATION_ERROR naming the body and saying what to send (docs/rules/errors.md#request-bodies)', async () => {
      const s = await createSalon();
      const expected = {
        code: 'VALIDATION_ERROR',
        message: 'A request body is required',
        details: [{ field: 'body', message: 'is required: send it as JSON (content-type: application/json)' }],
      };
      const untyped = await (await http()).post('/api/services').set('Authorization', `Bearer ${s.owner.token}`).send(Buffer.from('{"name":"x"}'));
      expect([untyped.status, untyped.body.error]).to.deep.equal([400, expected]);
      const missing = await (await http()).post('/api/services').set('Authorization', `Bearer ${s.owner.token}`);
      expect([missing.status, missing.body.error]).to.deep.equal([400, expected]);
      const text = await (await http()).post('/api/services').set('Authorization', `Bearer ${s.owner.token}`).set('content-type', 'text/plain').send('name=x');
      expect([text.status, text.body.error.code], 'another media type stays 415').to.deep.equal([415, 'UNSUPPORTED_MEDIA_TYPE']);
    });

    it('when the JSON is malformed then 400 VALIDATION_ERROR on the body', async () => {
      const s = await createSalon();
      const res = await (
        await http()
      )
        .post('/api/services')
        .set('Authorization', `Bearer ${s.owner.token}`)
        .set('content-type', 'application/json')
        .send('{"name": ');
      expectValidation(res, 'body');
    });

    it('when the body is exactly at the body limit then it is read (400 for its content); one byte past is 413 PAYLOAD_TOO_LARGE', async () => {
      const { config } = await stack();
      expect(config.bodyLimit).to.equal('1mb');
      const limit = 1024 * 1024;
      const s = await createSalon();
      const sized = (bytes: number) => {
        const shell = JSON.stringify({ notes: '' });
        return JSON.stringify({ notes: 'x'.repeat(bytes - shell.length) });
      };
      const post = async (payload: string) =>
        (await http()).post('/api/services').set('Authorization', `Bearer ${s.owner.token}`).set('content-type', 'application/json').send(payload);
      expect(Buffer.byteLength(sized(limit))).to.equal(limit);
      const atLimit = await post(sized(limit));
      expect(atLimit.status).to.equal(400);
      expect(atLimit.body.error.code).to.equal('VALIDATION_ERROR');
      const past = await post(sized(limit + 1));
      expect(past.status).to.equal(413);
      expect(past.body.error.code).to.equal('PAYLOAD_TOO_LARGE');
    });
  });

  describe('tokens', () => {
    it('when a correctly signed token has a sub that is not a UUID then 401 UNAUTHORIZED, not 400', async () => {
      const { config } = await stack();
      const s = await createSalon();
      for (const claims of [
        { sub: 'not-a-uuid', tenantId: s.tenant.id },
        { sub: "1' OR '1'='1", tenantId: s.tenant.id },
        { sub: s.owner.id, tenantId: 'not-a-uuid' },
      ]) {
        const token = signAccessToken(
          { secret: config.keys.accessToken, accessTtlSeconds: 600 },
          { ...claims, role: 'OWNER', tv: 0, sid: crypto.randomUUID() },
        );
        const res = await call('get', '/tenants/me', token);
        expect(res.status, JSON.stringify(claims)).to.equal(401);
        expect(res.body.error.code).to.equal('UNAUTHORIZED');
      }
    });
  });

  describe('bookings in the past (salon side records them after the fact)', () => {
    async function sent(bookingId: string) {
      const signaller = (await stack()).platform.deps.signaller as RecordingSignaller;
      return signaller.sent.filter((x) => x.ref.workflowId === `booking:${bookingId}`).map((x) => x.event);
    }

    it('when the owner books yesterday then 201, flagged recordedAfterTheFact in metadata and audit, and the workflow hears BookingRecordedAfterTheFact', async () => {
      const s = await bookingSalon();
      const res = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(-1), '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { name: 'Kari', phone: '+4791234511' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data.metadata.recordedAfterTheFact).to.equal(true);
      const log = await call('get', `/bookings/${res.body.data.id}/audit-log`, s.owner.token);
      expect(log.body.data[0]).to.deep.include({ action: 'CREATED' });
      expect(log.body.data[0].changes).to.deep.include({ recordedAfterTheFact: true });
      expect(await sent(res.body.data.id)).to.deep.equal([{ type: 'BookingRecordedAfterTheFact', entityVersion: 1 }]);
    });

    it('when STAFF records their own past visit then it is allowed and flagged too', async () => {
      const s = await bookingSalon();
      const res = await call('post', '/bookings', s.staff[0].user.token, { startTime: at(localDay(-3), '11:00'), items: [{ serviceId: s.serviceId }] });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data.metadata.recordedAfterTheFact).to.equal(true);
    });

    it('when a future booking is made then it is not flagged and the workflow hears BookingCreated', async () => {
      const s = await bookingSalon();
      const res = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(2), '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      expect(res.status).to.equal(201);
      expect(res.body.data.metadata).not.to.have.property('recordedAfterTheFact');
      expect(await sent(res.body.data.id)).to.deep.equal([{ type: 'BookingCreated', entityVersion: 1 }]);
    });

    it('when the public portal books the past then 422 BOOKING_IN_PAST as before', async () => {
      const s = await bookingSalon();
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
        startTime: at(localDay(-1), '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { name: 'Kari', phone: '+4791234522' },
      });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('BOOKING_IN_PAST');
    });

    it('when a booking is moved into the past then it is flagged (audit RESCHEDULED + flag, signal BookingRecordedAfterTheFact); moved back, the flag goes', async () => {
      const s = await bookingSalon();
      const made = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(2), '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      const id = made.body.data.id;
      const past = await call('patch', `/bookings/${id}`, s.owner.token, { startTime: at(localDay(-1), '10:00') });
      expect(past.status, JSON.stringify(past.body)).to.equal(200);
      expect(past.body.data.metadata.recordedAfterTheFact).to.equal(true);
      expect(past.body.data.metadata.displaySnapshot).to.deep.equal(made.body.data.metadata.displaySnapshot);
      const back = await call('patch', `/bookings/${id}`, s.owner.token, { startTime: at(localDay(3), '10:00') });
      expect(back.status).to.equal(200);
      expect(back.body.data.metadata).not.to.have.property('recordedAfterTheFact');
      expect(await sent(id)).to.deep.equal([
        { type: 'BookingCreated', entityVersion: 1 },
        { type: 'BookingRecordedAfterTheFact', entityVersion: 2 },
        { type: 'BookingRescheduled', entityVersion: 3 },
      ]);
      const log = (await call('get', `/bookings/${id}/audit-log`, s.owner.token)).body.data as { action: string; changes: Record<string, unknown> }[];
      const moves = log.filter((e) => e.action === 'RESCHEDULED');
      expect(moves).to.have.length(2);
      expect(moves.filter((e) => e.changes.recordedAfterTheFact === true)).to.have.length(1);
    });

    it('when a past booking is recorded then the booking workflow sends the customer nothing for it', async () => {
      const s = await bookingSalon();
      const res = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(-1), '12:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { name: 'Kari', phone: '+4791234533' },
      });
      expect(res.status).to.equal(201);
      // A future booking of the same salon, made after it, proves the worker is running: its confirmation appears.
      const future = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(2), '12:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { name: 'Kari', phone: '+4791234533' },
      });
      const db = await knex();
      await eventually(
        () => db('booking_notifications').where({ bookingId: future.body.data.id }).whereNotNull('sentAt').first(),
        'the confirmation of the later, future booking',
        10_000,
      );
      expect(await db('booking_notifications').where({ bookingId: res.body.data.id })).to.deep.equal([]);
    });
  });
});
