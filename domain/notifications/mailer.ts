// The domain's port for sending e-mail (password reset links, booking and voucher messages).
// integrations/mail/ implements it: a folder outbox by default, SMTP (nodemailer) with SMTP_URL.

export interface MailAttachment {
  filename: string;
  /** e.g. `text/calendar; charset=utf-8; method=REQUEST` */
  contentType: string;
  content: string;
  /** an iCalendar attachment's iTIP method: SMTP sends it as the message's calendar part too */
  calendarMethod?: 'REQUEST' | 'CANCEL' | 'PUBLISH';
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  attachments?: MailAttachment[];
  /** machine-readable extras (e.g. a reset token) so tests need not parse the text */
  meta?: Record<string, unknown>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
