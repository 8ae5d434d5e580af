// The only place errors become HTTP responses (docs/rules/errors.md): AppError, request/response validation,
// body parsing, and database errors. Raw SQL and stacks never reach a client.
import { redactedUrl } from '../redacted-url';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { AppError, errors, type ErrorDetail } from '../../domain/errors';
import { constraintErrors } from './constraint-errors';
import { errorBody } from '../envelope';
import type { Logger } from '../../integrations/logger';
import { isDatabaseUnreachable } from '../../db/db-errors';

interface ValidatorError {
  status: number;
  message: string;
  /** errorCode: `<ajv keyword>.openapi.validation` */
  errors?: { path: string; message: string; errorCode?: string }[];
  /** the validator's `Allow` list on a 405 */
  headers?: Record<string, string>;
}

interface PgError {
  code: string;
  constraint?: string;
  table?: string;
  column?: string;
  detail?: string;
}

/** An error body-parser (express.json) raised: http-errors with a 4xx `status` and often a `type`. */
interface BodyError {
  status: number;
  type?: string;
  expose?: boolean;
  charset?: string;
  encoding?: string;
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

const bodyDetail = (message: string): ErrorDetail[] => [{ field: 'body', message }];

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
      // the validator says "unsupported media type undefined" when there is no content-type at all: a
      // request without the body its operation requires, answered as one with an empty body is
      // (docs/rules/errors.md#request-bodies)
      if (/undefined$/.test(err.message))
        return errors.validation('A request body is required', bodyDetail('is required: send it as JSON (content-type: application/json)'));
      return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', err.message);
    default:
      // Response validation failures land here (tests run with response validation on).
      return new AppError(500, 'RESPONSE_VALIDATION_FAILED', `${err.message}: ${JSON.stringify(details)}`);
  }
}

function isBodyError(err: unknown): err is BodyError {
  const e = err as BodyError | null;
  return typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose === true;
}

/**
 * Body-parser failures (docs/rules/errors.md#status-codes): malformed or undecodable bodies are 400 VALIDATION_ERROR naming
 * the body, an oversize body 413 PAYLOAD_TOO_LARGE, an unsupported charset 415
 * UNSUPPORTED_MEDIA_TYPE, an unsupported content-encoding 415 UNSUPPORTED_CONTENT_ENCODING.
 */
function fromBodyParser(err: BodyError): AppError {
  switch (err.type) {
    case 'entity.too.large':
      return new AppError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'entity.parse.failed':
      return errors.validation('Malformed JSON body', bodyDetail('is not valid JSON'));
    case 'charset.unsupported':
      return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `Unsupported charset "${err.charset ?? ''}"; send UTF-8 JSON`);
    case 'encoding.unsupported':
      return new AppError(415, 'UNSUPPORTED_CONTENT_ENCODING', `Unsupported content-encoding "${err.encoding ?? ''}"; use gzip, deflate, br or none`);
    case 'request.aborted':
      return errors.validation('The request body was not received completely', bodyDetail('was aborted'));
    case 'request.size.invalid':
      return errors.validation('The request body does not match its content-length', bodyDetail('length differs from content-length'));
    default:
      if (err.status === 413) return new AppError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
      if (err.status === 415) return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type');
      // e.g. a zlib error: content-encoding gzip on a body that is not gzip
      return errors.validation('The request body could not be decoded', bodyDetail('could not be decoded with its content-encoding'));
  }
}

/**
 * Data errors Postgres raised for a value the edge let through (class 22 "data exception", 23502
 * not null, 54000 too large to index): the client sent it, so 400 VALIDATION_ERROR, never a 500.
 */
const DATA_ERRORS: Record<string, string> = {
  '22001': 'A value is too long',
  '22003': 'A number is out of range',
  '22004': 'A required value is missing',
  '22007': 'A date or time is not valid',
  '22008': 'A date or time is out of range',
  '22012': 'A value leads to a division by zero',
  '22021': 'A text contains a character that is not allowed',
  '22023': 'A value is not valid',
  '22025': 'A text contains an invalid escape sequence',
  '2202E': 'A list index is out of range',
  '22P02': 'A value is not valid',
  '22P05': 'A text contains a character that is not allowed',
  '23502': 'A required value is missing',
  '23514': 'A value is not valid',
  '54000': 'A value is too large',
};

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
    case '23P01':
      return errors.conflict('BOOKING_CONFLICT', 'The time overlaps another booking');
    case '40001':
    case '40P01':
      return new AppError(409, 'CONCURRENT_UPDATE', 'The record changed at the same time; try again');
    default: {
      const message = DATA_ERRORS[err.code] ?? (err.code.startsWith('22') ? 'A value is not valid' : undefined);
      if (!message) return undefined;
      // Only `23502` and a few others name the column; no SQL or constraint text goes out.
      return errors.validation(message, err.column ? [{ field: err.column.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()), message }] : undefined);
    }
  }
}

