// The waitlist offer page, reached as the waiting customer reaches it: from the link in the offer
// SMS, in a browser with JavaScript off (the page is plain forms), then accepted.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { closePages, openPage, pageSalon, scan, startBrowserStack } from './support';
import { stack } from '../support/stack';
import { call } from '../support/http';
import { eventually } from '../support/eventually';
import { at, knex, localDay } from '../support/booking-fixtures';

describe('waitlist offer page (browser)', function () {
  this.timeout(60_000);
  before(startBrowserStack);
  afterEach(closePages);

  it('when the waiting customer opens the offer link without JavaScript then the page shows the held time with nothing serious for axe, and accepting books it and opens the confirmation', async function () {
    const salon = await pageSalon();
    const day = localDay(3);
    const first = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(day, '10:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Først Kunde', phone: `+47${crypto.randomInt(40000000, 49999999)}` },
    });
    expect(first.status).to.equal(201);
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const joined = await call('post', `/public/tenants/${salon.tenant.slug}/waitlist`, undefined, {
      serviceIds: [salon.serviceId],
      fromDate: day,
      toDate: day,
      customer: { name: 'Vera Venter', phone },
    });
    expect(joined.status).to.equal(201);
    expect((await call('post', `/bookings/${first.body.data.id}/cancel`, salon.owner.token, { bySalon: true })).status).to.equal(200);
    const { sms } = await stack();
    const offer = await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'WAITLIST_OFFER'), 'the offer SMS');
    const link = /(https?:\/\/\S+\/waitlist\/offers\/\S+)/.exec(offer.text)![1];
    // the SMS names the price and the clock time the offer is held until
    const expiresAt = (
      await (
        await knex()
      )('waitlist_offers')
        .where({ id: /offers\/([0-9a-f-]+)/.exec(link)![1] })
        .first()
    ).expiresAt as Date;
    const until = expiresAt.toLocaleTimeString('nb-NO', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    expect(offer.text).to.contain('10:00–11:00, 500 kr.').and.contain(`Vi holder timen for deg til kl. ${until} (15 minutter).`);

    // axe runs as a script, so it scans the page in a context of its own with JavaScript on
    const scanned = await openPage(this);
    await scanned.page.goto(link);
    expect(await scan(scanned.page, 'offer page')).to.deep.equal([]);

    const { page, shot, baseUrl } = await openPage(this, { javaScript: false });
    expect(new URL(link).origin).to.equal(baseUrl);
    await page.goto(link);
    await shot('offer');
    expect(await page.getByRole('heading', { level: 2 }).first().innerText()).to.equal('En ledig time til deg');
    expect(await page.locator('main dd').first().innerText()).to.contain('10:00–11:00');
    expect(await page.locator('#offer-held').innerText()).to.match(new RegExp(`^Timen holdes av til deg til .+ ${until}\\.`));
    expect(await page.locator('#offer-price').innerText()).to.equal('500\u00a0kr');

    await page.getByRole('button', { name: 'Ja, bestill timen' }).click();
    await page.waitForURL(/new=1$/);
    await shot('booked');
    expect(await page.getByRole('heading', { level: 2 }).first().innerText()).to.equal('Takk for bestillingen!');
    const booking = await (await knex())('bookings').where({ tenantId: salon.tenant.id, contactName: 'Vera Venter' }).first();
    expect(booking).to.include({ status: 'CONFIRMED' });
  });
});
