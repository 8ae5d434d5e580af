// Three reads that looked a row up across every salon had no index starting with what they look up by,
// so their cost grew with the number of salons (bench:growth at 1,000 salons;
// docs/performance.md#growth-a-large-platform-issue-54):
// - a signed-in customer's salons (customers by account_id) walked the whole of
//   customers_tenant_account_unique, whose first column is the salon: 5.5 ms at 1,000,000 customers;
// - a customer's memberships (tenant_customers by customer_id) probed
//   tenant_customers_tenant_customer_unique once per salon: 9.1 ms at 1,000 salons;
// - the admin's tenant list (newest first, then id) sorted every salon for each page.
// Built CONCURRENTLY, outside a transaction: the running version keeps writing these tables while they
// build, and its queries are the same before and after.
import type { Knex } from 'knex';

export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS customers_account_idx ON customers (account_id) WHERE account_id IS NOT NULL');
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS tenant_customers_customer_idx ON tenant_customers (customer_id)');
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS tenants_created_idx ON tenants (created_at DESC, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS tenants_created_idx');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS tenant_customers_customer_idx');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS customers_account_idx');
}
