// SMS through Sveve (sveve.no), a Norwegian SMS gateway, over its documented HTTP API:
//   POST https://sveve.no/SMS/SendMessage   (form fields: user, passwd, to, msg, from, f=json)
// answers 200 with {"response": {"msgOkCount": 1, "stdSMSCount": 1, "ids": [...], "errors": [...]}}
// or {"response": {"fatalError": "..."}}. A refused message throws, so the activity retries it.
import type { SmsMessage, SmsSender } from '../../domain/notifications/sms-sender';

export interface SveveOptions {
  /** SVEVE_URL; a stand-in server speaking the same format in tests */
  url: string;
  user: string;
  password: string;
  /** sender name shown on the phone (max 11 characters) */
  sender: string;
  timeoutMs?: number;
}

interface SveveResponse {
  response?: {
    msgOkCount?: number;
    stdSMSCount?: number;
    ids?: number[];
    errors?: { number: string; message: string }[];
    fatalError?: string;
  };
}

/** Sveve wants Norwegian numbers as 8 digits or with the country code and no plus: 4791234567. */
export function sveveNumber(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '');
  if (digits.startsWith('+')) return digits.slice(1);
  if (digits.startsWith('00')) return digits.slice(2);
  return digits;
}

export class SveveSmsSender implements SmsSender {
  constructor(private readonly options: SveveOptions) {}

  async send(message: SmsMessage): Promise<void> {
    const body = new URLSearchParams({
      user: this.options.user,
      passwd: this.options.password,
      to: sveveNumber(message.to),
      msg: message.text,
      from: this.options.sender,
      f: 'json',
    });
    const res = await fetch(this.options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body,
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
    });
    if (!res.ok) throw new Error(`Sveve answered HTTP ${res.status}`);
    const parsed = (await res.json()) as SveveResponse;
    const r = parsed.response;
    if (!r) throw new Error('Sveve answered without a response object');
    if (r.fatalError) throw new Error(`Sveve refused the message: ${r.fatalError}`);
    if (!r.msgOkCount) throw new Error(`Sveve sent nothing: ${r.errors?.map((e) => `${e.number}: ${e.message}`).join('; ') ?? 'no reason given'}`);
  }
}
