// The domain's port for sending e-mail (password reset links, booking and voucher messages).
// integrations/mail/ implements it: a folder outbox by default, SMTP (nodemailer) with SMTP_URL.

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** machine-readable extras (e.g. a reset token) so tests need not parse the text */
  meta?: Record<string, unknown>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
