// The staff's customer search (GET /customers, GET /tenant-customers: the term anywhere in the name,
// the e-mail or the phone's digits; domain/customer/customer.repository.ts) read every customer of the
// salon and matched each: 18 ms for a salon of 15,000 customers in bench:growth, growing with the
// salon (docs/performance.md#growth-a-large-platform-issue-54). A trigram index finds the customers
// whose name, e-mail or phone holds the term's three-letter pieces, within the salon (btree_gin lets
// the salon's id be the index's first column). Built CONCURRENTLY, outside a transaction: the running
// version keeps writing customers while it builds, and it reads the same columns as before.
import type { Knex } from 'knex';

export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await knex.raw('CREATE EXTENSION IF NOT EXISTS btree_gin');
  await knex.raw(
    `CREATE INDEX CONCURRENTLY IF NOT EXISTS customers_search_trgm_idx ON customers
       USING gin (tenant_id, name gin_trgm_ops, email gin_trgm_ops, phone gin_trgm_ops)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS customers_search_trgm_idx');
}
