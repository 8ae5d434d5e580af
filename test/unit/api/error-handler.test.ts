import { expect } from 'chai';
import type { Request, Response } from 'express';
import { errorHandler, toAppError } from '../../../api/middleware/error-handler';
import type { Logger } from '../../../integrations/logger';

const pg = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error('raw sql text'), { code, ...extra });

describe('error handler: body-parser and database errors never become a 500', () => {
  it('when Postgres refuses a value (class 22, 23502, 54000) then 400 VALIDATION_ERROR without SQL', () => {
    for (const code of [
      '22P02',
      '22003',
      '22008',
      '22007',
      '22021',
      '22001',
      '22004',
      '22012',
      '22023',
      '22025',
      '2202E',
      '22P05',
      '22000',
      '23502',
      '23514',
      '54000',
    ]) {
      const e = toAppError(pg(code));
      expect(e, code).to.deep.include({ status: 400, code: 'VALIDATION_ERROR' });
      expect(e.message, code).not.to.contain('raw sql');
    }
  });

  it('when Objection wraps the driver error then it is unwrapped, and a named column becomes the field', () => {
    const e = toAppError({ name: 'NotNullViolationError', nativeError: pg('23502', { column: 'contact_name' }) });
    expect(e).to.deep.include({ status: 400, code: 'VALIDATION_ERROR' });
    expect(e.details).to.deep.equal([{ field: 'contactName', message: 'A required value is missing' }]);
  });

  it('when body-parser fails then 400/413/415 with specific codes', () => {
    const http = (status: number, extra: Record<string, unknown>) => Object.assign(new Error('x'), { status, statusCode: status, expose: true, ...extra });
    expect(toAppError(http(400, { type: 'entity.parse.failed' }))).to.deep.include({ status: 400, code: 'VALIDATION_ERROR' });
    expect(toAppError(http(413, { type: 'entity.too.large' }))).to.deep.include({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(toAppError(http(415, { type: 'charset.unsupported', charset: 'latin1' }))).to.deep.include({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(toAppError(http(415, { type: 'encoding.unsupported', encoding: 'compress' }))).to.deep.include({
      status: 415,
      code: 'UNSUPPORTED_CONTENT_ENCODING',
    });
    const zlib = toAppError(http(400, { code: 'Z_DATA_ERROR' }));
    expect(zlib).to.deep.include({ status: 400, code: 'VALIDATION_ERROR' });
    expect(zlib.details).to.deep.equal([{ field: 'body', message: 'could not be decoded with its content-encoding' }]);
  });

  it('when the database cannot be reached (stopped, restarting, connection lost, pool starved) then 503 DATABASE_UNAVAILABLE', () => {
    const unreachable = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      pg('57P01'),
      pg('57P03'),
      pg('08006'),
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }),
      { name: 'DBError', nativeError: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) },
    ];
    for (const err of unreachable)
      expect(toAppError(err), String((err as Error).message ?? (err as { name: string }).name)).to.deep.include({ status: 503, code: 'DATABASE_UNAVAILABLE' });
  });

  it('when a database data error slips through then it is logged once, at warn, with the request id', () => {
    const calls: { level: string; fields: Record<string, unknown> }[] = [];
    const logger = {
      warn: (fields: Record<string, unknown>) => calls.push({ level: 'warn', fields }),
      error: (fields: Record<string, unknown>) => calls.push({ level: 'error', fields }),
    } as unknown as Logger;
    let sent: { status?: number; body?: unknown } = {};
    const res = {
      headersSent: false,
      status(code: number) {
        sent.status = code;
        return this;
      },
      json(body: unknown) {
        sent.body = body;
        return this;
      },
    } as unknown as Response;
    const req = {
      method: 'POST',
      path: '/api/services',
      originalUrl: '/api/services',
      get: (h: string) => (h.toLowerCase() === 'x-request-id' ? 'req-123' : undefined),
    } as unknown as Request;
    errorHandler(logger)(pg('22021', { table: 'services' }), req, res, () => undefined);
    expect(sent.status).to.equal(400);
    expect(calls).to.have.length(1);
    expect(calls[0].level).to.equal('warn');
    expect(calls[0].fields).to.deep.include({ reqId: 'req-123', pgCode: '22021', table: 'services' });
    sent = {};
    calls.length = 0;
    errorHandler(logger)(Object.assign(pg('22001'), {}), { ...req, id: 'from-req-id' } as unknown as Request, res, () => undefined);
    expect(calls[0].fields.reqId).to.equal('from-req-id');
  });
});
