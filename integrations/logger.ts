// pino, with the current request's id on every line logged while that request is handled
// (api/middleware/request-id.ts puts it into the async context), wherever the logging call is.
import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

export type Logger = pino.Logger;

export interface LogContext {
  requestId: string;
}

export const logContext = new AsyncLocalStorage<LogContext>();

let stdout: pino.DestinationStream | undefined;

/** Log lines are written out once this many bytes wait, or every FLUSH_MS, whichever comes first. */
const BATCH_BYTES = 4096;
const FLUSH_MS = 250;

/**
 * Standard output in batches. pino's default destination already writes asynchronously, but makes
 * one write call per line: under bench:e2e that was 0.5 s of fs.write on the main thread of an api
 * for ~3,000 request lines (the 'request' line of request-id.ts). Batched, a write carries many
 * lines; what waits is written out within FLUSH_MS, and synchronously at exit (pino registers that).
 */
function batchedStdout(): pino.DestinationStream {
  if (!stdout) {
    const destination = pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES });
    setInterval(() => destination.flush(), FLUSH_MS).unref();
    stdout = destination;
  }
  return stdout;
}

/**
 * Fields that may carry a name, a phone, an e-mail or a message's text wherever they turn up in a
 * log line, and a database error's detail (it quotes the values of a violated key): their values
 * are never written (docs/rules/personal-data.md#what-is-kept). Log lines carry ids.
 */
const PERSONAL_FIELDS = ['name', 'phone', 'email', 'contactName', 'contactPhone', 'contactEmail', 'fromPhone', 'to', 'text', 'notes', 'customer', 'contact'];
export const REDACTED_PATHS = [
  ...PERSONAL_FIELDS,
  ...PERSONAL_FIELDS.map((field) => `*.${field}`),
  'detail',
  'err.detail',
  'err.nativeError.detail',
  'err.where',
  'err.parameters',
  'body',
  'query',
];

/** The logger; `destination` (tests) instead of standard output. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  if (level === 'silent') return pino({ level, base: undefined });
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: (line, _level, logger) => {
        const ctx = logContext.getStore();
        if (!ctx || 'requestId' in line) return {};
        // a child logger that already carries the id does not repeat it
        return (logger as unknown as { bindings(): Record<string, unknown> }).bindings().requestId ? {} : { requestId: ctx.requestId };
      },
    },
    destination ?? batchedStdout(),
  );
}
