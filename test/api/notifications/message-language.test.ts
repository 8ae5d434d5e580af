// The language of a customer's messages (docs/rules/messages.md#language): a booking keeps the
// language it was made in, and every message about it (SMS, e-mail, its calendar invitation, the
// move, the cancellation) is written in it; a waitlist entry likewise. Through the HTTP API and the
// real worker.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { call } from '../../support/http';
import { stack } from '../../support/stack';
import { at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';

const phone = () => `+479${String(crypto.randomInt(0, 10_000_000)).padStart(7, '0')}`;

describe('the language of messages (HTTP, worker)', function () {
  this.timeout(90_000);
  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it('when a customer books in English then the confirmation SMS and e-mail, the invitation, the move and the cancellation are English and link to the page in English; a booking made in Norwegian stays Norwegian', async () => {
    const salon = await bookingSalon({ settings: { autoConfirm: true } });
    const { sms, platform } = await stack();
    const english = { number: phone(), email: `en-${crypto.randomUUID()}@example.test` };
    const created = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(3), '10:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Emma', phone: english.number, email: english.email },
      language: 'en',
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = created.body.data.id;
    expect((await (await knex())('bookings').where({ id }).first()).language).to.equal('en');

    const confirmation = await eventually(async () => (await sms.sentTo(english.number)).find((m) => m.meta?.kind === 'CONFIRMED'), 'the confirmation SMS');
    expect(confirmation.text)
      .to.match(/^Hi Emma! Your appointment is confirmed: /)
      .and.match(/ on \w+day \d+ \w+, 10:00–\d\d:\d\d \(Oslo time\)/)
      .and.match(/See or cancel the appointment: \S+\/bookings\/[0-9a-f-]+\?token=\S+&lang=en$/);
    const mail = await eventually(
      async () => (await platform.mailer.sentTo(english.email)).find((m) => m.meta?.kind === 'CONFIRMED'),
      'the confirmation e-mail',
    );
    expect(mail.subject).to.equal(`Confirmed: your appointment at ${salon.tenant.name}`);
    const invitation = String(mail.attachments?.[0]?.content ?? '').replace(/\r\n[ \t]/g, ''); // unfolded (RFC 5545 folds long lines)
    expect(invitation).to.contain('See or cancel the appointment').and.contain('PRODID:-//salon-platform//booking//EN').and.not.contain('avbestill');

    const moved = await call('patch', `/bookings/${id}`, salon.owner.token, { startTime: at(localDay(4), '12:00') });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const rescheduled = await eventually(async () => (await sms.sentTo(english.number)).find((m) => m.meta?.kind === 'RESCHEDULED'), 'the move SMS');
    expect(rescheduled.text).to.match(/^Hi Emma! Your appointment has been moved: .+ on \w+day \d+ \w+, 12:00–\d\d:\d\d \(Oslo time\)/);

    const cancelled = await call('post', `/bookings/${id}/cancel`, salon.owner.token, { reason: 'sick' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    const cancellation = await eventually(async () => (await sms.sentTo(english.number)).find((m) => m.meta?.kind === 'CANCELLED'), 'the cancellation SMS');
    expect(cancellation.text).to.match(/^Hi Emma! Your appointment .* is cancelled\.$/);

    const norwegian = phone();
    const nb = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(5), '10:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Kari', phone: norwegian },
    });
    expect(nb.status, JSON.stringify(nb.body)).to.equal(201);
    const nbConfirmation = await eventually(async () => (await sms.sentTo(norwegian)).find((m) => m.meta?.kind === 'CONFIRMED'), 'the Norwegian confirmation');
    expect(nbConfirmation.text)
      .to.match(/^Hei Kari! Timen din er bekreftet: .* kl\. 10:00/)
      .and.not.contain('lang=en');
  });

  it('when a customer joins the waitlist in English then the message confirming it is English, with the link to see or leave the entry in English', async () => {
    const salon = await bookingSalon();
    const { sms } = await stack();
    const number = phone();
    const joined = await call('post', `/public/tenants/${salon.tenant.slug}/waitlist`, undefined, {
      serviceIds: [salon.serviceId],
      fromDate: localDay(2),
      toDate: localDay(2),
      customer: { name: 'Emma', phone: number },
      language: 'en',
    });
    expect(joined.status, JSON.stringify(joined.body)).to.equal(201);
    const message = await eventually(async () => (await sms.sentTo(number)).find((m) => m.meta?.kind === 'WAITLIST_JOINED'), 'the waitlist confirmation');
    const link = `/${salon.tenant.slug}/waitlist/${joined.body.data.id}?token=${encodeURIComponent(joined.body.data.token)}&lang=en`;
    expect(message.text)
      .to.match(/^Hi Emma! You are on the waitlist at /)
      .and.contain(`See or leave the waitlist: `)
      .and.contain(link);
  });
});
