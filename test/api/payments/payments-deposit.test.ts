// The deposit journey through HTTP and the real worker (docs/rules/payments.md, docs/rules/booking.md#statuses): a booking at a
// deposit salon gets a payment, the customer pays on the sandbox's hosted checkout, the signed
// webhook moves the payment, and the payment workflow confirms the booking and marks the deposit.
import { expect } from 'chai';
import { call } from '../../support/http';
import { stack } from '../../support/stack';
import { at, knex, localDay } from '../../support/booking-fixtures';
import { bookOnline, bookingRow, clickCheckout, depositSalon, paymentPage, paymentRows, paymentWorkflowEnded, sandboxMoney } from '../../support/payments';
import { eventually } from '../../support/eventually';
import { signInCustomer } from '../../support/customers';
import request from 'supertest';
import { appWithTemporalOutage, type TemporalOutage } from '../../support/temporal-outage';

describe('payments: deposit on booking creation', function () {
  this.timeout(60_000);

  it('when a guest books at a deposit salon then the booking is PENDING with paymentRequired and an INITIATED deposit of payable x percent in minor units', async () => {
    const salon = await depositSalon({ settings: { depositValue: 33 } });
    const booking = await bookOnline(salon);
    expect(booking.paymentRequired).to.equal(true);
    expect(booking.status).to.equal('PENDING');
    const [payment] = await paymentRows(booking.id);
    // 50000 x 33 % = 16500
    expect(payment).to.include({ status: 'INITIATED', intent: 'DEPOSIT', amount: 16500, captureMode: 'AUTO', capturedAmount: 0, provider: 'sandbox' });
    expect((await bookingRow(booking.id)).depositStatus).to.equal('PENDING');
    expect((await bookingRow(booking.id)).paymentMode).to.equal('ONLINE');
  });

  it('when the customer pays on the sandbox page (auto capture) then the payment is CAPTURED, the booking CONFIRMED and its deposit PAID', async () => {
    const salon = await depositSalon();
    const booking = await bookOnline(salon);
    const page = await paymentPage(salon, booking);
    expect(page.status).to.equal('INITIATED');
    expect(page.amount).to.equal(10000);
    expect(page.redirectUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+\/checkout\//);
    await clickCheckout(page.redirectUrl!, 'pay');
    const confirmed = await eventually(async () => {
      const b = await bookingRow(booking.id);
      return b.status === 'CONFIRMED' && b.depositStatus === 'PAID' ? b : undefined;
    }, 'the booking to be confirmed and paid');
    expect(confirmed.depositStatus).to.equal('PAID');
    const [payment] = await paymentRows(booking.id);
    expect(payment).to.include({ status: 'CAPTURED', capturedAmount: 10000 });

    const poll = await call('get', `/public/payments/${salon.tenant.id}/status?paymentId=${payment.id}`);
    expect(poll.status).to.equal(200);
    expect(poll.body.data).to.include({ status: 'CAPTURED', bookingStatus: 'CONFIRMED', depositStatus: 'PAID' });
  });

  it("when a stranger holds the payment id (it travels in the provider's return address) then the status poll tells only the page's statuses, never the booking's id, and the booking cannot be claimed without proof", async () => {
    const salon = await depositSalon();
    const booking = await bookOnline(salon);
    const page = await paymentPage(salon, booking);
    const poll = await call('get', `/public/payments/${salon.tenant.id}/status?paymentId=${page.paymentId}`);
    expect(poll.status).to.equal(200);
    expect(poll.body.data).to.deep.equal({ paymentId: page.paymentId, status: 'INITIATED', bookingStatus: 'PENDING', depositStatus: 'PENDING' });
    expect(JSON.stringify(poll.body)).to.not.contain(booking.id);
    const stranger = await signInCustomer();
    const claim = await call('post', `/public/tenants/${salon.tenant.slug}/bookings/${booking.id}/claim`, stranger.accessToken);
    expect([claim.status, claim.body.error.code]).to.deep.equal([403, 'BOOKING_CLAIM_PROOF_REQUIRED']);
  });

  it('when the config captures manually then paying authorizes, the booking is CONFIRMED, and arrival captures the deposit exactly once', async () => {
    const salon = await depositSalon({ captureMode: 'MANUAL' });
    const booking = await bookOnline(salon);
    const page = await paymentPage(salon, booking);
    await clickCheckout(page.redirectUrl!, 'pay');
    await eventually(async () => (await bookingRow(booking.id)).status === 'CONFIRMED', 'the booking to be confirmed');
    const [authorized] = await paymentRows(booking.id);
    expect(authorized.status).to.equal('AUTHORIZED');
    expect(new Date(authorized.expiresAt).getTime() - new Date(authorized.authorizedAt).getTime()).to.equal(7 * 24 * 3600 * 1000);

    // the booking is days ahead: the owner marks the early visit with a reason (docs/rules/booking.md#statuses)
    const arrived = await call('post', `/bookings/${booking.id}/status/ARRIVED`, salon.owner.token, { force: true, reason: 'the customer came a day early' });
    expect(arrived.status, JSON.stringify(arrived.body)).to.equal(200);
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'the deposit to be captured');
    for (const status of ['IN_PROGRESS', 'COMPLETED']) {
      expect(
        (await call('post', `/bookings/${booking.id}/status/${status}`, salon.owner.token, { force: true, reason: 'the customer came a day early' })).status,
      ).to.equal(200);
    }
    const [captured] = await paymentRows(booking.id);
    expect(captured).to.include({ status: 'CAPTURED', capturedAmount: 10000 });
    // once the payment's workflow has ended nothing more goes to the provider: one capture request, with one key
    await paymentWorkflowEnded(captured.id);
    expect(await sandboxMoney(captured.providerSessionId)).to.deep.equal({
      captured: 1,
      captureRequests: { count: 1, keys: [`capture:${captured.id}`] },
      refundRequests: { count: 0, keys: [] },
    });
  });

  describe("when arrival asks for the capture but Temporal cannot be reached (the api's own connection, cut for real)", () => {
    let outage: TemporalOutage;
    before(async () => {
      outage = await appWithTemporalOutage();
    });
    after(async () => {
      await outage?.close();
    });

    for (const [how, cut] of [
      ['refuses the connection', () => outage.refuse()],
      ["accepts it and never answers (the signal's deadline runs out)", () => outage.hang()],
    ] as const) {
      it(`when Temporal ${how} then 503 and nothing changed: the booking is not ARRIVED and no capture was asked for; once it is back arrival captures`, async function () {
        this.timeout(90_000);
        const salon = await depositSalon({ captureMode: 'MANUAL' });
        const booking = await bookOnline(salon);
        await clickCheckout((await paymentPage(salon, booking)).redirectUrl!, 'pay');
        await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'AUTHORIZED', 'the deposit authorized');
        const [authorized] = await paymentRows(booking.id);
        const confirmed = await bookingRow(booking.id);
        const arrive = () =>
          request(outage.app)
            .post(`/api/bookings/${booking.id}/status/ARRIVED`)
            .set('Authorization', `Bearer ${salon.owner.token}`)
            .send({ force: true, reason: 'the customer came a day early' });
        await cut();
        try {
          const arrived = await arrive();
          expect([arrived.status, arrived.body.error?.code], JSON.stringify(arrived.body)).to.deep.equal([503, 'WORKFLOW_UNAVAILABLE']);
        } finally {
          await outage.restore();
        }
        expect(await bookingRow(booking.id)).to.include({ status: 'CONFIRMED', version: confirmed.version });
        expect((await paymentRows(booking.id))[0]).to.include({ status: 'AUTHORIZED', captureRequestedAt: null, version: authorized.version });
        expect(
          await (await knex())('payment_events').where({ paymentId: authorized.id, type: 'PaymentCaptureRequested' }),
          'no capture asked for',
        ).to.have.length(0);
        // tried again once Temporal is back: arrived, and captured
        await eventually(async () => ((await arrive()).status === 200 ? true : undefined), 'arrival once Temporal is back');
        await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'the deposit captured');
      });
    }
  });

  it('when the booking is in person (staff-created) then no payment is made even at a deposit salon', async () => {
    const salon = await depositSalon();
    const res = await call('post', '/bookings', salon.owner.token, {
      startTime: at(localDay(2), '12:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Ola', phone: '+4791234567' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data.paymentMode).to.equal('IN_PERSON');
    expect(await paymentRows(res.body.data.id)).to.have.length(0);
  });

  it('when deposits are on but no payment config is active then the failure NO_ACTIVE_PROVIDER is recorded, nothing is due online, and onboarding warns', async () => {
    const salon = await depositSalon({ activate: false });
    const booking = await bookOnline(salon);
    expect(booking.paymentRequired).to.equal(false);
    const [payment] = await paymentRows(booking.id);
    expect(payment).to.include({ status: 'FAILED', failureReason: 'NO_ACTIVE_PROVIDER' });
    const onboarding = await call('get', '/tenants/me/onboarding', salon.owner.token);
    expect(onboarding.body.data.warnings.map((w: { code: string }) => w.code)).to.include('DEPOSIT_WITHOUT_PAYMENT_CONFIG');
    await call('post', `/admin/payment-configs/${salon.configId}/activate`, salon.owner.token);
    const after = await call('get', '/tenants/me/onboarding', salon.owner.token);
    expect(after.body.data.warnings.map((w: { code: string }) => w.code)).not.to.include('DEPOSIT_WITHOUT_PAYMENT_CONFIG');
    expect(after.body.data.launchBlockers).to.deep.equal([]);
  });

  it('when deposits are on then the booking window stays maxBookingDaysInAdvance: day 6 pays now, day 8 owes its deposit later, day 31 is refused', async () => {
    const salon = await depositSalon({ settings: { maxBookingDaysInAdvance: 30 } });
    expect((await bookOnline(salon, 5)).paymentRequired).to.equal(true);
    const later = await bookOnline(salon, 8);
    expect(later.paymentRequired).to.equal(false);
    expect((await bookingRow(later.id)).depositStatus).to.equal('SCHEDULED');
    const beyond = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(31), '10:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Kari', phone: '+4790000001' },
    });
    expect([beyond.status, beyond.body.error.code]).to.deep.equal([422, 'DATE_BEYOND_BOOKING_WINDOW']);
    const profile = await call('get', `/public/tenants/${salon.tenant.slug}`);
    expect(profile.body.data.settings.maxBookingDaysInAdvance).to.equal(30);
  });
});
