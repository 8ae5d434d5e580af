// Requests Node's HTTP parser refuses before Express sees them (a URL or headers over Node's 16 KB
// limit, a malformed request line) still get the error envelope (docs/rules/errors.md#envelope) instead of Node's
// bare status line, so a client can read the code like any other error.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './envelope';

interface ParserError extends Error {
  code?: string;
}

const HEADERS_TOO_LARGE = 'HPE_HEADER_OVERFLOW';

function answer(err: ParserError): { status: number; code: string; message: string } {
  if (err.code === HEADERS_TOO_LARGE) {
    return { status: 431, code: 'REQUEST_HEADERS_TOO_LARGE', message: 'The URL and headers together are over 16 KB' };
  }
  return { status: 400, code: 'MALFORMED_REQUEST', message: 'The request could not be parsed as HTTP' };
}

export function answerClientErrors(server: http.Server): void {
  server.on('clientError', (err: ParserError, socket: Duplex) => {
    // A socket that is already gone (reset, timed out) has nobody left to answer.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, code, message } = answer(err);
    const body = JSON.stringify(errorBody(code, message));
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
