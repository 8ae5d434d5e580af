// E-mail adapter. The embedded default writes each message as a JSON file into a folder
// (MAIL_OUTBOX_DIR) where a developer or a test can read it; production plugs in a real provider.
import { FolderOutbox, type Stored } from '../folder-outbox';

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

export type StoredMail = MailMessage & Stored;

export class FolderMailer implements Mailer {
  private readonly outbox: FolderOutbox<MailMessage>;

  constructor(dir: string) {
    this.outbox = new FolderOutbox(dir);
  }

  send(message: MailMessage): Promise<void> {
    return this.outbox.write(message);
  }

  sentTo(address: string): Promise<StoredMail[]> {
    return this.outbox.sentTo(address);
  }
}
