// A provider's confirmation that arrives after the payment EXPIRED here (docs/rules/payments.md#a-confirmation-after-the-expiry): the
// customer paid in ePay's window, the callback came late, and meanwhile the booking was cancelled
// (its open payment expired). The customer must not stay charged: the payment workflow voids an
// authorization or refunds a capture at the provider, tells the customer by SMS and e-mail, and the
// api counts it in payments_late_confirmations_total (an alert watches it).
import crypto from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { appWith, stack } from '../../support/stack';
import { call } from '../../support/http';
import { at, localDay } from '../../support/booking-fixtures';
import { epaySalon, payInEpayWindow, paymentPage, paymentRows, type PublicBooking } from '../../support/payments';
import { eventually } from '../../support/eventually';
import { orderIdOf } from '../../../integrations/payments/epay/epay-provider';
import { paymentContract } from '../../../domain/payments/payment-events.rules';
import { workflowSettled } from '../../support/workflow-barriers';
import type { BookingSalon } from '../../support/booking-fixtures';

const METRICS_TOKEN = 'late-payments-metrics-token-0123456789';

async function bookWithEmail(salon: BookingSalon): Promise<PublicBooking & { email: string }> {
  const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
  const email = `sen-betaling-${crypto.randomBytes(4).toString('hex')}@example.no`;
  const res = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
    startTime: at(localDay(3), '11:00'),
    items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
    customer: { name: 'Kari Nordmann', phone, email },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return {
    id: res.body.data.id,
    token: res.body.data.manageToken,
    status: res.body.data.status,
    paymentRequired: res.body.data.paymentRequired,
    phone,
    email,
  };
}

describe('payments: a confirmation that arrives after the payment expired', function () {
  this.timeout(90_000);

  for (const captureMode of ['AUTO', 'MANUAL'] as const) {
    const release = captureMode === 'AUTO' ? 'refunded' : 'voided';
    it(`when ePay's callback for ${captureMode === 'AUTO' ? 'a captured' : 'an authorized'} payment arrives after the booking was cancelled then the money is ${release} at ePay, the customer is told by SMS and e-mail, and the late confirmation is counted`, async () => {
      const { epay, sms, platform } = await stack();
      const { salon } = await epaySalon(captureMode);
      const booking = await bookWithEmail(salon);
      const page = await paymentPage(salon, booking);
      epay.holdCallbacks(true);
      try {
        await payInEpayWindow(page.redirectUrl!);
      } finally {
        epay.holdCallbacks(false);
      }
      const callback = new URL(epay.held.pop()!);
      // meanwhile the salon cancels: the open payment expires here
      expect((await call('post', `/bookings/${booking.id}/cancel`, salon.owner.token, { bySalon: true })).status).to.equal(200);
      await eventually(async () => (await paymentRows(booking.id))[0].status === 'EXPIRED', 'the payment expired');

      const app = await appWith({ METRICS_TOKEN });
      const late = await request(app).get(callback.pathname + callback.search);
      expect(late.status, JSON.stringify(late.body)).to.equal(200);
      const [payment] = await paymentRows(booking.id);
      expect(payment).to.include({ status: 'EXPIRED', lateOutcome: captureMode === 'AUTO' ? 'CAPTURED' : 'AUTHORIZED', lateAmount: 15000 });

      const txn = () => epay.transactionOf(orderIdOf(payment.id))!;
      await eventually(
        async () => (captureMode === 'AUTO' ? txn().creditedAmount === 15000 : txn().status === 'PAYMENT_DELETED'),
        `the payment ${release} at ePay`,
      );
      const released = await eventually(
        async () => (await paymentRows(booking.id)).find((p: { lateReleasedAt: Date | null }) => p.lateReleasedAt),
        'the release recorded',
      );
      expect(released).to.include({ status: 'EXPIRED', lateRelease: captureMode === 'AUTO' ? 'REFUNDED' : 'VOIDED' });
      expect(txn()).to.include({ creditCalls: captureMode === 'AUTO' ? 1 : 0 });

      const text = await eventually(
        async () => (await sms.sentTo(booking.phone)).find((m) => m.meta?.kind === 'LATE_PAYMENT')?.text,
        'the SMS to the customer',
      );
      expect(text)
        .to.match(/^Hei Kari Nordmann! /)
        .and.match(/150 kr/)
        .and.match(captureMode === 'AUTO' ? /refundert/ : /frigitt/)
        .and.not.match(/NOK/);
      const mail = await eventually(
        async () => (await platform.mailer.sentTo(booking.email)).find((m) => m.meta?.kind === 'LATE_PAYMENT'),
        'the e-mail to the customer',
      );
      expect(mail.subject).to.match(/betaling/i);
      expect(mail.text).to.equal(text);

      const metrics = await request(app).get('/api/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
      expect(metrics.text).to.include(`payments_late_confirmations_total{provider="epay",outcome="${captureMode === 'AUTO' ? 'CAPTURED' : 'AUTHORIZED'}"} 1`);
      // ePay sends the callback again: acknowledged once, nothing moves twice. Whatever the duplicate set
      // off would run in the payment's workflow: once it has nothing left to do, nothing more was asked of ePay.
      const atEpay = { ...txn() };
      expect((await request(app).get(callback.pathname + callback.search)).body.data.outcome).to.equal('DUPLICATE');
      await workflowSettled(paymentContract.workflowId(payment.id));
      expect(txn(), 'no call to ePay after the duplicate').to.deep.equal(atEpay);
      expect(atEpay).to.include({ creditedAmount: captureMode === 'AUTO' ? 15000 : 0, creditCalls: captureMode === 'AUTO' ? 1 : 0 });
      expect(await platform.knex('payment_events').where({ paymentId: payment.id, type: 'PaymentLateReleased' }), 'released once').to.have.length(1);
      expect((await sms.sentTo(booking.phone)).filter((m) => m.meta?.kind === 'LATE_PAYMENT')).to.have.length(1);
      expect((await platform.mailer.sentTo(booking.email)).filter((m) => m.meta?.kind === 'LATE_PAYMENT')).to.have.length(1);
    });
  }
});
