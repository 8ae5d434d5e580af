// E-mail adapters of the domain's Mailer port (domain/notifications/mailer.ts). The embedded default
// writes each message as a JSON file into a folder (MAIL_OUTBOX_DIR) where a developer or a test can
// read it; with SMTP_URL set, SmtpMailer delivers.
import nodemailer, { type Transporter } from 'nodemailer';
import { FolderOutbox, type Stored } from '../folder-outbox';
import type { MailMessage, Mailer } from '../../domain/notifications/mailer';

export type StoredMail = MailMessage & Stored;

export class FolderMailer implements Mailer {
  private readonly outbox: FolderOutbox<MailMessage>;

  constructor(dir: string) {
    this.outbox = new FolderOutbox(dir);
  }

  send(message: MailMessage): Promise<void> {
    return this.outbox.write(message);
  }

  forget(needles: string[]): Promise<number> {
    return this.outbox.forget(needles);
  }

  sentTo(address: string): Promise<StoredMail[]> {
    return this.outbox.sentTo(address);
  }
}

/**
 * The `meta` keys that travel as `X-Salon-<key>` headers over SMTP: identifiers that tie a message to
 * its record (docs/rules/security.md#secrets-in-logs-and-messages). Nothing else of `meta` leaves the
 * platform: a reset token or a phone code in a header would sit in every relay's and inbox's logs.
 */
const HEADER_KEYS = ['kind', 'bookingId', 'voucherId', 'offerId', 'notificationId'] as const;

/**
 * Real delivery over SMTP (nodemailer) to SMTP_URL, e.g. `smtp://mailpit:1025` or
 * `smtps://user:pass@smtp.example.com:465`. The identifiers of HEADER_KEYS travel as `X-Salon-<key>`
 * headers (e.g. `X-Salon-bookingId`), so an inbox (or a test) can tie a message to its booking.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    const calendar = message.attachments?.find((a) => a.calendarMethod);
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      // a calendar invitation travels as the text/calendar part mail clients act on, and as a file
      ...(calendar ? { icalEvent: { method: calendar.calendarMethod, filename: calendar.filename, content: calendar.content } } : {}),
      attachments: (message.attachments ?? [])
        .filter((a) => a !== calendar)
        .map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
      headers: Object.fromEntries(
        HEADER_KEYS.filter((k) => typeof message.meta?.[k] === 'string' || typeof message.meta?.[k] === 'number').map((k) => [
          `X-Salon-${k}`,
          String(message.meta![k]),
        ]),
      ),
    });
  }

  close(): void {
    this.transport.close();
  }
}
