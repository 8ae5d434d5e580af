// The waitlist offer page behind the link in the offer's SMS and e-mail
// (docs/rules/booking-page.md#the-waitlist-offer-page), over HTTP on the embedded stack with the
// real worker: a cancelled time is offered, the page shows it, and its plain forms accept (303 to
// the new booking's manage page) or decline; a closed offer, an unknown one and a wrong token are
// pages that say why, never the API's envelope.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { call, http } from '../../support/http';
import { stack } from '../../support/stack';
import { at, bookingSalon, knex, localDay, type BookingSalon } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';

const phone = () => `+47${crypto.randomInt(40000000, 49999999)}`;

/** Books `time` on day `day`, puts `waiters` on the waitlist, cancels the booking and answers each waiter's offer link. */
async function offeredTime(salon: BookingSalon, day: string, time: string, waiters: string[]) {
  const booked = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
    startTime: at(day, time),
    items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
    customer: { name: 'Først Kunde', phone: phone() },
  });
  expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
  const phones = waiters.map(() => phone());
  for (const [i, name] of waiters.entries()) {
    const joined = await call('post', `/public/tenants/${salon.tenant.slug}/waitlist`, undefined, {
      serviceIds: [salon.serviceId],
      fromDate: day,
      toDate: day,
      customer: { name, phone: phones[i] },
    });
    expect(joined.status, JSON.stringify(joined.body)).to.equal(201);
  }
  expect((await call('post', `/bookings/${booked.body.data.id}/cancel`, salon.owner.token, { bySalon: true })).status).to.equal(200);
  const { sms, platform } = await stack();
  const links = [];
  for (const to of phones) {
    const text = (await eventually(async () => (await sms.sentTo(to)).find((m) => m.meta?.kind === 'WAITLIST_OFFER'), `the offer SMS to ${to}`)).text;
    const link = /https?:\/\/\S+?(\/\S+\/waitlist\/offers\/([0-9a-f-]{36})\?token=(\S+))/.exec(text)!;
    expect(link[0].startsWith(platform.deps.config.publicBaseUrl)).to.equal(true);
    links.push({ path: link[1], offerId: link[2], token: decodeURIComponent(link[3]) });
  }
  return links;
}

const form = async (path: string, body: Record<string, string>) => (await http()).post(path).type('form').send(body);

