// Provider webhooks (docs/rules/payments.md#provider-webhooks): verified over the raw body with the salon's decrypted secret,
// written to an inbox unique on the provider's event id, then signalled to the payment workflow.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { http } from '../../support/http';
import { stack } from '../../support/stack';
import { knex } from '../../support/booking-fixtures';
import { bookOnline, bookingRow, clickCheckout, depositSalon, paymentPage, paymentRows } from '../../support/payments';
import { sandboxSignature } from '../../../integrations/payments/sandbox/sandbox-provider';
import { eventually } from '../../support/eventually';

async function post(tenantId: string, body: string, signature: string) {
  return (await http())
    .post(`/api/webhooks/payments/sandbox/${tenantId}`)
    .set('content-type', 'application/json')
    .set('sandbox-signature', signature)
    .send(body);
}

function event(paymentId: string, type: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ id: `evt_${crypto.randomBytes(8).toString('hex')}`, type, data: { reference: paymentId, amount: 10000, ...extra } });
}

describe('payments: provider webhooks', function () {
  this.timeout(60_000);

  it('when the signature does not match the salon secret then 401 UNAUTHORIZED and nothing is written', async () => {
    const salon = await depositSalon();
    const booking = await bookOnline(salon);
    // barrier: the payment's workflow has opened the checkout, its own last change before the customer pays
    const payment = await eventually(async () => (await paymentRows(booking.id)).find((p) => p.providerSessionId), 'the checkout session');
    const body = event(payment.id, 'payment.captured');
    const db = await knex();
    const before = await db('payment_webhook_inbox').where({ tenantId: salon.tenant.id }).count({ n: '*' }).first();
    for (const signature of ['', 'deadbeef', sandboxSignature('sk_test_someoneelse1', body)]) {
      const res = await post(salon.tenant.id, body, signature);
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('UNAUTHORIZED');
    }
    // the body changed after signing: 401 too
    const tampered = await post(salon.tenant.id, body.replace('10000', '1'), sandboxSignature(salon.apiKey, body));
    expect(tampered.status).to.equal(401);
    expect(await db('payment_webhook_inbox').where({ tenantId: salon.tenant.id }).count({ n: '*' }).first()).to.deep.equal(before);
    expect((await paymentRows(booking.id))[0]).to.include({ status: 'INITIATED', version: payment.version });
  });

  it('when the same webhook is delivered again then it is answered 200 DUPLICATE and changes nothing twice', async () => {
    const salon = await depositSalon();
    const booking = await bookOnline(salon);
    const page = await paymentPage(salon, booking);
    await clickCheckout(page.redirectUrl!, 'pay');
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'the deposit to be paid');
    const [paid] = await paymentRows(booking.id);
    const { sandbox } = await stack();
    const res = await fetch(`${sandbox.url}/v1/sessions/${paid.providerSessionId}/redeliver`, {
      method: 'POST',
      headers: { authorization: `Bearer ${salon.apiKey}`, 'idempotency-key': 'redeliver-1' },
    });
    expect(res.status).to.equal(200);
    const last = sandbox.delivered.filter((d) => d.body.includes(paid.id));
    expect(last.map((d) => d.status)).to.deep.equal([200, 200]);
    expect(last[1].body, 'the same event, byte for byte').to.equal(last[0].body);
    // what a redelivery is answered: the same bytes and signature once more
    const answer = await post(salon.tenant.id, last[0].body, sandboxSignature(salon.apiKey, last[0].body));
    expect([answer.status, answer.body]).to.deep.equal([200, { success: true, data: { received: true, outcome: 'DUPLICATE' } }]);
    const [again] = await paymentRows(booking.id);
    expect(again.version).to.equal(paid.version);
    const db = await knex();
    expect(Number((await db('payment_webhook_inbox').where({ paymentId: paid.id }).count({ n: '*' }).first())!.n)).to.equal(1);
    expect(Number((await db('payment_events').where({ paymentId: paid.id, type: 'PaymentCaptured' }).count({ n: '*' }).first())!.n)).to.equal(1);
  });

  it('when an older outcome arrives after a newer one (authorized after captured) then it is acknowledged and ignored', async () => {
    const salon = await depositSalon();
    const booking = await bookOnline(salon);
    const [payment] = await paymentRows(booking.id);
    const captured = event(payment.id, 'payment.captured');
    const first = await post(salon.tenant.id, captured, sandboxSignature(salon.apiKey, captured));
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.data.outcome).to.equal('APPLIED');
    const authorized = event(payment.id, 'payment.authorized');
    const late = await post(salon.tenant.id, authorized, sandboxSignature(salon.apiKey, authorized));
    expect(late.status).to.equal(200);
    expect(late.body.data.outcome).to.equal('IGNORED');
    const [after] = await paymentRows(booking.id);
    expect(after).to.include({ status: 'CAPTURED', capturedAmount: 10000 });
    await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'the deposit to be paid');
  });

  it('when a webhook names an unknown provider then 404; an unknown payment is acknowledged', async () => {
    const salon = await depositSalon();
    const res = await (await http()).post(`/api/webhooks/payments/nosuch/${salon.tenant.id}`).set('content-type', 'application/json').send('{}');
    expect(res.status).to.equal(404);
    const body = event(crypto.randomUUID(), 'payment.captured');
    const unknown = await post(salon.tenant.id, body, sandboxSignature(salon.apiKey, body));
    expect(unknown.status).to.equal(200);
    expect(unknown.body.data.outcome).to.equal('UNKNOWN_PAYMENT');
  });
});
