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
  /**
   * Removes the copies the adapter itself keeps of what it sent that name any of `needles` (an
   * address): an erasure (docs/rules/personal-data.md#what-is-kept). Only the folder outbox keeps
   * copies; an adapter that keeps none (SMTP) has no such method. Answers how many it removed.
   */
  forget?(needles: string[]): Promise<number>;
}
