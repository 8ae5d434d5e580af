// The only place errors become HTTP responses (spec 7): AppError, request/response validation,
// body parsing, and database errors. Raw SQL and stacks never reach a client.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, errors, type ErrorDetail } from '../../domain/errors';
import { constraintErrors } from './constraint-errors';
import { errorBody } from '../envelope';
import type { Logger } from '../../integrations/logger';

interface ValidatorError {
  status: number;
  message: string;
  errors?: { path: string; message: string }[];
}

interface PgError {
  code: string;
  constraint?: string;
  table?: string;
  detail?: string;
}

function isValidatorError(err: unknown): err is ValidatorError {
  return typeof err === 'object' && err !== null && 'status' in err && Array.isArray((err as ValidatorError).errors);
}

function isPgError(err: unknown): err is PgError {
  const code = (err as PgError | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** `/body/settings/timezone` -> `settings.timezone`; `/query/limit` -> `limit`. */
function fieldOf(path: string): string {
  return path.replace(/^\/?(body|query|params|path|headers)\/?/, '').replace(/\//g, '.') || 'body';
}

function singular(table: string): string {
  return table.replace(/ies$/, 'y').replace(/s$/, '').toUpperCase();
}

function fromValidator(err: ValidatorError): AppError {
  const details: ErrorDetail[] = (err.errors ?? []).map((e) => ({ field: fieldOf(e.path), message: e.message }));
  switch (err.status) {
    case 400:
      return errors.validation('Request validation failed', details);
    case 404:
      return new AppError(404, 'ROUTE_NOT_FOUND', 'No such route');
    case 405:
      return new AppError(405, 'METHOD_NOT_ALLOWED', err.message);
    case 413:
      return new AppError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 415:
      return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', err.message);
    default:
      // Response validation failures land here (tests run with response validation on).
      return new AppError(500, 'RESPONSE_VALIDATION_FAILED', `${err.message}: ${JSON.stringify(details)}`);
  }
}

function fromPg(err: PgError): AppError | undefined {
  const mapped = err.constraint ? constraintErrors[err.constraint] : undefined;
  if (mapped) return mapped();
  switch (err.code) {
    case '23505':
      return errors.conflict(`${singular(err.table ?? 'record')}_ALREADY_EXISTS`, 'A record with these values already exists');
    case '23503':
      return /still referenced/.test(err.detail ?? '')
        ? errors.conflict(`${singular(err.table ?? 'record')}_IN_USE`, 'This record is still referenced by others')
        : errors.unprocessable('REFERENCE_NOT_FOUND', 'A referenced record does not exist');
    case '23514':
    case '22P02':
    case '22007':
    case '22008':
      return errors.validation('A value is not valid');
    case '23P01':
      return errors.conflict('BOOKING_CONFLICT', 'The time overlaps another booking');
    case '40001':
    case '40P01':
      return new AppError(409, 'CONCURRENT_UPDATE', 'The record changed at the same time; try again');
    default:
      return undefined;
  }
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isValidatorError(err)) return fromValidator(err);
  const bodyErr = err as { type?: string; status?: number } | null;
  if (bodyErr?.type === 'entity.too.large') return new AppError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
  if (bodyErr?.type === 'entity.parse.failed') return errors.validation('Malformed JSON body');
  // Objection wraps driver errors (db-errors) and keeps the Postgres error as `nativeError`.
  const pgErr = isPgError(err) ? err : (err as { nativeError?: unknown } | null)?.nativeError;
  if (isPgError(pgErr)) {
    const mapped = fromPg(pgErr);
    if (mapped) return mapped;
  }
  return new AppError(500, 'INTERNAL_ERROR', 'Something went wrong on our side');
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const appError = toAppError(err);
    if (appError.status >= 500) logger.error({ err, method: req.method, path: req.originalUrl }, 'request failed');
    if (res.headersSent) return;
    res.status(appError.status).json(errorBody(appError.code, appError.message, appError.details));
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError(404, 'ROUTE_NOT_FOUND', `No route for ${req.method} ${req.path}`));
};
