// The SMTP mailer sends a message's identifiers as X-Salon headers and nothing else of its metadata
// (docs/rules/security.md#secrets-in-logs-and-messages): a reset token or a code in a header would sit in
// every relay's and inbox's logs.
import { expect } from 'chai';
import { SmtpMailer } from '../../integrations/mail/mailer';
import { startSmtpSink } from '../support/smtp-sink';
import { eventually } from '../support/eventually';

describe('SMTP mailer headers', () => {
  it('when a message carries a reset token, a code and a user id in its metadata then none becomes a header; kind and bookingId do', async () => {
    const sink = await startSmtpSink();
    const mailer = new SmtpMailer(sink.url, 'Salong <no-reply@salon.test>');
    try {
      await mailer.send({
        to: 'kari@example.test',
        subject: 'Tilbakestill passordet ditt',
        text: 'Åpne lenken for å velge et nytt passord.',
        meta: {
          kind: 'PASSWORD_RESET',
          bookingId: 'b-1',
          resetToken: 'reset-token-value-0123456789',
          code: '123456',
          userId: 'u-1',
          expiresAt: '2030-01-01T00:00:00.000Z',
        },
      });
      const mail = await eventually(async () => sink.received[0], 'the message at the SMTP server');
      const head = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/));
      expect(mail.salon).to.deep.equal({ kind: 'PASSWORD_RESET', bookingid: 'b-1' });
      expect(head)
        .to.not.contain('reset-token-value')
        .and.not.contain('123456')
        .and.not.match(/X-Salon-(resetToken|code|userId|expiresAt)/i);
    } finally {
      mailer.close();
      await sink.close();
    }
  });
});
