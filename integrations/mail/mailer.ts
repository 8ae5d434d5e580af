// E-mail adapter. The embedded default writes each message as a JSON file into a folder
// (MAIL_OUTBOX_DIR) where a developer or a test can read it; production plugs in a real provider.
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';

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

export interface StoredMail extends MailMessage {
  id: string;
  sentAt: string;
}

export class FolderMailer implements Mailer {
  constructor(private readonly dir: string) {}

  async send(message: MailMessage): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const sentAt = new Date().toISOString();
    const id = `${sentAt.replace(/[:.]/g, '-')}-${crypto.randomUUID()}`;
    const stored: StoredMail = { id, sentAt, ...message };
    await fs.writeFile(path.join(this.dir, `${id}.json`), JSON.stringify(stored, null, 2));
  }

  /** Messages sent to one address, oldest first. */
  async sentTo(address: string): Promise<StoredMail[]> {
    const files = await fs.readdir(this.dir).catch(() => [] as string[]);
    const mails = await Promise.all(
      files.filter((f) => f.endsWith('.json')).sort().map(async (f) => JSON.parse(await fs.readFile(path.join(this.dir, f), 'utf8')) as StoredMail),
    );
    return mails.filter((m) => m.to.toLowerCase() === address.toLowerCase());
  }
}
