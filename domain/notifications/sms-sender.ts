// The domain's port for sending SMS (booking reminders, refund and voucher messages, waitlist offers).
// integrations/sms/ implements it: a folder outbox by default, the Sveve gateway with SVEVE_USER and
// SVEVE_PASSWORD.

export interface SmsMessage {
  /** E.164-ish phone number as stored on the customer */
  to: string;
  text: string;
  meta?: Record<string, unknown>;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}
