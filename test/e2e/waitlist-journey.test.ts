// A cancelled time booked again from the waitlist, end to end through the HTTP API on the embedded
// stack and the real worker (docs/rules/waitlist.md): the waitlister joins, the salon cancels, the
// offer arrives by SMS and e-mail, its link's offer is read and accepted, and the booking is made
// (201) with its own workflow's confirmation. Prints the cancellation-to-offer delay it measured. The
// HTTP calls go through the client generated from openapi.yaml, as a consumer's would.
import { expect } from 'chai';
import crypto from 'node:crypto';
import request from 'supertest';
import { apiClient, expectError, expectOk } from '../support/api-client';
import { appWith, stack } from '../support/stack';
import { at, bookingSalon, knex, localDay } from '../support/booking-fixtures';
import { eventually } from '../support/eventually';
import { bookOnline, depositSalon, paymentRows } from '../support/payments';

describe('waitlist journey: cancel -> offer by SMS and e-mail -> accept -> booked', function () {
  this.timeout(120_000);

  it('when a booked time is cancelled then the waitlister is offered it, accepts through the link and gets the booking (201)', async () => {
    const salon = await bookingSalon({ settings: { autoConfirm: true } });
    const { sms, platform } = await stack();
    const date = localDay(3);
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const email = `venter-${crypto.randomUUID()}@example.test`;

    const api = await apiClient();
    const slug = { slug: salon.tenant.slug };
    const booked = expectOk(
      await api.POST('/public/tenants/{slug}/bookings', {
        params: { path: slug },
        body: {
          startTime: at(date, '10:00'),
          items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
          customer: { name: 'Først Kunde', phone: `+47${crypto.randomInt(40000000, 49999999)}` },
        },
      }),
      201,
    );

    const joined = expectOk(
      await api.POST('/public/tenants/{slug}/waitlist', {
        params: { path: slug },
        body: {
          serviceIds: [salon.serviceId],
          fromDate: localDay(1),
          toDate: localDay(14),
          earliestTime: '09:00',
          latestTime: '12:00',
          customer: { name: 'Vera Venter', phone, email },
        },
      }),
      201,
    );

    const cancelledAt = Date.now();
    const staff = await apiClient(salon.owner.token);
    expectOk(await staff.POST('/bookings/{id}/cancel', { params: { path: { id: booked.data.id } }, body: { bySalon: true, reason: 'Sykdom' } }), 200);

    const offerSms = await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'WAITLIST_OFFER'), 'the offer SMS');
    const seenAfterMs = Date.now() - cancelledAt;
    expect(offerSms.text).to.contain('Hei Vera Venter!').and.contain('kl. 10:00').and.contain('15 minutter');
    const link = /(https?:\/\/\S+\/waitlist\/offers\/(\S+)\?token=(\S+))/.exec(offerSms.text)!;
    expect(link[1].startsWith(`${platform.deps.config.publicBaseUrl}/${salon.tenant.slug}/waitlist/offers/`)).to.equal(true);
    const [offerId, token] = [link[2], decodeURIComponent(link[3])];
    const offerMail = await eventually(async () => (await platform.mailer.sentTo(email)).find((m) => m.meta?.kind === 'WAITLIST_OFFER'), 'the offer e-mail');
    expect(offerMail.subject).to.contain('Ledig time');

    const db = await knex();
    const round = await db('waitlist_rounds').where({ tenantId: salon.tenant.id }).first();
    const delaySeconds = (new Date(round.firstOfferSentAt).getTime() - new Date(round.freedAt).getTime()) / 1000;
    console.log(`      cancellation -> first offer delivered: ${delaySeconds.toFixed(3)} s (database clock); SMS seen by the test after ${seenAfterMs} ms`);

    const offerPath = { path: { ...slug, offerId } };
    const offer = expectOk(await api.GET('/public/tenants/{slug}/waitlist/offers/{offerId}', { params: { ...offerPath, query: { token } } }), 200);
    expect(offer.data).to.include({ status: 'OFFERED', startTime: at(date, '10:00') });
    expectError(await api.GET('/public/tenants/{slug}/waitlist/offers/{offerId}', { params: { ...offerPath, query: { token: 'nope' } } }), 404);

    const accepted = expectOk(await api.POST('/public/tenants/{slug}/waitlist/offers/{offerId}/accept', { params: offerPath, body: { token } }), 201);
    expect(accepted.data).to.include({ status: 'CONFIRMED', startTime: at(date, '10:00'), customerName: 'Vera Venter', paymentRequired: false });
    expectError(
      await api.POST('/public/tenants/{slug}/waitlist/offers/{offerId}/accept', { params: offerPath, body: { token } }),
      409,
      'WAITLIST_OFFER_ALREADY_ACCEPTED',
    );

    // the new booking lives its own life: its workflow confirms it to the waitlister
    await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'CONFIRMED'), 'the confirmation of the booking made from the waitlist');
    const entry = expectOk(
      await api.GET('/public/tenants/{slug}/waitlist/{id}', { params: { path: { ...slug, id: joined.data.id }, query: { token: joined.data.token } } }),
      200,
    );
    expect(entry.data).to.include({ status: 'BOOKED', bookingId: accepted.data.id });

    const app = await appWith({ METRICS_TOKEN: 'metrics-token-for-tests-0123' });
    const metrics = await request(app).get('/api/metrics').set('Authorization', 'Bearer metrics-token-for-tests-0123');
    expect(metrics.status).to.equal(200);
    expect(metrics.text).to.match(/waitlist_offers\{outcome="sent"\} [1-9]/);
    expect(metrics.text).to.match(/waitlist_offers\{outcome="accepted"\} [1-9]/);
    expect(metrics.text).to.match(/waitlist_slots_refilled [1-9]/);
    expect(metrics.text).to.match(/waitlist_first_offer_delay_seconds\{quantile="0.5"\} \d/);
  });

  it('when the salon takes deposits then the booking made from the waitlist asks for the deposit like any online booking', async () => {
    const salon = await depositSalon({ settings: { depositValue: 20 } });
    const { sms } = await stack();
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const first = await bookOnline(salon, 2, '11:00');
    expect(first.paymentRequired).to.equal(true);
    const api = await apiClient();
    const slug = { slug: salon.tenant.slug };
    expectOk(
      await api.POST('/public/tenants/{slug}/waitlist', {
        params: { path: slug },
        body: { serviceIds: [salon.serviceId], fromDate: localDay(1), toDate: localDay(5), customer: { name: 'Dora Depositum', phone } },
      }),
      201,
    );
    expectOk(await (await apiClient(salon.owner.token)).POST('/bookings/{id}/cancel', { params: { path: { id: first.id } }, body: { bySalon: true } }), 200);
    const offer = await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'WAITLIST_OFFER'), 'the offer SMS');
    const token = decodeURIComponent(/token=(\S+)/.exec(offer.text)![1]);
    const accepted = expectOk(
      await api.POST('/public/tenants/{slug}/waitlist/offers/{offerId}/accept', {
        params: { path: { ...slug, offerId: String(offer.meta!.offerId) } },
        body: { token },
      }),
      201,
    );
    expect(accepted.data).to.include({ status: 'PENDING', paymentRequired: true, startTime: at(localDay(2), '11:00') });
    const payments = await paymentRows(accepted.data.id);
    expect(payments).to.have.length(1);
    expect(payments[0].amount).to.equal(salon.service.price * 0.2);
  });
});
