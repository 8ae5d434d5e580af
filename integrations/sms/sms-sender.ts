// The folder adapter of the domain's SmsSender port (domain/notifications/sms-sender.ts): the embedded
// default writes each message as a JSON file into SMS_OUTBOX_DIR where a developer or a test can read
// it; with SVEVE_USER and SVEVE_PASSWORD set, sveve-sms-sender.ts delivers.
import type { SmsMessage, SmsSender } from '../../domain/notifications/sms-sender';
import { FolderOutbox, type Stored } from '../folder-outbox';

export type StoredSms = SmsMessage & Stored;

export class FolderSmsSender implements SmsSender {
  private readonly outbox: FolderOutbox<SmsMessage>;

  constructor(dir: string) {
    this.outbox = new FolderOutbox(dir);
  }

  send(message: SmsMessage): Promise<void> {
    return this.outbox.write(message);
  }

  forget(needles: string[]): Promise<number> {
    return this.outbox.forget(needles);
  }

  sentTo(phone: string): Promise<StoredSms[]> {
    return this.outbox.sentTo(phone);
  }
}
