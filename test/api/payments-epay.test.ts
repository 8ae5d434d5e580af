// ePay, the default provider (docs/rules/payments.md#payment-configs): the Payment Window with MD5-hashed parameters, the
// callback verified with an MD5 hash over the parameters and the merchant's secret (GET, and the
// same parameters as a form POST), and capture / delete / credit over its SOAP webservice - against
// the local stand-in in test/support/epay-stand-in.ts.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { call, http } from '../support/http';
import { stack } from '../support/stack';
import { bookingSalon } from '../support/booking-fixtures';
import { bookOnline, bookingRow, paymentPage, paymentRows } from '../support/payments';
import { epayHash, orderIdOf } from '../../integrations/payments/epay/epay-provider';
import { eventually } from '../support/eventually';

async function epaySalon(captureMode: 'AUTO' | 'MANUAL') {
  const { epay } = await stack();
  const salon = await bookingSalon({ settings: { depositEnabled: true, depositType: 'fixed', depositValue: 15000, autoConfirm: false } });
  const credentials = { merchantNumber: String(crypto.randomInt(1_000_000, 9_999_999)), md5Key: crypto.randomBytes(12).toString('hex'), apiPassword: crypto.randomBytes(8).toString('hex') };
  epay.merchant(credentials.merchantNumber, credentials.md5Key, credentials.apiPassword);
  const cfg = await call('post', '/admin/payment-configs', salon.owner.token, { provider: 'epay', displayName: 'ePay', captureMode, credentials });
  expect(cfg.status, JSON.stringify(cfg.body)).to.equal(201);
  const health = await call('post', `/admin/payment-configs/${cfg.body.data.id}/health-check`, salon.owner.token);
  expect(health.body.data.lastHealthCheckStatus).to.equal('OK');
  await call('post', `/admin/payment-configs/${cfg.body.data.id}/activate`, salon.owner.token);
  return { salon, credentials };
}

async function payInWindow(redirectUrl: string): Promise<void> {
  const window = await fetch(redirectUrl);
  expect(window.status, await window.clone().text()).to.equal(200);
  const orderid = new URL(redirectUrl).searchParams.get('orderid')!;
  const paid = await fetch(`${new URL(redirectUrl).origin}/ewindow/pay?orderid=${orderid}`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).to.equal(303);
}

describe('payments: ePay (default provider) against its stand-in', function () {
  this.timeout(60_000);

  it('when the customer pays in the ePay window with instant capture then the MD5-verified callback captures the deposit and confirms the booking', async () => {
    const { salon } = await epaySalon('AUTO');
    const booking = await bookOnline(salon);
    const page = await paymentPage(salon, booking);
    expect(page.amount).to.equal(15000);
    expect(page.redirectUrl).to.contain('merchantnumber=').and.contain('currency=578').and.contain('instantcapture=1').and.contain('hash=');
    await payInWindow(page.redirectUrl!);
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
    const params: [string, string][] = [['txnid', '424242'], ['orderid', orderIdOf(payment.id)], ['amount', '15000'], ['currency', '578']];
    const forged = new URLSearchParams([...params, ['hash', epayHash(params.map(([, v]) => v), 'not-the-key')]]).toString();
    const res = await (await http()).get(`/api/webhooks/payments/epay/${salon.tenant.id}?${forged}`);
    expect(res.status).to.equal(401);
    // the same parameters as a form POST, correctly hashed, are accepted
    const good = new URLSearchParams([...params, ['hash', epayHash(params.map(([, v]) => v), credentials.md5Key)]]).toString();
    const posted = await (await http()).post(`/api/webhooks/payments/epay/${salon.tenant.id}`).set('content-type', 'application/x-www-form-urlencoded').send(good);
    expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
    expect(posted.body.data.outcome).to.equal('APPLIED');
    expect((await paymentRows(booking.id))[0].status).to.equal('CAPTURED');
  });

  it('when the capture is manual then arrival captures through the webservice once, and a refund credits it', async () => {
    const { salon } = await epaySalon('MANUAL');
    const booking = await bookOnline(salon);
    await payInWindow((await paymentPage(salon, booking)).redirectUrl!);
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'AUTHORIZED', 'authorized');
    expect((await call('post', `/bookings/${booking.id}/status/ARRIVED`, salon.owner.token, {})).status).to.equal(200);
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'captured');
    const [payment] = await paymentRows(booking.id);
    const { epay } = await stack();
    const txn = epay.transactionOf(orderIdOf(payment.id))!;
    expect(txn).to.include({ status: 'PAYMENT_CAPTURED', capturedAmount: 15000, captureCalls: 1 });
    const refund = await call('post', `/admin/payments/${payment.id}/refund`, salon.owner.token, { amount: 5000 });
    expect(refund.status).to.equal(200);
    await eventually(async () => epay.transactionOf(orderIdOf(payment.id))!.creditedAmount === 5000, 'credited at ePay');
  });
});
