// One customer message on one channel, at most once (activities/message-delivery.ts), run in a mocked
// activity context (MockActivityEnvironment) with the gateways and the notification row faked: no
// database, no Temporal server, no worker.
import { expect } from 'chai';
import { ApplicationFailure } from '@temporalio/activity';
import { activityEnvironment, failureOf } from '../../support/activity-environment';
import { deliverOnce, type Contact, type Delivery, type Gateways } from '../../../activities/message-delivery';
import type { MailMessage } from '../../../domain/notifications/mailer';
import type { SmsMessage } from '../../../domain/notifications/sms-sender';
import { deliveryRetryDelayMs } from '../../../domain/notifications/delivery-retry.rules';

/** Gateways that record what they were given, and fail while `failing` says so. */
function gateways(failing = { sms: false, mail: false }) {
  const sent = { sms: [] as SmsMessage[], mail: [] as MailMessage[] };
  const g: Gateways = {
    sms: {
      async send(m) {
        if (failing.sms) throw new Error('gateway 503');
        sent.sms.push(m);
      },
    },
    mailer: {
      async send(m) {
        if (failing.mail) throw new Error('smtp 451');
        sent.mail.push(m);
      },
    },
  } as Gateways;
  return { g, sent };
}

/** A delivery whose notification row is a variable: claimed once, `sentAt` set by markSent. */
function delivery(contact: Contact, row = { id: 'n1', sentAt: null as Date | null }) {
  const calls = { claims: 0, composes: 0, marked: [] as string[] };
  const d: Delivery = {
    label: 'booking b1 (REMINDER)',
    failureType: 'BOOKING_MESSAGE_DELIVERY_FAILED',
    meta: { bookingId: 'b1', kind: 'REMINDER' },
    async claim() {
      calls.claims++;
      return row;
    },
    async compose() {
      calls.composes++;
      return {
        contact,
        message: { subject: 'Påminnelse', text: 'Hei Kari!' },
        attachments: [{ filename: 'invite.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR' }],
      };
    },
    async markSent(id) {
      calls.marked.push(id);
      row.sentAt = new Date();
    },
  };
  return { d, calls, row };
}

describe('one message on one channel, at most once (activities/message-delivery.ts)', () => {
  const contact: Contact = { phone: '+4791234567', email: 'kari@example.no', smsCountry: 'NO' };

  it('when the row is claimed and the gateway takes the message then it is sent once with the row id, stamped, and a retry after that sends nothing', async () => {
    const env = activityEnvironment();
    const { g, sent } = gateways();
    const { d, calls } = delivery(contact);
    expect(await env.run(() => deliverOnce('SMS', g, d))).to.equal('SENT');
    expect(sent.sms).to.have.length(1);
    expect(sent.sms[0]).to.include({ text: 'Hei Kari!' });
    expect(sent.sms[0].meta).to.deep.include({ bookingId: 'b1', kind: 'REMINDER', notificationId: 'n1' });
    expect(calls.marked).to.deep.equal(['n1']);
    expect(await env.run(() => deliverOnce('SMS', g, d))).to.equal('ALREADY_SENT');
    expect(sent.sms).to.have.length(1);
    expect(calls.composes, 'nothing composed for a message already out').to.equal(1);
  });

  it('when the message goes by e-mail then it carries its attachments; by SMS it carries none', async () => {
    const env = activityEnvironment();
    const { g, sent } = gateways();
    await env.run(() => deliverOnce('EMAIL', g, delivery(contact).d));
    await env.run(() => deliverOnce('SMS', g, delivery(contact).d));
    expect(sent.mail[0]).to.include({ to: 'kari@example.no', subject: 'Påminnelse' });
    expect(sent.mail[0].attachments).to.have.length(1);
    expect(sent.sms[0]).to.not.have.property('attachments');
  });

  it('when the customer has no address on the channel then NO_CONTACT and nothing is sent or stamped', async () => {
    const env = activityEnvironment();
    const { g, sent } = gateways();
    const { d, calls } = delivery({ phone: null, email: 'kari@example.no', smsCountry: 'NO' });
    expect(await env.run(() => deliverOnce('SMS', g, d))).to.equal('NO_CONTACT');
    expect(sent.sms).to.deep.equal([]);
    expect(calls.marked).to.deep.equal([]);
  });

  it("when the number is of another country than the salon's then the SMS is not sent (ABROAD) and nothing is stamped; the e-mail goes; a message of no salon's reaches any country (docs/rules/messages.md#numbers-of-other-countries)", async () => {
    const env = activityEnvironment();
    const { g, sent } = gateways();
    for (const phone of ['+2348031234567', '+46701234567']) {
      const { d, calls } = delivery({ phone, email: 'kari@example.no', smsCountry: 'NO' });
      expect(await env.run(() => deliverOnce('SMS', g, d)), phone).to.equal('ABROAD');
      expect(calls.marked).to.deep.equal([]);
      expect(await env.run(() => deliverOnce('EMAIL', g, delivery({ phone, email: 'kari@example.no', smsCountry: 'NO' }).d))).to.equal('SENT');
    }
    expect(sent.sms).to.deep.equal([]);
    expect(await env.run(() => deliverOnce('SMS', g, delivery({ phone: '+4779012345', email: null, smsCountry: 'NO' }).d)), 'Svalbard shares +47').to.equal(
      'SENT',
    );
    expect(await env.run(() => deliverOnce('SMS', g, delivery({ phone: '+46701234567', email: null, smsCountry: 'SE' }).d)), "a Swedish salon's own").to.equal(
      'SENT',
    );
    expect(await env.run(() => deliverOnce('SMS', g, delivery({ phone: '+2348031234567', email: null, smsCountry: null }).d)), 'an account message').to.equal(
      'SENT',
    );
  });

  for (const attempt of [1, 2, 3, 4, 10]) {
    it(`when the gateway fails on attempt ${attempt} then the failure is retryable, of the delivery's type, after the schedule's delay, and nothing is stamped`, async () => {
      const env = activityEnvironment({ attempt });
      const { g } = gateways({ sms: true, mail: false });
      const { d, calls } = delivery(contact);
      const failure = await failureOf(env.run(() => deliverOnce('SMS', g, d)));
      expect(failure).to.be.instanceOf(ApplicationFailure);
      const f = failure as ApplicationFailure;
      expect(f.type).to.equal('BOOKING_MESSAGE_DELIVERY_FAILED');
      expect(f.nonRetryable).to.equal(false);
      expect(f.nextRetryDelay).to.equal(deliveryRetryDelayMs(attempt));
      expect(f.message).to.contain('SMS for booking b1 (REMINDER) failed: gateway 503');
      expect(calls.marked).to.deep.equal([]);
    });
  }
});
