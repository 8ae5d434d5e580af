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
    const sentAt = new Date().toISOString();
    const id = `${sentAt.replace(/[:.]/g, '-')}-${crypto.randomUUID()}`;
    const file = path.join(this.dir, `${id}.json`);
    const body = JSON.stringify({ id, sentAt, ...message }, null, 2);
    // the folder is made when a write finds it missing (the first message, or after someone removed
    // it), not before every message: a recursive mkdir per message took 7.5% of the worker's main
    // thread's samples in a profile of the bench (docs/performance.md)
    try {
      await fs.writeFile(file, body);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await fs.mkdir(this.dir, { recursive: true });
      await fs.writeFile(file, body);
    }
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
