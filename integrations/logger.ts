// pino, with the current request's id on every line logged while that request is handled
// (api/middleware/request-id.ts puts it into the async context), wherever the logging call is.
import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

export type Logger = pino.Logger;

export interface LogContext {
  requestId: string;
}

export const logContext = new AsyncLocalStorage<LogContext>();

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    mixin: (_context, _level, logger) => {
      const ctx = logContext.getStore();
      // a child logger that already carries the id does not repeat it
      return ctx && !(logger as unknown as { bindings(): Record<string, unknown> }).bindings().requestId ? { requestId: ctx.requestId } : {};
    },
  });
}
