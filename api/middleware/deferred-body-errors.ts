// A body the parser could not read (malformed JSON, an undecodable encoding, a charset it does not
// know) is invalid input: it is refused (400/415) only after the access gate, like every other
// invalid input, so a caller without a token or the role learns that first
// (docs/rules/auth.md#order-of-the-checks). A body over the limit is refused at once (413): it is
// not read at all.
import type { RequestHandler } from 'express';

declare module 'express-serve-static-core' {
  interface Request {
    /** why the body parser refused the body; raised after the access gate */
    unreadableBody?: unknown;
  }
}

export function parseBodyLater(parser: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parser(req, res, (err?: unknown) => {
      if (err && (err as { status?: number }).status !== 413) {
        req.unreadableBody = err;
        return next();
      }
      next(err as Error | undefined);
    });
}

export const refuseUnreadableBody: RequestHandler = (req, _res, next) => next(req.unreadableBody);
