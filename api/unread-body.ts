// A request refused before its body was read (an upload over its limit, a purpose that may not be
// uploaded): the rest of the body is read and thrown away before the answer goes out, and the answer
// closes the connection. Real clients (curl, browsers, Node's fetch) send the whole body before they
// read an answer; a server that answers and closes while bytes are still arriving resets the
// connection, and the client never sees the answer. A server that answers and keeps the connection
// would read the rest of the body as a new request. Past `maxBytes` the rest is not read: the answer
// goes out at once and the connection is closed (a client sending that much gets a reset).
import type { Request, Response } from 'express';

export function discardUnreadBody(req: Request, res: Response, maxBytes: number): Promise<void> {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  return new Promise((resolve) => {
    if (req.complete || req.readableEnded || req.destroyed) return resolve();
    let seen = 0;
    const finish = () => {
      req.off('data', count);
      req.off('end', finish);
      req.off('close', finish);
      req.off('error', finish);
      resolve();
    };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) {
        req.pause();
        finish();
      }
    };
    req.on('data', count);
    req.once('end', finish);
    req.once('close', finish);
    req.once('error', finish);
    req.resume();
  });
}
