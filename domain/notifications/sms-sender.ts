// The domain's port for sending SMS (booking reminders, refund and voucher messages, waitlist offers).
// integrations/sms/ implements it: a folder outbox by default, the Sveve gateway with SVEVE_USER and
// SVEVE_PASSWORD.

export interface SmsMessage {
  /** the number in E.164 (`+4798765432`, domain/phone/phone.rules.ts#smsRecipient) */
  to: string;
  text: string;
  meta?: Record<string, unknown>;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
  /** As Mailer.forget: the folder outbox's copies that name any of `needles`; Sveve keeps none here. */
  forget?(needles: string[]): Promise<number>;
}
