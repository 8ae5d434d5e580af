import type { Knex } from 'knex';

// Customers are per tenant (unique on phone+tenant and on email+tenant). Phone and e-mail
// are stored normalised (domain/customer/customer.rules.ts) so the unique indexes match what users mean.
// tenant_customers holds the per-salon view (tags, notes, visit metrics); tenant_customer_visits
// makes recordCompletedVisit idempotent: one row per booking, keyed by booking id.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('customers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('phone', 32);
    t.string('email', 254);
    t.text('notes');
    t.timestamps(true, true);
    t.index(['tenant_id', 'created_at']);
  });
  await knex.raw('CREATE UNIQUE INDEX customers_tenant_phone_unique ON customers (tenant_id, phone) WHERE phone IS NOT NULL');
  await knex.raw('CREATE UNIQUE INDEX customers_tenant_email_unique ON customers (tenant_id, email) WHERE email IS NOT NULL');
  await knex.raw(`ALTER TABLE customers ADD CONSTRAINT customers_email_lowercase_check CHECK (email = lower(email))`);

  await knex.schema.createTable('tenant_customers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('customer_id').notNullable().references('customers.id').onDelete('CASCADE');
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.text('notes');
    t.integer('visit_count').notNullable().defaultTo(0);
    t.timestamp('first_visit', { useTz: true });
    t.timestamp('last_visit', { useTz: true });
    t.bigInteger('total_spent').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.unique(['tenant_id', 'customer_id'], { indexName: 'tenant_customers_tenant_customer_unique' });
  });
  await knex.raw('CREATE INDEX tenant_customers_tags_gin ON tenant_customers USING gin (tags)');
  await knex.raw('ALTER TABLE tenant_customers ADD CONSTRAINT tenant_customers_metrics_check CHECK (visit_count >= 0 AND total_spent >= 0)');

  await knex.schema.createTable('tenant_customer_visits', (t) => {
    t.uuid('booking_id').primary();
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('tenant_customer_id').notNullable().references('tenant_customers.id').onDelete('CASCADE');
    t.bigInteger('amount').notNullable();
    t.timestamp('visited_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant_customer_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('tenant_customer_visits');
  await knex.schema.dropTableIfExists('tenant_customers');
  await knex.schema.dropTableIfExists('customers');
}
