import type { Knex } from 'knex';

// Customer accounts (docs/rules/customers.md, docs/rules/auth.md#tokens): one account per person across salons, signed in with an
// external OpenID Connect provider. customer_identities maps (issuer, subject) to the account;
// customer_refresh_tokens rotate in families like the staff refresh_tokens; customer_oidc_nonces
// claims each ID-token nonce once, so a replayed token is refused. A salon's customer row and a
// booking point at the account: customers.account_id (one per salon), bookings.customer_account_id
// (set by a signed-in booking or a claim, compare-and-set while it is NULL).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('customer_accounts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.specificType('email', 'citext');
    t.boolean('email_verified').notNullable().defaultTo(false);
    t.string('name', 200);
    t.string('phone', 32);
    t.integer('token_version').notNullable().defaultTo(0);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('last_login_at', { useTz: true });
    t.timestamps(true, true);
  });

  await knex.schema.createTable('customer_identities', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('customer_accounts.id').onDelete('CASCADE');
    t.string('issuer', 500).notNullable();
    t.string('subject', 255).notNullable();
    t.string('email', 254);
    t.timestamp('last_used_at', { useTz: true });
    t.timestamps(true, true);
    t.unique(['issuer', 'subject'], { indexName: 'customer_identities_issuer_subject_unique' });
    t.index(['account_id']);
  });

  await knex.schema.createTable('customer_refresh_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('customer_accounts.id').onDelete('CASCADE');
    t.uuid('family_id').notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('rotated_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['account_id']);
    t.index(['family_id']);
  });

  await knex.schema.createTable('customer_oidc_nonces', (t) => {
    t.string('issuer', 500).notNullable();
    t.string('nonce', 255).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['issuer', 'nonce']);
    t.index(['expires_at']);
  });

  await knex.schema.alterTable('customers', (t) => {
    t.uuid('account_id').references('customer_accounts.id').onDelete('SET NULL');
  });
  await knex.raw('CREATE UNIQUE INDEX customers_tenant_account_unique ON customers (tenant_id, account_id) WHERE account_id IS NOT NULL');

  await knex.schema.alterTable('bookings', (t) => {
    t.uuid('customer_account_id').references('customer_accounts.id').onDelete('SET NULL');
  });
  await knex.raw('CREATE INDEX bookings_customer_account_idx ON bookings (customer_account_id, start_time DESC) WHERE customer_account_id IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bookings', (t) => t.dropColumn('customer_account_id'));
  await knex.schema.alterTable('customers', (t) => t.dropColumn('account_id'));
  await knex.schema.dropTableIfExists('customer_oidc_nonces');
  await knex.schema.dropTableIfExists('customer_refresh_tokens');
  await knex.schema.dropTableIfExists('customer_identities');
  await knex.schema.dropTableIfExists('customer_accounts');
}
