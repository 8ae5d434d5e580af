// ePay, the default provider (docs/rules/payments.md#payment-configs): the Payment Window with MD5-hashed parameters, the
// callback verified with an MD5 hash over the parameters and the merchant's secret (GET, and the
// same parameters as a form POST), and capture / delete / credit over its SOAP webservice - against
// the local stand-in in test/support/epay-stand-in.ts.
import { expect } from 'chai';
import { call, http } from '../../support/http';
import { stack } from '../../support/stack';
import { bookOnline, bookingRow, epaySalon, payInEpayWindow, paymentPage, paymentRows } from '../../support/payments';
import { epayHash, orderIdOf } from '../../../integrations/payments/epay/epay-provider';
import { eventually } from '../../support/eventually';

describe('payments: ePay (default provider) against its stand-in', function () {
  this.timeout(60_000);

  it('when the customer pays in the ePay window with instant capture then the MD5-verified callback captures the deposit and confirms the booking', async () => {
    const { salon } = await epaySalon('AUTO');
    const booking = await bookOnline(salon);
    const page = await paymentPage(salon, booking);
    expect(page.amount).to.equal(15000);
    expect(page.redirectUrl).to.contain('merchantnumber=').and.contain('currency=578').and.contain('instantcapture=1').and.contain('hash=');
    await payInEpayWindow(page.redirectUrl!);
    const { epay } = await stack();
    expect(epay.callbacks.at(-1)!.status).to.equal(200);
    await eventually(async () => {
      const b = await bookingRow(booking.id);
      return b.status === 'CONFIRMED' && b.depositStatus === 'PAID';
    }, 'confirmed and paid');
    const [payment] = await paymentRows(booking.id);
    expect(payment).to.include({ status: 'CAPTURED', capturedAmount: 15000, providerTransactionId: epay.transactionOf(orderIdOf(payment.id))!.txnid });

    // the same callback again (ePay retries callbacks): acknowledged, nothing changes
    const again = await (await http()).get(new URL(epay.callbacks.at(-1)!.url).pathname + new URL(epay.callbacks.at(-1)!.url).search);
    expect(again.status).to.equal(200);
    expect(again.body.data.outcome).to.equal('DUPLICATE');
  });

  it('when a callback hash does not match the merchant MD5 key then 401 and nothing is written', async () => {
    const { salon, credentials } = await epaySalon('AUTO');
    const booking = await bookOnline(salon);
    const [payment] = await paymentRows(booking.id);
    const params: [string, string][] = [
      ['txnid', '424242'],
      ['orderid', orderIdOf(payment.id)],
      ['amount', '15000'],
      ['currency', '578'],
    ];
    const forged = new URLSearchParams([
      ...params,
      [
        'hash',
        epayHash(
          params.map(([, v]) => v),
          'not-the-key',
        ),
      ],
    ]).toString();
    const res = await (await http()).get(`/api/webhooks/payments/epay/${salon.tenant.id}?${forged}`);
    expect(res.status).to.equal(401);
    // the same parameters as a form POST, correctly hashed, are accepted
    const good = new URLSearchParams([
      ...params,
      [
        'hash',
        epayHash(
          params.map(([, v]) => v),
          credentials.md5Key,
        ),
      ],
    ]).toString();
    const posted = await (
      await http()
    )
      .post(`/api/webhooks/payments/epay/${salon.tenant.id}`)
      .set('content-type', 'application/x-www-form-urlencoded')
      .send(good);
    expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
    expect(posted.body.data.outcome).to.equal('APPLIED');
    expect((await paymentRows(booking.id))[0].status).to.equal('CAPTURED');
  });

  it('when the capture is manual then arrival captures through the webservice once, and a refund credits it', async () => {
    const { salon } = await epaySalon('MANUAL');
    const booking = await bookOnline(salon);
    await payInEpayWindow((await paymentPage(salon, booking)).redirectUrl!);
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'AUTHORIZED', 'authorized');
    expect(
      (await call('post', `/bookings/${booking.id}/status/ARRIVED`, salon.owner.token, { force: true, reason: 'the customer came a day early' })).status,
    ).to.equal(200);
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'captured');
    const [payment] = await paymentRows(booking.id);
    const { epay } = await stack();
    const txn = epay.transactionOf(orderIdOf(payment.id))!;
    expect(txn).to.include({ status: 'PAYMENT_CAPTURED', capturedAmount: 15000, captureCalls: 1 });
    const refund = await call('post', `/admin/payments/${payment.id}/refund`, salon.owner.token, { amount: 5000 });
    expect(refund.status).to.equal(200);
    await eventually(async () => epay.transactionOf(orderIdOf(payment.id))!.creditedAmount === 5000, 'credited at ePay');
  });

  it('when ePay pays out a refund but the answer is lost then the retried refund credits nothing more, and the next refund credits only its own amount', async () => {
    const { salon } = await epaySalon('AUTO');
    const booking = await bookOnline(salon);
    await payInEpayWindow((await paymentPage(salon, booking)).redirectUrl!);
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'captured');
    const [payment] = await paymentRows(booking.id);
    const { epay, platform } = await stack();
    const refunds = () => platform.knex('payment_refunds').where({ paymentId: payment.id }).orderBy('createdAt', 'asc');

    epay.loseAnswers('credit');
    expect((await call('post', `/admin/payments/${payment.id}/refund`, salon.owner.token, { amount: 5000 })).status).to.equal(200);
    await eventually(async () => (await refunds())[0]?.status === 'SUCCEEDED', 'the refund recorded as paid out');
    expect(epay.transactionOf(orderIdOf(payment.id))).to.include({ creditedAmount: 5000, creditCalls: 1 });

    expect((await call('post', `/admin/payments/${payment.id}/refund`, salon.owner.token, { amount: 3000 })).status).to.equal(200);
    await eventually(
      async () => (await refunds()).every((r: { status: string }) => r.status === 'SUCCEEDED') && (await refunds()).length === 2,
      'both refunds paid out',
    );
    expect(epay.transactionOf(orderIdOf(payment.id))).to.include({ creditedAmount: 8000, creditCalls: 2 });
    expect((await paymentRows(booking.id))[0]).to.include({ status: 'PARTIALLY_REFUNDED', refundedAmount: 8000 });
  });
});
