import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('taxes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.decimal('rate', 6, 3).notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamps(true, true);
    t.index(['tenant_id']);
  });
  await knex.raw('ALTER TABLE taxes ADD CONSTRAINT taxes_rate_range_check CHECK (rate >= 0 AND rate <= 100)');
  await knex.raw('CREATE UNIQUE INDEX taxes_one_default_per_tenant ON taxes (tenant_id) WHERE is_default');

  await knex.schema.createTable('accounting_accounts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('code', 32).notNullable();
    t.string('name', 200).notNullable();
    t.uuid('tax_id').references('taxes.id').onDelete('RESTRICT');
    t.boolean('is_default').notNullable().defaultTo(false);
    t.timestamps(true, true);
    t.unique(['tenant_id', 'code'], { indexName: 'accounting_accounts_tenant_code_unique' });
  });
  await knex.raw('CREATE UNIQUE INDEX accounting_accounts_one_default_per_tenant ON accounting_accounts (tenant_id) WHERE is_default');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('accounting_accounts');
  await knex.schema.dropTableIfExists('taxes');
}