function isDataError(pg: PgError | undefined): boolean {
  return pg !== undefined && (pg.code in DATA_ERRORS || pg.code.startsWith('22'));
}

/** The Postgres error inside `err` (Objection wraps driver errors and keeps it as `nativeError`). */
function pgErrorOf(err: unknown): PgError | undefined {
  const pgErr = isPgError(err) ? err : (err as { nativeError?: unknown } | null)?.nativeError;
  return isPgError(pgErr) ? pgErr : undefined;
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isDatabaseUnreachable(err)) return errors.unavailable('DATABASE_UNAVAILABLE', 'The database cannot be reached just now; please try again');
  if (isValidatorError(err)) return fromValidator(err);
  // a path segment that is not valid percent-encoding (Express could not decode the route's parameter)
  if (err instanceof URIError) return errors.validation('The URL is not valid percent-encoding');
  if (isBodyError(err)) return fromBodyParser(err);
  const pgErr = pgErrorOf(err);
  if (pgErr) {
    const mapped = fromPg(pgErr);
    if (mapped) return mapped;
  }
  return new AppError(500, 'INTERNAL_ERROR', 'Something went wrong on our side');
}

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  /** the code per schema keyword: `{ minimum: UPLOAD_TOO_SMALL }` */
  'x-error-codes'?: Record<string, string>;
  /** the refusal's message for the field, where the schema keyword's own would not say it */
  'x-error-message'?: string;
}

/**
 * The contract may name the code of a refused field (`x-error-codes: { minimum: UPLOAD_TOO_SMALL }`
 * on the presigned upload's `sizeBytes`): that schema check keeps the module's own code instead of
 * the generic VALIDATION_ERROR (docs/rules/errors.md#named-codes). Read from the operation the
 * validator matched (its schema, dereferenced); every problem must be of that one field and keyword
 * the field names a code for.
 */
function namedCodeOf(err: unknown, req: { openapi?: unknown }): AppError | undefined {
  if (!isValidatorError(err) || err.status !== 400 || !err.errors?.length) return undefined;
  const [problem] = err.errors;
  if (!/^\/?body\//.test(problem.path) || err.errors.some((e) => e.path !== problem.path)) return undefined;
  const operation = req.openapi as { schema?: { requestBody?: { content?: Record<string, { schema?: SchemaNode }> } } } | undefined;
  let node = operation?.schema?.requestBody?.content?.['application/json']?.schema;
  for (const key of problem.path.replace(/^\/?body\//, '').split('/')) node = node?.properties?.[key];
  const codes = new Set(err.errors.map((e) => node?.['x-error-codes']?.[(e.errorCode ?? '').split('.')[0]]));
  const [code] = codes;
  if (codes.size !== 1 || !code) return undefined;
  return new AppError(400, code, 'Request validation failed', [{ field: fieldOf(problem.path), message: node?.['x-error-message'] ?? problem.message }]);
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const appError = namedCodeOf(err, req as { openapi?: unknown }) ?? toAppError(err);
    const reqId = (req as { id?: unknown }).id ?? req.get('x-request-id');
    if (appError.status >= 500) {
      logger.error({ err, reqId, method: req.method, path: redactedUrl(req.originalUrl) }, 'request failed');
    } else if (isDataError(pgErrorOf(err))) {
      // A value the edge should have refused reached the database: answered 400, logged once so
      // the contract can be tightened.
      const pg = pgErrorOf(err)!;
      logger.warn(
        {
          reqId,
          method: req.method,
          path: req.path,
          pgCode: pg.code,
          table: pg.table,
          column: pg.column,
          constraint: pg.constraint,
          status: appError.status,
          code: appError.code,
        },
        'database refused a request value',
      );
    }
    if (res.headersSent) return;
    // RFC 9110: a 405 says which methods the route has.
    const allow = appError.status === 405 && isValidatorError(err) ? err.headers?.Allow : undefined;
    if (allow) res.set('Allow', allow);
    sendError(res, appError);
  };
}

/** The response of an error: its status and the error envelope. */
export function sendError(res: Response, appError: AppError): void {
  // a body over a limit: whatever the client still sends is not read as another request
  if (appError.status === 413) res.set('Connection', 'close');
  res.status(appError.status).json(errorBody(appError.code, appError.message, appError.details));
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError(404, 'ROUTE_NOT_FOUND', `No route for ${req.method} ${req.path}`));
};
