// A customer's booking from the public portal through the real worker: the HTTP API writes the
// booking and signals its workflow, and the workflow sends the confirmation and, on completion,
// counts the visit. Nothing here is faked but the SMS gateway (a folder outbox). The HTTP calls go
// through the client generated from openapi.yaml, as a consumer's would.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { apiClient, expectOk } from '../support/api-client';
import { stack } from '../support/stack';
import { bookingSalon, localDay, at, knex } from '../support/booking-fixtures';
import { eventually } from '../support/eventually';

describe('booking journey: public portal -> workflow -> messages and visit metrics', function () {
  this.timeout(60_000);

  it('when a guest books online at an auto-confirming salon then an SMS confirmation arrives, and completing the visit counts it once', async () => {
    const salon = await bookingSalon({ settings: { autoConfirm: true } });
    const { sms } = await stack();
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const date = localDay(3);

    const created = expectOk(
      await (
        await apiClient()
      ).POST('/public/tenants/{slug}/bookings', {
        params: { path: { slug: salon.tenant.slug } },
        body: {
          startTime: at(date, '10:00'),
          items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
          customer: { name: 'Kari Nordmann', phone },
        },
      }),
      201,
    );
    const bookingId = created.data.id;
    expect(created.data.status).to.equal('CONFIRMED');

    const confirmation = await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'CONFIRMED'), 'the confirmation SMS');
    expect(confirmation.text).to.contain('Hei Kari Nordmann!').and.contain('kl. 10:00');

    const staff = await apiClient(salon.owner.token);
    // the visit is days ahead: the owner records it early with a reason (docs/rules/booking.md#statuses)
    for (const status of ['ARRIVED', 'IN_PROGRESS', 'COMPLETED'] as const) {
      const early = { force: true, reason: 'the customer came early by agreement' };
      const moved = expectOk(await staff.POST('/bookings/{id}/status/{status}', { params: { path: { id: bookingId, status } }, body: early }), 200);
      expect(moved.data.status).to.equal(status);
    }

    const db = await knex();
    const booking = await db('bookings').where({ id: bookingId }).first();
    const visits = await eventually(async () => {
      const tc = await db('tenant_customers').where({ tenantId: salon.tenant.id, customerId: booking.customerId }).first();
      return tc?.visitCount > 0 ? tc : undefined;
    }, 'the visit to be counted');
    expect(visits.visitCount).to.equal(1);
    expect(Number(visits.totalSpent)).to.equal(salon.service.price);
    expect(await db('tenant_customer_visits').where({ bookingId }).count('* as n').first()).to.deep.equal({ n: 1 });
  });

  it('when the api says it is busy then the confirmation waits at the gate, and it is sent once the api is idle', async () => {
    const salon = await bookingSalon({ settings: { autoConfirm: true } });
    const { sms, apiLoad } = await stack();
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    apiLoad.set('busy');
    try {
      expectOk(
        await (
          await apiClient()
        ).POST('/public/tenants/{slug}/bookings', {
          params: { path: { slug: salon.tenant.slug } },
          body: {
            startTime: at(localDay(5), '12:00'),
            items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
            customer: { name: 'Ola', phone },
          },
        }),
        201,
      );
      // the workflow's activities reach the gate one after the other (its read first): let each earlier
      // one through (idle, busy again in the same step) until the confirmation's SMS is the one held
      await eventually(
        async () => {
          const held = apiLoad.held();
          if (held.includes('sendBookingSms')) return true;
          if (held.length) {
            apiLoad.set('idle');
            apiLoad.set('busy');
          }
          return undefined;
        },
        () => `the confirmation SMS held at the gate (held: ${apiLoad.held().join(', ') || 'nothing'})`,
      );
      expect(await sms.sentTo(phone), 'no SMS while the api is busy').to.have.length(0);
      expect(apiLoad.held(), 'the SMS still held once the outbox was read').to.include('sendBookingSms');
      // idle releases what waits at once (the stack's hold limit is a minute: nothing else lets it go)
      apiLoad.set('idle');
      expect(apiLoad.held()).to.deep.equal([]);
    } finally {
      apiLoad.set('idle');
    }
    await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'CONFIRMED'), 'the confirmation SMS once the api is idle');
  });

  it('when the salon cancels a booking then the customer gets a cancellation SMS', async () => {
    const salon = await bookingSalon({ settings: { autoConfirm: false } });
    const { sms } = await stack();
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const created = expectOk(
      await (
        await apiClient()
      ).POST('/public/tenants/{slug}/bookings', {
        params: { path: { slug: salon.tenant.slug } },
        body: { startTime: at(localDay(4), '11:00'), items: [{ serviceId: salon.serviceId }], customer: { name: 'Per', phone } },
      }),
      201,
    );
    expect(created.data.status).to.equal('PENDING');
    await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'RECEIVED'), 'the booking-received SMS');

    const staff = await apiClient(salon.owner.token);
    const cancelled = expectOk(
      await staff.POST('/bookings/{id}/cancel', { params: { path: { id: created.data.id } }, body: { bySalon: true, reason: 'Sykdom' } }),
      200,
    );
    expect(cancelled.data).to.include({ status: 'CANCELLED', cancelledBy: 'SALON', cancelReason: 'Sykdom' });
    const notice = await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'CANCELLED'), 'the cancellation SMS');
    expect(notice.text).to.contain('avbestilt');
  });
});
