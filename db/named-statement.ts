// The hot path's fixed statements (a public booking's salon, lock, customer and insert; the
// availability loader), sent straight to the connection's pg client as named statements: Postgres
// parses each once per connection, and the request skips knex's query path (the binding scan and
// rewrite, the runner, the response mapping) on every call. That path was about a seventh of the
// api's CPU per booking. Knex still owns the pool and the transaction: the statement runs on the
// transaction's own connection, or on one borrowed from the pool and given back. Results are the
// rows as Postgres names them, as knex.raw gives them (no camelCase mapping: alias in the SQL).
import type { Knex } from 'knex';
import type { Db } from './db-handle';

export interface NamedStatement {
  /** one name per SQL text: the statement is parsed once per connection under it */
  name: string;
  /** SQL with knex.raw's placeholders: `?` with an array of bindings, `:key` with an object of them */
  sql: string;
  bindings: readonly unknown[] | Readonly<Record<string, unknown>>;
}

interface PgConnection {
  query<R>(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: R[] }>;
}

interface KnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
}

/** A statement as Postgres takes it: the SQL with `$n` placeholders, and which binding each one is. */
interface Compiled {
  /** the SQL it was compiled from: a name stands for one text only */
  sql: string;
  text: string;
  /** for `:key` bindings, the key of each `$n` in turn */
  keys?: string[];
}

/** By statement name: knex compiles each once, the first time it runs. */
const compiled = new Map<string, Compiled>();

function compile(db: Db, { sql, bindings }: NamedStatement): Compiled {
  if (Array.isArray(bindings))
    return {
      sql,
      text: db
        .raw(sql, bindings as Knex.RawBinding[])
        .toSQL()
        .toNative().sql,
    };
  // each key stands in as its own name, so the compiled bindings list the keys in placeholder order
  const keys = Object.keys(bindings);
  const native = db
    .raw(sql, Object.fromEntries(keys.map((key) => [key, `\u0000${key}`])))
    .toSQL()
    .toNative();
  return { sql, text: native.sql, keys: (native.bindings as string[]).map((marker) => marker.slice(1)) };
}

export async function runNamedStatement<R>(db: Db, statement: NamedStatement): Promise<R[]> {
  const { name } = statement;
  if ('isCompleted' in db && db.isCompleted()) throw new Error(`statement ${name}: the transaction has already ended`);
  if (Object.values(statement.bindings).some((value) => value === undefined)) throw new Error(`statement ${name}: a binding is undefined`);
  let known = compiled.get(name);
  if (!known) compiled.set(name, (known = compile(db, statement)));
  else if (known.sql !== statement.sql) throw new Error(`statement ${name}: the name already stands for other SQL`);
  const values = known.keys ? known.keys.map((key) => (statement.bindings as Record<string, unknown>)[key]) : (statement.bindings as readonly unknown[]);
  const client = db.client as unknown as KnexClient;
  const connection = await client.acquireConnection();
  try {
    return (await connection.query<R>({ name, text: known.text, values })).rows;
  } finally {
    // a transaction keeps its connection (knex's transaction client releases nothing)
    await client.releaseConnection(connection);
  }
}
