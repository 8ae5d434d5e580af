/**
 * The SMS sandbox of `npm start` (docs/development.md#replying-to-a-reminder-by-sms): a developer
 * "replies" to a reminder as a phone number would, through the same inbound webhook the SMS gateway
 * calls (POST /api/webhooks/sms/sveve, Sveve's form fields, the shared secret), and reads the
 * conversation the phone had with the platform from the SMS folder outbox.
 *
 *   page:     a loopback server (GET / shows a form and the conversation; POST /reply sends a reply)
 *   console:  `npm run sms:reply -- <phone> <text...>` (devstack/sms-reply-cli.ts)
 *
 * Without SMS_REPLY_SECRET, `npm start` makes one and keeps it in DATA_DIR/sms-reply-secret, where
 * the console command finds it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { FolderSmsSender } from '../integrations/sms/sms-sender';

/** The dev secret of DATA_DIR, made once (SMS_REPLY_SECRET wins when set). */
export function devSmsReplySecret(dataDir: string, configured?: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'sms-reply-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const secret = crypto.randomBytes(24).toString('hex');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
}

/** Sends one reply as the gateway would: the sender's number without its plus, the text, a fresh message id. */
export async function sendSandboxReply(webhookUrl: string, secret: string, phone: string, text: string): Promise<{ status: number; body: unknown }> {
  const form = new URLSearchParams({ number: phone.replace(/^\+/, ''), msg: text, id: `sandbox-${crypto.randomUUID()}`, key: secret });
  const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  const raw = await res.text();
  let body: unknown = raw;
  try {
    body = JSON.parse(raw);
  } catch {
    // not JSON: shown as text
  }
  return { status: res.status, body };
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface SmsSandbox {
  url: string;
  close(): Promise<void>;
}

/** The page: a phone number, a text, Send; below, what the platform sent that number and the last answer. */
export async function startSmsSandbox(options: { webhookUrl: string; secret: string; outboxDir: string; port?: number }): Promise<SmsSandbox> {
  const outbox = new FolderSmsSender(options.outboxDir);
  let last: { phone: string; text: string; status: number; body: unknown } | undefined;

  const page = async (phone: string) => {
    const messages = phone ? await outbox.sentTo(phone) : [];
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SMS sandbox</title>
<style>body{font:16px system-ui;max-width:40rem;margin:2rem auto}li{margin:.5rem 0}pre{background:#f4f4f4;padding:.5rem;white-space:pre-wrap}</style></head><body>
<h1>SMS sandbox</h1><p>Reply to a reminder as a phone would: the reply goes to the platform's inbound SMS webhook.</p>
<form method="post" action="/reply"><p><label>Phone (E.164) <input name="phone" value="${escape(phone)}" required placeholder="+4791234567"></label></p>
<p><label>Text <input name="text" value="JA" required maxlength="1000"></label> <button type="submit">Send reply</button></p></form>
${last ? `<h2>Last reply</h2><p>${escape(last.phone)}: “${escape(last.text)}” → HTTP ${last.status}</p><pre>${escape(JSON.stringify(last.body, null, 2))}</pre>` : ''}
<h2>Messages to ${escape(phone || '(no phone yet)')}</h2><ol>${messages.map((m) => `<li><small>${escape(m.sentAt)}</small><br>${escape(m.text)}</li>`).join('')}</ol>
</body></html>`;
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      if (req.method === 'POST' && url.pathname === '/reply') {
        let raw = '';
        for await (const chunk of req) raw += String(chunk);
        const form = new URLSearchParams(raw);
        const phone = (form.get('phone') ?? '').trim();
        const text = form.get('text') ?? '';
        const answer = await sendSandboxReply(options.webhookUrl, options.secret, phone, text);
        last = { phone, text, ...answer };
        res.writeHead(303, { location: `/?phone=${encodeURIComponent(phone)}` }).end();
        return;
      }
      if (req.method === 'GET' && url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(await page(url.searchParams.get('phone') ?? ''));
        return;
      }
      res.writeHead(404).end();
    })().catch((err: Error) => res.writeHead(500).end(err.message));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