describe('waitlist offer page (the link in the offer messages)', function () {
  this.timeout(120_000);

  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it("when the link is opened then the page shows the held time, the service and staff and the hold's end; accepting books it (303 to the manage page), and accepting again is a 409 page that says it was already accepted", async () => {
    const salon = await bookingSalon({ settings: { autoConfirm: true } });
    const day = localDay(3);
    const [offer] = await offeredTime(salon, day, '10:00', ['Vera Venter']);
    const base = `/${salon.tenant.slug}/waitlist/offers/${offer.offerId}`;

    const page = await (await http()).get(offer.path);
    expect(page.status).to.equal(200);
    expect(page.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(page.text).to.contain(`<h1>${salon.tenant.name}</h1>`).and.contain('En ledig time til deg').and.contain('10:00–');
    const service = await (await knex())('services').where({ id: salon.serviceId }).first();
    const staff = await (await knex())('resources').where({ id: salon.staff[0].resourceId }).first();
    expect(page.text).to.contain(service.name).and.contain(`hos ${staff.name}`);
    const expires = (await (await knex())('waitlist_offers').where({ id: offer.offerId }).first()).expiresAt as Date;
    const heldUntil = new Intl.DateTimeFormat('nb-NO', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit' }).format(expires);
    expect(page.text).to.contain('Timen holdes av til deg til').and.contain(heldUntil);
    expect(page.text).to.contain(`action="${base}/accept"`).and.contain(`action="${base}/decline"`);
    const english = await (await http()).get(`${offer.path}&lang=en`);
    expect(english.text).to.contain('A free time for you').and.contain('Yes, book this time');

    const accepted = await form(`${base}/accept`, { token: offer.token });
    expect(accepted.status, accepted.text).to.equal(303);
    expect(accepted.headers.location).to.match(new RegExp(`^/${salon.tenant.slug}/bookings/[0-9a-f-]{36}\\?token=.+&new=1$`));
    const bookingId = /bookings\/([0-9a-f-]{36})/.exec(accepted.headers.location)![1];
    const row = await (await knex())('bookings').where({ id: bookingId }).first();
    expect(row).to.include({ tenantId: salon.tenant.id, contactName: 'Vera Venter', status: 'CONFIRMED' });
    expect(new Date(row.startTime).toISOString()).to.equal(at(day, '10:00'));
    const manage = await (await http()).get(accepted.headers.location);
    expect(manage.status).to.equal(200);
    expect(manage.text).to.contain('Takk for bestillingen!');

    const again = await form(`${base}/accept`, { token: offer.token });
    expect(again.status).to.equal(409);
    expect(again.headers['content-type']).to.contain('text/html');
    expect(again.text).to.contain('Du har allerede takket ja, og timen er bestilt.').and.contain(`href="/${salon.tenant.slug}"`);
    // reopening the link later leads to the booking it made
    const later = await (await http()).get(offer.path);
    expect(later.status).to.equal(200);
    expect(later.text).to.contain('Du har takket ja').and.contain(`href="/${salon.tenant.slug}/bookings/${bookingId}?token=`);
    expect(later.text).to.not.contain(`action="${base}/accept"`);
  });

  it('when the customer declines then the page says the time was passed on; a wrong token or an unknown offer is a 404 page, never the envelope', async () => {
    const salon = await bookingSalon();
    const [offer] = await offeredTime(salon, localDay(4), '11:00', ['Nils Nei']);
    const base = `/${salon.tenant.slug}/waitlist/offers/${offer.offerId}`;

    const wrong = await (await http()).get(`${base}?token=nope`);
    expect(wrong.status).to.equal(404);
    expect(wrong.headers['content-type']).to.contain('text/html');
    expect(wrong.text).to.contain('Fant ikke tilbudet. Sjekk at lenken er hel.').and.contain(`href="/${salon.tenant.slug}"`);
    const wrongPost = await form(`${base}/accept`, { token: `${offer.token}x` });
    expect(wrongPost.status).to.equal(404);
    expect(wrongPost.text).to.contain('Fant ikke tilbudet.');
    const unknown = await (await http()).get(`/${salon.tenant.slug}/waitlist/offers/${crypto.randomUUID()}?token=${encodeURIComponent(offer.token)}`);
    expect(unknown.status).to.equal(404);
    expect((await (await http()).get(`/${salon.tenant.slug}/waitlist/offers/not-a-uuid?token=x`)).status).to.equal(404);

    const declined = await form(`${base}/decline`, { token: offer.token });
    expect(declined.status).to.equal(303);
    expect(declined.headers.location).to.equal(offer.path);
    const after = await (await http()).get(declined.headers.location);
    expect(after.status).to.equal(200);
    expect(after.text).to.contain('Takk for svaret').and.contain('timen er gitt videre til nestemann på ventelisten');
    expect((await (await knex())('waitlist_offers').where({ id: offer.offerId }).first()).status).to.equal('DECLINED');
    const acceptAfter = await form(`${base}/accept`, { token: offer.token });
    expect(acceptAfter.status).to.equal(409);
    expect(acceptAfter.text).to.contain('Du har takket nei til dette tilbudet.');
    expect(await (await knex())('bookings').where({ tenantId: salon.tenant.id, status: 'CONFIRMED' })).to.have.length(0);
  });

  it("when another waiter accepted first (BROADCAST) or the hold ran out then accepting is a 409 page that says which, with the salon's page to book from", async () => {
    const salon = await bookingSalon({ settings: { waitlistMode: 'BROADCAST' } });
    const [first, second] = await offeredTime(salon, localDay(5), '13:00', ['Første Venter', 'Andre Venter']);
    const prefix = `/${salon.tenant.slug}/waitlist/offers`;
    expect((await form(`${prefix}/${first.offerId}/accept`, { token: first.token })).status).to.equal(303);
    const taken = await form(`${prefix}/${second.offerId}/accept`, { token: second.token });
    expect(taken.status).to.equal(409);
    expect(taken.text)
      .to.contain('Tilbudet gjelder ikke lenger')
      .and.contain('En annen på ventelisten rakk å ta timen før deg.')
      .and.contain(`href="/${salon.tenant.slug}"`);
    const takenEn = await (await http()).get(`${second.path}&lang=en`);
    expect(takenEn.text).to.contain('Someone else on the waitlist took this time before you.');

    // the hold running out is the offer's workflow's doing; here the row is set as it leaves it
    const other = await bookingSalon();
    const [late] = await offeredTime(other, localDay(5), '14:00', ['Sen Venter']);
    await (await knex())('waitlist_offers').where({ id: late.offerId }).update({ status: 'EXPIRED' });
    const expired = await form(`/${other.tenant.slug}/waitlist/offers/${late.offerId}/accept`, { token: late.token });
    expect(expired.status).to.equal(409);
    expect(expired.text).to.contain('Fristen for å svare gikk ut, og timen er gitt videre.');
    const expiredPage = await (await http()).get(late.path);
    expect(expiredPage.status).to.equal(200);
    expect(expiredPage.text).to.contain('Fristen for å svare gikk ut').and.to.not.contain('/accept"');
  });
});
