// The signed-in customer's loyalty across salons (docs/rules/loyalty.md#a-customers-loyalty-across-salons): /customer/me/loyalty,
// /customer/loyalty/vouchers and /customer/loyalty/stamps/:tenantSlug, through a real sign-in.
import { expect } from 'chai';
import { call } from '../../support/http';
import { signInCustomer, signInWithProvenPhone } from '../../support/customers';
import { at, localDay } from '../../support/booking-fixtures';
import { bookingSalon, visitCard } from '../../support/loyalty';
import { eventually } from '../../support/eventually';

describe('customer loyalty routes', function () {
  this.timeout(60_000);

  it('when a signed-in customer earns a voucher then their overview, voucher list and stamps show it; others see nothing', async () => {
    const s = await bookingSalon();
    const card = await visitCard(s, { requiredStamps: 2 });
    const me = await signInWithProvenPhone();
    for (const day of [2, 3]) {
      const booked = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, me.accessToken, {
        startTime: at(localDay(day), '10:00'),
        items: [{ serviceId: s.serviceId }],
        // the phone the account proved links the salon's record to it (docs/rules/customers.md#linking-an-account)
        customer: { name: 'Kari Nordmann', phone: me.phone, email: me.email },
      });
      expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
      if (booked.body.data.status === 'PENDING')
        expect((await call('post', `/bookings/${booked.body.data.id}/status/CONFIRMED`, s.owner.token)).status).to.equal(200);
      // the visits are days ahead: the owner records them early with a reason (docs/rules/booking.md#statuses)
      for (const to of ['IN_PROGRESS', 'COMPLETED']) {
        const early = { force: true, reason: 'the customer came early by agreement' };
        expect((await call('post', `/bookings/${booked.body.data.id}/status/${to}`, s.owner.token, early)).status).to.equal(200);
      }
    }
    const vouchers = await eventually(async () => {
      const res = await call('get', '/customer/loyalty/vouchers', me.accessToken);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.data.length === 1 ? res.body.data : undefined;
    }, 'the voucher of the second stamp');
    expect(vouchers[0]).to.include({ status: 'ACTIVE', tenantSlug: s.tenant.slug, loyaltyCardId: card.id });

    const overview = await call('get', '/customer/me/loyalty', me.accessToken);
    expect(overview.status).to.equal(200);
    expect(overview.body.data).to.have.length(1);
    expect(overview.body.data[0]).to.include({ tenantSlug: s.tenant.slug });
    expect(overview.body.data[0].vouchers).to.have.length(1);
    expect(overview.body.data[0].cards[0].card.id).to.equal(card.id);

    const stamps = await call('get', `/customer/loyalty/stamps/${s.tenant.slug}`, me.accessToken);
    expect(stamps.status).to.equal(200);
    expect(stamps.body.data.cards[0]).to.include({ vouchersIssued: 1, requiredStamps: 2 });

    const stranger = await signInCustomer();
    expect((await call('get', '/customer/loyalty/vouchers', stranger.accessToken)).body.data).to.deep.equal([]);
    expect((await call('get', '/customer/me/loyalty', stranger.accessToken)).body.data).to.deep.equal([]);
    const unknown = await call('get', `/customer/loyalty/stamps/${s.tenant.slug}`, stranger.accessToken);
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('TENANT_NOT_FOUND');
    expect((await call('get', '/customer/loyalty/vouchers', s.owner.token)).status).to.equal(401);
    expect((await call('get', '/customer/loyalty/vouchers')).status).to.equal(401);
  });
});
