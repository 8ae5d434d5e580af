// The database handle types. Every repository and service takes a `Db` first: the pool or the
// caller's transaction. Nothing outside db/ imports knex itself (dependency-cruiser).
import type { Knex } from 'knex';

/** The pool or the caller's transaction: what every repository function and service takes first. */
export type Db = Knex | Knex.Transaction;

/** A `Db` that is a transaction: for functions whose statements only make sense inside one (row locks, advisory locks, writes that commit together). */
export type Transaction = Knex.Transaction;

/** The process's pool itself: held by the composition root that creates it and destroys it on shutdown. */
export type DbPool = Knex;
