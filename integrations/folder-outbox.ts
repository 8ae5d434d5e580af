// Development stand-in for message providers: each message becomes a JSON file in a folder, where a
// developer can read it and tests can find it by recipient.
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';

export interface Stored {
  id: string;
  sentAt: string;
  to: string;
}

export class FolderOutbox<T extends { to: string }> {
  constructor(readonly dir: string) {}

  async write(message: T): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const sentAt = new Date().toISOString();
    const id = `${sentAt.replace(/[:.]/g, '-')}-${crypto.randomUUID()}`;
    await fs.writeFile(path.join(this.dir, `${id}.json`), JSON.stringify({ id, sentAt, ...message }, null, 2));
  }

  /** Messages sent to one recipient, oldest first. */
  async sentTo(recipient: string): Promise<(T & Stored)[]> {
    const files = await fs.readdir(this.dir).catch(() => [] as string[]);
    const messages = await Promise.all(
      files
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map(async (f) => JSON.parse(await fs.readFile(path.join(this.dir, f), 'utf8')) as T & Stored),
    );
    return messages.filter((m) => m.to.toLowerCase() === recipient.toLowerCase());
  }
}
