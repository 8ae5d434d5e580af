// An SMTP server that receives what the platform's mailer sends (over real SMTP) and can hold its
// answers: while held, every message is received but not acknowledged (no 250 after DATA), so a
// sender that dies meanwhile never had it accepted. A held message whose connection is gone when
// the hold is released is thrown away, as a real mail server throws away an unfinished transaction.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** the platform's X-Salon-<key> headers (bookingId, kind, notificationId...) */
  salon: Record<string, string>;
  at: number;
}

export interface SmtpSink {
  url: string;
  /** every message acknowledged (250), in order */
  received: ReceivedMail[];
  /** messages received while held, not yet answered */
  heldCount(): number;
  /** of those, the ones whose sender is still connected */
  heldOpen(): number;
  hold(): void;
  /** answers the held messages whose sender is still connected; the others are thrown away */
  release(): { accepted: number; discarded: number };
  close(): Promise<void>;
}

function salonHeaders(raw: string): Record<string, string> {
  const head = raw.slice(0, raw.search(/\r?\n\r?\n/));
  return Object.fromEntries([...head.matchAll(/^X-Salon-([A-Za-z0-9-]+): (.*)$/gim)].map((m) => [m[1].toLowerCase(), m[2].trim()]));
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const closed = new Set<string>();
  let holding = false;
  let held: { session: SMTPServerSession; mail: ReceivedMail; answer: () => void }[] = [];

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onClose(session) {
      closed.add(session.id);
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString()));
      stream.on('end', () => {
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), raw, salon: salonHeaders(raw), at: Date.now() };
        if (holding) held.push({ session, mail, answer: () => callback() });
        else {
          received.push(mail);
          callback();
        }
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received,
    heldCount: () => held.length,
    heldOpen: () => held.filter((h) => !closed.has(h.session.id)).length,
    hold: () => void (holding = true),
    release() {
      holding = false;
      let accepted = 0;
      for (const h of held) {
        if (closed.has(h.session.id)) continue;
        received.push({ ...h.mail, at: Date.now() });
        h.answer();
        accepted += 1;
      }
      const discarded = held.length - accepted;
      held = [];
      return { accepted, discarded };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
