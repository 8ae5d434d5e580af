// Platform SaaS billing (docs/rules/billing.md): plans and their features, the tenants' subscriptions, the
// billing-provider configurations with their plan mappings, the subscription webhook inbox, and the
// platform admin's audit log (billing-exempt grants).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plans', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.string('plan_key', 64).notNullable().unique();
    t.string('display_name', 100).notNullable();
    t.string('display_name_nb', 100).notNullable();
    t.string('billing_cycle', 10).notNullable();
    t.string('tagline', 200);
    t.string('tagline_nb', 200);
    t.text('description');
    t.text('description_nb');
    t.integer('flat_price_minor');
    t.integer('price_per_seat_minor');
    t.string('currency', 3).notNullable().defaultTo('NOK');
    t.boolean('self_serve_checkout').notNullable().defaultTo(true);
    t.boolean('is_public').notNullable().defaultTo(true);
    t.boolean('is_featured').notNullable().defaultTo(false);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.integer('trial_days');
    t.string('sandbox_variant_id', 200);
    t.string('polar_variant_id', 200);
    t.string('lemonsqueezy_variant_id', 200);
    t.timestamps(true, true);
    t.uuid('updated_by');
  });
  await knex.raw(`ALTER TABLE plans ADD CONSTRAINT plans_key_format_check CHECK (plan_key ~ '^[a-z][a-z0-9]*(_[a-z0-9]+)*$')`);
  await knex.raw(`ALTER TABLE plans ADD CONSTRAINT plans_billing_cycle_check CHECK (billing_cycle IN ('monthly','yearly'))`);
  await knex.raw(`ALTER TABLE plans ADD CONSTRAINT plans_one_price_check CHECK (flat_price_minor IS NULL OR price_per_seat_minor IS NULL)`);
  await knex.raw(
    `ALTER TABLE plans ADD CONSTRAINT plans_self_serve_priced_check CHECK (NOT self_serve_checkout OR flat_price_minor IS NOT NULL OR price_per_seat_minor IS NOT NULL)`,
  );
  await knex.raw(`CREATE UNIQUE INDEX plans_one_featured_per_cycle ON plans (billing_cycle) WHERE is_featured`);

  await knex.schema.createTable('plan_features', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.string('feature_key', 64).notNullable().unique();
    t.string('display_name', 100).notNullable();
    t.string('display_name_nb', 100).notNullable();
    t.text('description');
    t.text('description_nb');
    t.string('category', 20).notNullable();
    t.boolean('is_roadmap').notNullable().defaultTo(false);
    t.string('value_type', 10).notNullable().defaultTo('boolean');
    t.string('icon_key', 64);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.timestamps(true, true);
  });
  await knex.raw(
    `ALTER TABLE plan_features ADD CONSTRAINT plan_features_category_check CHECK (category IN ('bookings','customers','marketing','branding','payments','reports','integrations','support'))`,
  );
  await knex.raw(`ALTER TABLE plan_features ADD CONSTRAINT plan_features_value_type_check CHECK (value_type IN ('boolean','number','string'))`);

  await knex.schema.createTable('plan_feature_on_plan', (t) => {
    t.uuid('plan_id').notNullable().references('plans.id').onDelete('CASCADE');
    t.uuid('feature_id').notNullable().references('plan_features.id').onDelete('CASCADE');
    t.string('value', 200);
    t.primary(['plan_id', 'feature_id']);
  });

  await knex.schema.table('tenants', (t) => {
    // bumped by every api change of the tenant's subscription (the workflow's entity version)
    t.integer('subscription_version').notNullable().defaultTo(0);
  });

  await knex.schema.createTable('subscriptions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('plan_key', 64).notNullable();
    t.string('status', 12).notNullable();
    t.string('provider', 20);
    t.string('provider_sub_id', 200);
    t.string('provider_customer_id', 200);
    t.timestamp('trial_ends_at', { useTz: true });
    t.timestamp('current_period_end', { useTz: true });
    t.boolean('cancel_at_period_end').notNullable().defaultTo(false);
    t.timestamp('canceled_at', { useTz: true });
    t.timestamp('expired_at', { useTz: true });
    t.integer('seat_limit');
    // microsecond order of creation; the latest row of a tenant wins
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(knex.raw('clock_timestamp()'));
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider', 'provider_sub_id']);
    t.index(['tenant_id', 'created_at']);
    t.index(['plan_key']);
  });
  await knex.raw(`ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_check CHECK (status IN ('ACTIVE','PAST_DUE','CANCELED','EXPIRED'))`);

  await knex.schema.createTable('platform_billing_configs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.string('provider', 20).notNullable();
    t.boolean('is_test').notNullable();
    t.string('store_id', 200);
    t.string('api_base_url', 500).notNullable();
    t.string('store_domain', 253);
    t.string('display_name', 100).notNullable();
    t.text('sealed_credentials').notNullable();
    t.integer('key_version').notNullable();
    t.boolean('is_active').notNullable().defaultTo(false);
    t.timestamp('last_health_check_at', { useTz: true });
    t.string('last_health_check_status', 10);
    t.timestamps(true, true);
    t.unique(['provider', 'is_test']);
  });
  await knex.raw(`CREATE UNIQUE INDEX platform_billing_configs_one_active ON platform_billing_configs ((true)) WHERE is_active`);

  await knex.schema.createTable('platform_billing_plan_mappings', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('config_id').notNullable().references('platform_billing_configs.id').onDelete('CASCADE');
    t.string('plan_key', 64).notNullable();
    t.string('provider_variant_id', 200).notNullable();
    t.unique(['config_id', 'plan_key']);
  });

  await knex.schema.createTable('subscription_webhook_inbox', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.string('provider', 20).notNullable();
    t.string('provider_event_id', 200).notNullable();
    t.string('event_name', 64).notNullable();
    t.jsonb('payload').notNullable();
    t.text('signature');
    t.boolean('verified').notNullable().defaultTo(false);
    t.uuid('tenant_id').references('tenants.id').onDelete('SET NULL');
    t.uuid('subscription_id');
    t.timestamp('processed_at', { useTz: true });
    t.text('failure_reason');
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(knex.raw('clock_timestamp()'));
    t.unique(['provider', 'provider_event_id']);
    t.index(['tenant_id', 'processed_at']);
  });

  await knex.schema.createTable('platform_audit_logs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('admin_user_id').notNullable();
    t.string('action', 64).notNullable();
    t.uuid('tenant_id').references('tenants.id').onDelete('CASCADE');
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('platform_audit_logs');
  await knex.schema.dropTableIfExists('subscription_webhook_inbox');
  await knex.schema.dropTableIfExists('platform_billing_plan_mappings');
  await knex.schema.dropTableIfExists('platform_billing_configs');
  await knex.schema.dropTableIfExists('subscriptions');
  await knex.schema.table('tenants', (t) => t.dropColumn('subscription_version'));
  await knex.schema.dropTableIfExists('plan_feature_on_plan');
  await knex.schema.dropTableIfExists('plan_features');
  await knex.schema.dropTableIfExists('plans');
}
