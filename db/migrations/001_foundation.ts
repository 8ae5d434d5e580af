import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS citext');

  await knex.schema.createTable('tenants', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.string('name', 200).notNullable();
    t.string('slug', 63).notNullable().unique();
    t.string('industry_type', 20).notNullable().defaultTo('beauty');
    t.jsonb('settings').notNullable();
    t.jsonb('branding').notNullable().defaultTo('{}');
    t.text('description');
    t.jsonb('address');
    t.string('custom_domain', 253).unique();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.jsonb('onboarding').notNullable().defaultTo('{"currentStep":0,"completedSteps":[]}');
    t.timestamp('onboarded_at', { useTz: true });
    t.string('subscription_status', 20);
    t.timestamp('trial_ends_at', { useTz: true });
    t.boolean('billing_exempt').notNullable().defaultTo(false);
    t.timestamps(true, true);
  });
  await knex.raw(`ALTER TABLE tenants ADD CONSTRAINT tenants_industry_type_check CHECK (industry_type IN ('beauty','nail','barbershop'))`);
  await knex.raw(`ALTER TABLE tenants ADD CONSTRAINT tenants_slug_format_check CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$')`);

  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').references('tenants.id').onDelete('CASCADE');
    t.string('role', 10).notNullable();
    t.specificType('email', 'citext');
    t.string('phone', 32);
    t.string('name', 200);
    t.string('password_hash', 100).notNullable();
    t.integer('token_version').notNullable().defaultTo(0);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('last_login_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['tenant_id']);
  });
  await knex.raw(`ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('ADMIN','OWNER','STAFF'))`);
  await knex.raw(`ALTER TABLE users ADD CONSTRAINT users_tenant_role_check CHECK ((role = 'ADMIN') = (tenant_id IS NULL))`);
  await knex.raw(`ALTER TABLE users ADD CONSTRAINT users_contact_check CHECK (email IS NOT NULL OR phone IS NOT NULL)`);
  await knex.raw(`CREATE UNIQUE INDEX users_tenant_email_unique ON users (tenant_id, email) WHERE tenant_id IS NOT NULL AND email IS NOT NULL`);
  await knex.raw(`CREATE UNIQUE INDEX users_tenant_phone_unique ON users (tenant_id, phone) WHERE tenant_id IS NOT NULL AND phone IS NOT NULL`);
  await knex.raw(`CREATE UNIQUE INDEX users_admin_email_unique ON users (email) WHERE tenant_id IS NULL`);

  await knex.schema.createTable('refresh_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('family_id').notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('rotated_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
    t.index(['family_id']);
  });

  await knex.schema.createTable('password_reset_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('password_reset_tokens');
  await knex.schema.dropTableIfExists('refresh_tokens');
  await knex.schema.dropTableIfExists('users');
  await knex.schema.dropTableIfExists('tenants');
}
