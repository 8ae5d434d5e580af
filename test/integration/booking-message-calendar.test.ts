// The booking's messages carry the customer's manage link, and its e-mails the booking as a calendar
// invitation that calendars update instead of duplicating: one UID, SEQUENCE raised by every change a message announces,
// the salon's TZID, METHOD:CANCEL on cancellation (docs/rules/booking-page.md#calendar-files).
import crypto from 'node:crypto';
import { expect } from 'chai';
import { call, http } from '../support/http';
import { stack } from '../support/stack';
import { eventually } from '../support/eventually';
import { at, bookingSalon, colourSalon, localDay } from '../support/booking-fixtures';
import type { StoredMail } from '../../integrations/mail/mailer';
import { createBookingActivities } from '../../activities/booking.activities';

const unfolded = (ics: string) => ics.replace(/\r\n[ \t]/g, '').split('\r\n');
const line = (ics: string, name: string) => unfolded(ics).find((l) => l.startsWith(name));

describe('booking messages: manage link and calendar invitation', function () {
  this.timeout(90_000);

  it('when a guest books, is moved and cancels then every e-mail has the same UID, a growing SEQUENCE and the salon TZID, the last is METHOD:CANCEL, and the manage link opens the booking', async () => {
    const { platform, sms } = await stack();
    const salon = await bookingSalon({ settings: { autoConfirm: true } });
    const email = `guest-${crypto.randomUUID()}@example.test`;
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const created = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(3), '10:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Kari Nordmann', phone, email },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const { id, manageToken } = created.body.data;
    const mailOf = (kind: string) =>
      eventually(async () => (await platform.mailer.sentTo(email)).find((m: StoredMail) => m.meta?.kind === kind), `the ${kind} e-mail`);

    const confirmed = await mailOf('CONFIRMED');
    const manageUrl = `${platform.deps.config.publicBaseUrl}/${salon.tenant.slug}/bookings/${id}?token=${encodeURIComponent(manageToken)}`;
    expect(confirmed.text).to.contain(manageUrl);
    const smsConfirmed = await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'CONFIRMED'), 'the CONFIRMED SMS');
    expect(smsConfirmed.text).to.contain(manageUrl);
    const invite = confirmed.attachments!.find((a) => a.calendarMethod === 'REQUEST')!;
    expect(invite.contentType).to.equal('text/calendar; charset=utf-8; method=REQUEST');
    const uid = line(invite.content, 'UID:');
    expect(uid).to.equal(`UID:booking-${id}@${platform.deps.config.platformDomain}`);
    expect(line(invite.content, 'DTSTART;')).to.equal(`DTSTART;TZID=Europe/Oslo:${localDay(3).replace(/-/g, '')}T100000`);
    expect(unfolded(invite.content)).to.include('METHOD:REQUEST');
    expect(unfolded(invite.content)).to.include('TZID:Europe/Oslo');
    const firstSequence = Number(line(invite.content, 'SEQUENCE:')!.split(':')[1]);

    // the manage link is the customer's page for this booking
    const page = await (await http()).get(new URL(manageUrl).pathname + new URL(manageUrl).search);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain(`<h1>${salon.tenant.name}</h1>`).and.to.contain('Avbestill timen');

    const moved = await call('patch', `/bookings/${id}`, salon.owner.token, { startTime: at(localDay(4), '11:00') });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const rescheduled = (await mailOf('RESCHEDULED')).attachments!.find((a) => a.calendarMethod)!;
    expect(line(rescheduled.content, 'UID:')).to.equal(uid);
    expect(line(rescheduled.content, 'DTSTART;')).to.equal(`DTSTART;TZID=Europe/Oslo:${localDay(4).replace(/-/g, '')}T110000`);
    const movedSequence = Number(line(rescheduled.content, 'SEQUENCE:')!.split(':')[1]);
    expect(movedSequence).to.be.greaterThan(firstSequence);

    const cancelled = await call('post', `/public/tenants/${salon.tenant.slug}/bookings/${id}/cancel`, undefined, { token: manageToken });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    const cancel = (await mailOf('CANCELLED')).attachments!.find((a) => a.calendarMethod)!;
    expect(cancel.calendarMethod).to.equal('CANCEL');
    expect(unfolded(cancel.content)).to.include('METHOD:CANCEL');
    expect(unfolded(cancel.content)).to.include('STATUS:CANCELLED');
    expect(line(cancel.content, 'UID:')).to.equal(uid);
    expect(Number(line(cancel.content, 'SEQUENCE:')!.split(':')[1])).to.be.greaterThan(movedSequence);
  });

  it("when a colour with processing time and a cleanup buffer is booked then the confirmation and its invitation cover the whole visit, to the last phase (the buffer is not the customer's time)", async () => {
    const { platform, sms } = await stack();
    const salon = await colourSalon(1, { settings: { autoConfirm: true } });
    await platform.knex('services').where({ id: salon.colourId }).update({ bufferAfterMinutes: 10 });
    const email = `colour-${crypto.randomUUID()}@example.test`;
    const phone = `+479${crypto.randomInt(1000000, 9999999)}`;
    const created = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(3), '10:00'),
      items: [{ serviceId: salon.colourId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Frida Farge', phone, email },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const confirmed = await eventually(
      async () => (await platform.mailer.sentTo(email)).find((m: StoredMail) => m.meta?.kind === 'CONFIRMED'),
      'the CONFIRMED e-mail',
    );
    expect(confirmed.text).to.contain('kl. 10:00–11:30');
    const invite = confirmed.attachments!.find((a) => a.calendarMethod === 'REQUEST')!;
    const date = localDay(3).replace(/-/g, '');
    expect(line(invite.content, 'DTSTART;')).to.equal(`DTSTART;TZID=Europe/Oslo:${date}T100000`);
    expect(line(invite.content, 'DTEND;')).to.equal(`DTEND;TZID=Europe/Oslo:${date}T113000`);
    const text = await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'CONFIRMED'), 'the CONFIRMED SMS');
    expect(text.text).to.contain('kl. 10:00–11:30');
  });

  it('when the salon changes what no message announces (notes, staff) then the manage page’s calendar file keeps the SEQUENCE of the last invitation sent; a move raises both by one', async () => {
    const { platform } = await stack();
    const salon = await bookingSalon({ settings: { autoConfirm: true }, staff: 2 });
    const email = `sequence-${crypto.randomUUID()}@example.test`;
    const created = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(3), '10:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Kari Sekvens', phone: `+479${crypto.randomInt(1000000, 9999999)}`, email },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const { id, manageToken } = created.body.data;
    const file = async () => (await (await http()).get(`/${salon.tenant.slug}/bookings/${id}/calendar.ics?token=${encodeURIComponent(manageToken)}`)).text;
    const sequence = (ics: string) => Number(line(ics, 'SEQUENCE:')!.split(':')[1]);
    const mailOf = (kind: string) =>
      eventually(async () => (await platform.mailer.sentTo(email)).find((m: StoredMail) => m.meta?.kind === kind), `the ${kind} e-mail`);
    const invited = sequence((await mailOf('CONFIRMED')).attachments!.find((a) => a.calendarMethod)!.content);
    expect(sequence(await file())).to.equal(invited);

    for (const change of [{ notes: 'Kunden vil ha kaffe' }, { resourceId: salon.staff[1].resourceId }]) {
      const res = await call('patch', `/bookings/${id}`, salon.owner.token, change);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    const row = await platform.knex('bookings').where({ id }).first();
    expect(row.version, 'the row changed').to.be.greaterThan(1);
    expect(sequence(await file()), 'no message went out, so no new SEQUENCE').to.equal(invited);

    const moved = await call('patch', `/bookings/${id}`, salon.owner.token, { startTime: at(localDay(4), '11:00') });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const movedSequence = sequence((await mailOf('RESCHEDULED')).attachments!.find((a) => a.calendarMethod)!.content);
    expect(movedSequence).to.equal(invited + 1);
    expect(sequence(await file())).to.equal(movedSequence);
  });

  it('when the salon makes the booking (no token) then its messages carry no manage link and nothing breaks', async () => {
    const { platform } = await stack();
    const salon = await bookingSalon();
    const email = `staff-made-${crypto.randomUUID()}@example.test`;
    const res = await call('post', '/bookings', salon.owner.token, {
      startTime: at(localDay(3), '12:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Ola', phone: `+47${crypto.randomInt(40000000, 49999999)}`, email },
      source: 'PHONE',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const mail = await eventually(
      async () => (await platform.mailer.sentTo(email)).find((m: StoredMail) => m.meta?.kind === 'CONFIRMED'),
      'the CONFIRMED e-mail',
    );
    expect(mail.text).to.not.contain('/bookings/');
    expect(mail.attachments?.[0]?.calendarMethod).to.equal('REQUEST');
  });

  it('when Temporal runs a message activity again after it succeeded then nothing goes out twice; a claim that was never sent is sent', async () => {
    const { platform, sms } = await stack();
    const salon = await bookingSalon({ settings: { autoConfirm: true } });
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const created = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(3), '13:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Per Hansen', phone },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const bookingId = created.body.data.id as string;
    const smsOf = async (kind: string) => (await sms.sentTo(phone)).filter((m) => m.meta?.kind === kind);
    await eventually(async () => (await smsOf('CONFIRMED')).length === 1 || undefined, 'the CONFIRMED SMS');
    const notifications = () => platform.deps.knex('booking_notifications').where({ bookingId, channel: 'SMS' }).orderBy('dedupeKey');

    // the same activity again (a retry after its answer was lost): the claim finds the sent row
    const activities = createBookingActivities({ knex: platform.deps.knex, mailer: platform.mailer, sms });
    expect(await activities.sendBookingSms({ bookingId, kind: 'CONFIRMED', dedupeKey: 'CONFIRMED' })).to.equal('ALREADY_SENT');
    expect(await smsOf('CONFIRMED')).to.have.length(1);

    // a row claimed by an attempt that failed before the gateway took the message: the next attempt sends
    await platform.deps
      .knex('booking_notifications')
      .insert({ bookingId, tenantId: salon.tenant.id, channel: 'SMS', dedupeKey: 'REMINDER:test', kind: 'REMINDER' });
    expect(await activities.sendBookingSms({ bookingId, kind: 'REMINDER', dedupeKey: 'REMINDER:test' })).to.equal('SENT');
    expect(await activities.sendBookingSms({ bookingId, kind: 'REMINDER', dedupeKey: 'REMINDER:test' })).to.equal('ALREADY_SENT');
    expect(await smsOf('REMINDER')).to.have.length(1);
    const rows = await notifications();
    expect(rows.map((r: { dedupeKey: string; sentAt: Date | null }) => [r.dedupeKey, r.sentAt !== null])).to.deep.equal([
      ['CONFIRMED', true],
      ['REMINDER:test', true],
    ]);
  });
});
