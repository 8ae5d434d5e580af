// What Postgres said when it refused a statement. Objection wraps driver errors (db-errors'
// UniqueViolationError and friends) and keeps the driver's error as `nativeError`; the knex builder
// and raw SQL throw the driver's error itself. Callers ask here instead of reading either shape.

export interface PostgresError {
  /** SQLSTATE, e.g. 23505 unique_violation */
  code: string;
  constraint?: string;
}

const UNIQUE_VIOLATION = '23505';
const EXCLUSION_VIOLATION = '23P01';
const DEADLOCK_DETECTED = '40P01';

export function postgresErrorOf(err: unknown): PostgresError | undefined {
  const candidates = [err, (err as { nativeError?: unknown } | null)?.nativeError];
  return candidates.find((e): e is PostgresError => typeof (e as PostgresError | null)?.code === 'string' && /^[0-9A-Z]{5}$/.test((e as PostgresError).code));
}

/** A unique (or primary key) violation, of `constraint` when given. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const pg = postgresErrorOf(err);
  return pg?.code === UNIQUE_VIOLATION && (constraint === undefined || pg.constraint === constraint);
}

/** An exclusion constraint's violation (two rows it keeps apart), of `constraint` when given. */
export function isExclusionViolation(err: unknown, constraint?: string): boolean {
  const pg = postgresErrorOf(err);
  return pg?.code === EXCLUSION_VIOLATION && (constraint === undefined || pg.constraint === constraint);
}

/** Postgres ended the transaction to break a deadlock: nothing of it was kept, and it may run again. */
export function isDeadlock(err: unknown): boolean {
  return postgresErrorOf(err)?.code === DEADLOCK_DETECTED;
}

/** Socket errors of a lost or refused database connection, as the driver reports them. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * The database is down, restarting or out of reach (docs/rules/errors.md#status-codes): Postgres
 * classes 08 (connection exception) and 57P01-57P03 (shut down, crashed, not accepting connections
 * yet), a refused or lost socket, or no pooled connection in time. The request is answered 503 and
 * may be tried again; the process itself carries on and reconnects when Postgres is back.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  const candidates = [err, (err as { nativeError?: unknown } | null)?.nativeError];
  return candidates.some((e) => {
    if (e === null || typeof e !== 'object') return false;
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code))) return true;
    if (name === 'KnexTimeoutError') return true;
    return typeof message === 'string' && /^Connection terminated|^Client has encountered a connection error/.test(message);
  });
}
