// Deposits at any distance (docs/rules/payments.md#deposits-at-any-distance) through the HTTP API,
// the pages and the real worker, at a Vipps salon against the suite's Vipps sandbox: the booking
// window is the salon's own with deposits on, a booking further ahead than a reservation lasts owes
// its deposit later (SCHEDULED, nothing to pay now), the customer pays a REQUESTED deposit from the
// manage page, and the owner is warned when settings make online booking impossible. The request, its
// reminder and the deadline run on the time-skipping server (test/workflows/deposit-later.workflow.test.ts).
import { expect } from 'chai';
import { call, http } from '../../support/http';
import { knex, localDay, at, bookingSalon } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';
import { answerInVipps, bookOnline, bookingRow, paymentPage, paymentRows, vippsSalon } from '../../support/payments';
import { stack } from '../../support/stack';

describe('payments: deposits requested later', function () {
  this.timeout(90_000);

  it('when deposits are on then the booking window is maxBookingDaysInAdvance: day 60 has times, day 61 is DATE_BEYOND_BOOKING_WINDOW', async () => {
    const { salon } = await vippsSalon({ settings: { maxBookingDaysInAdvance: 60 } });
    const slots = (date: string) => call('get', `/public/tenants/${salon.tenant.slug}/availability?serviceId=${salon.serviceId}&date=${date}`);
    const last = await slots(localDay(60));
    expect(last.status, JSON.stringify(last.body)).to.equal(200);
    expect(last.body.data.slots.length).to.be.above(0);
    const past = await slots(localDay(61));
    expect([past.status, past.body.error.code]).to.deep.equal([422, 'DATE_BEYOND_BOOKING_WINDOW']);
  });

  it('when a customer books 30 days ahead at a deposit salon then the booking is made with its deposit SCHEDULED, nothing to pay now and no payment yet', async () => {
    const { salon } = await vippsSalon({ settings: { autoConfirm: true } });
    const booking = await bookOnline(salon, 30);
    expect(booking).to.include({ status: 'CONFIRMED', paymentRequired: false });
    expect(await bookingRow(booking.id)).to.include({ status: 'CONFIRMED', depositStatus: 'SCHEDULED', paymentMode: 'ONLINE' });
    expect(await paymentRows(booking.id)).to.have.length(0);
    const own = await call('get', `/public/tenants/${salon.tenant.slug}/bookings/${booking.id}?token=${encodeURIComponent(booking.token)}`);
    expect(own.body.data).to.include({ depositStatus: 'SCHEDULED', paidAmount: 0 });
    // 6 days ahead it is paid when booking, as before
    const near = await bookOnline(salon, 5);
    expect(near.paymentRequired).to.equal(true);
    expect((await bookingRow(near.id)).depositStatus).to.equal('PENDING');
  });

  it('when a requested deposit is paid from the manage page then a Vipps checkout opens, and approved the deposit is reserved and the page says so', async () => {
    const { salon } = await vippsSalon();
    const booking = await bookOnline(salon, 30);
    const { vipps } = await stack();
    const page = await http().then((h) => h.get(`/${salon.tenant.slug}/bookings/${booking.id}?token=${encodeURIComponent(booking.token)}`));
    expect(page.text).to.contain('betalingslenke på SMS og e-post');
    // the booking workflow asked for it (test/workflows/deposit-later.workflow.test.ts): REQUESTED
    await (await knex())('bookings').where({ id: booking.id }).update({ depositStatus: 'REQUESTED' });
    const asked = await http().then((h) => h.get(`/${salon.tenant.slug}/bookings/${booking.id}?token=${encodeURIComponent(booking.token)}`));
    expect(asked.text).to.contain(`action="/${salon.tenant.slug}/bookings/${booking.id}/deposit"`);

    const paid = await http().then((h) =>
      h.post(`/${salon.tenant.slug}/bookings/${booking.id}/deposit`).type('form').send({ token: booking.token }).redirects(0),
    );
    expect(paid.status).to.equal(303);
    const [attempt] = await paymentRows(booking.id);
    expect(attempt).to.include({ status: 'INITIATED', provider: 'vipps', intent: 'DEPOSIT', amount: 20000 });
    expect(paid.headers.location).to.equal((await paymentPage(salon, booking)).redirectUrl);
    expect(vipps.payment(attempt.id)!.state).to.equal('CREATED');
    await answerInVipps(paid.headers.location, 'approve');
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'AUTHORIZED', 'the deposit reserved');
    const after = await http().then((h) => h.get(`/${salon.tenant.slug}/bookings/${booking.id}?token=${encodeURIComponent(booking.token)}`));
    expect(after.text).to.contain('er reservert, og trekkes når du kommer');
  });

  it('when an attempt at a requested deposit is turned down at Vipps then the booking keeps its request, and the next visit to pay opens a new attempt', async () => {
    const { salon } = await vippsSalon();
    const booking = await bookOnline(salon, 30);
    await (await knex())('bookings').where({ id: booking.id }).update({ depositStatus: 'REQUESTED' });
    const first = await paymentPage(salon, booking);
    await answerInVipps(first.redirectUrl!, 'reject');
    await eventually(async () => (await paymentRows(booking.id))[0].status === 'FAILED', 'the attempt failed');
    expect(await bookingRow(booking.id)).to.include({ status: 'PENDING', depositStatus: 'REQUESTED' });
    const second = await paymentPage(salon, booking);
    expect(second.paymentId).to.not.equal(first.paymentId);
    expect((await paymentRows(booking.id)).map((p: { status: string }) => p.status)).to.deep.equal(['FAILED', 'INITIATED']);
  });

  it('when the owner sets depositDeadlineHours then 1 and 120 are taken and 0 and 121 are refused with VALIDATION_ERROR', async () => {
    const salon = await bookingSalon();
    const patch = (depositDeadlineHours: number) => call('patch', `/tenants/${salon.tenant.id}`, salon.owner.token, { settings: { depositDeadlineHours } });
    for (const hours of [1, 120]) {
      const res = await patch(hours);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.settings.depositDeadlineHours).to.equal(hours);
    }
    for (const hours of [0, 121]) {
      const res = await patch(hours);
      expect([res.status, res.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
    }
  });

  it('when a settings change turns deposits on without an active payment config, or with a deposit of 0, then the answer warns; with a working config it does not', async () => {
    const salon = await bookingSalon();
    const patch = (settings: Record<string, unknown>) => call('patch', `/tenants/${salon.tenant.id}`, salon.owner.token, { settings });
    const codes = (res: { body: { data: { warnings: { code: string }[] } } }) => res.body.data.warnings.map((w) => w.code);
    expect(codes(await patch({ depositEnabled: false }))).to.deep.equal([]);
    expect(codes(await patch({ depositEnabled: true, depositType: 'fixed', depositValue: 20000 }))).to.deep.equal(['DEPOSIT_WITHOUT_PAYMENT_CONFIG']);
    expect(codes(await patch({ depositValue: 0 }))).to.deep.equal(['DEPOSIT_WITHOUT_PAYMENT_CONFIG', 'DEPOSIT_ZERO']);
    const onboarding = await call('get', '/tenants/me/onboarding', salon.owner.token);
    // the review lists the salon's other warnings too (its contact, docs/rules/salon.md#launch): the deposit's are these
    expect(codes(onboarding).filter((code) => code.startsWith('DEPOSIT_'))).to.deep.equal(['DEPOSIT_WITHOUT_PAYMENT_CONFIG', 'DEPOSIT_ZERO']);

    const configured = await vippsSalon();
    const ok = await call('patch', `/tenants/${configured.salon.tenant.id}`, configured.salon.owner.token, { settings: { depositValue: 15000 } });
    expect(codes(ok)).to.deep.equal([]);
  });

  it('when the customer picks a time 30 days ahead on the booking page then it says the deposit is asked for 6 days before, and the button books without paying', async () => {
    const { salon } = await vippsSalon({ settings: { depositDeadlineHours: 36 } });
    const contact = (days: number) =>
      http().then((h) =>
        h.get(`/${salon.tenant.slug}?services=${salon.serviceId}&staff=${salon.staff[0].resourceId}&time=${encodeURIComponent(at(localDay(days), '10:00'))}`),
      );
    const far = await contact(30);
    expect(far.status).to.equal(200);
    expect(far.text).to.contain('mer enn 6 dager fram i tid').and.contain('36 timer før');
    expect(far.text).to.not.contain('Bestill og betal depositum');
    const near = await contact(3);
    expect(near.text).to.contain('som du betaler på neste side').and.contain('Bestill og betal depositum');
  });
});
