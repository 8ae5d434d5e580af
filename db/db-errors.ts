// What Postgres said when it refused a statement. Objection wraps driver errors (db-errors'
// UniqueViolationError and friends) and keeps the driver's error as `nativeError`; the knex builder
// and raw SQL throw the driver's error itself. Callers ask here instead of reading either shape.

export interface PostgresError {
  /** SQLSTATE, e.g. 23505 unique_violation */
  code: string;
  constraint?: string;
}

const UNIQUE_VIOLATION = '23505';

export function postgresErrorOf(err: unknown): PostgresError | undefined {
  const candidates = [err, (err as { nativeError?: unknown } | null)?.nativeError];
  return candidates.find((e): e is PostgresError => typeof (e as PostgresError | null)?.code === 'string' && /^[0-9A-Z]{5}$/.test((e as PostgresError).code));
}

/** A unique (or primary key) violation, of `constraint` when given. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const pg = postgresErrorOf(err);
  return pg?.code === UNIQUE_VIOLATION && (constraint === undefined || pg.constraint === constraint);
}
