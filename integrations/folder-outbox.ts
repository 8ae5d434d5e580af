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
    // written aside and renamed: a reader listing the folder meanwhile sees the whole message or none
    const part = `${file}.part`;
    try {
      await fs.writeFile(part, body);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await fs.mkdir(this.dir, { recursive: true });
      await fs.writeFile(part, body);
    }
    await fs.rename(part, file);
  }

  /**
   * Removes every message that names one of `needles` (an address, or a number without its "+"),
   * anywhere in it: to, text or attachments (docs/rules/personal-data.md#what-is-kept). Answers how many.
   */
  async forget(needles: string[]): Promise<number> {
    const wanted = needles.map((n) => n.trim().toLowerCase()).filter((n) => n.length >= 5);
    if (!wanted.length) return 0;
    const files = await fs.readdir(this.dir).catch(() => [] as string[]);
    let removed = 0;
    for (const f of files.filter((name) => name.endsWith('.json'))) {
      const file = path.join(this.dir, f);
      const body = (await fs.readFile(file, 'utf8').catch(() => '')).toLowerCase();
      if (!wanted.some((n) => body.includes(n))) continue;
      await fs.rm(file, { force: true });
      removed += 1;
    }
    return removed;
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
