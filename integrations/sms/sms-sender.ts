// SMS adapter. The embedded default writes each message as a JSON file into SMS_OUTBOX_DIR where a
// developer or a test can read it; production plugs in a real SMS gateway behind the same interface.
import { FolderOutbox, type Stored } from '../folder-outbox';

export interface SmsMessage {
  /** E.164-ish phone number as stored on the customer */
  to: string;
  text: string;
  meta?: Record<string, unknown>;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

export type StoredSms = SmsMessage & Stored;

export class FolderSmsSender implements SmsSender {
  private readonly outbox: FolderOutbox<SmsMessage>;

  constructor(dir: string) {
    this.outbox = new FolderOutbox(dir);
  }

  send(message: SmsMessage): Promise<void> {
    return this.outbox.write(message);
  }

  sentTo(phone: string): Promise<StoredSms[]> {
    return this.outbox.sentTo(phone);
  }
}
