// What every repository and service takes as its first argument: the pool or the caller's transaction.
import type { Knex } from 'knex';

export type Db = Knex | Knex.Transaction;
