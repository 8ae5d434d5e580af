// Payments (docs/rules/payments.md): provider configurations with sealed credentials, payments,
// their event history, refunds (each with its own provider idempotency key) and the webhook inbox
// (unique on the provider's event id, so a redelivered webhook is acknowledged and ignored).
import type { Knex } from 'knex';

const PAYMENT_STATUSES = `'INITIATED','AUTHORIZED','CAPTURED','PARTIALLY_REFUNDED','REFUNDED','FAILED','EXPIRED','VOIDED'`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_configs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('provider', 30).notNullable();
    t.string('display_name', 100).notNullable();
    t.boolean('is_test').notNullable().defaultTo(true);
    t.boolean('is_active').notNullable().defaultTo(false);
    t.string('capture_mode', 10).notNullable().defaultTo('AUTO');
    // AES-256-GCM (domain/crypto/credential-cipher.ts); never leaves the domain in clear
    t.text('credentials_sealed').notNullable();
    t.integer('key_version').notNullable();
    t.timestamp('last_health_check_at', { useTz: true });
    t.string('last_health_check_status', 20);
    t.timestamps(true, true);
    t.index(['tenant_id'], 'payment_configs_tenant_idx');
  });
  await knex.raw('CREATE UNIQUE INDEX payment_configs_one_active ON payment_configs (tenant_id) WHERE is_active');
  await knex.raw(`ALTER TABLE payment_configs ADD CONSTRAINT payment_configs_capture_mode_check CHECK (capture_mode IN ('AUTO','MANUAL'))`);

  await knex.schema.createTable('payments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    t.uuid('config_id').references('payment_configs.id').onDelete('SET NULL');
    t.string('provider', 30);
    t.string('intent', 20).notNullable();
    t.string('capture_mode', 10).notNullable();
    t.string('status', 20).notNullable();
    t.integer('amount').notNullable();
    t.integer('captured_amount').notNullable().defaultTo(0);
    t.integer('refunded_amount').notNullable().defaultTo(0);
    t.string('currency', 3).notNullable();
    t.string('idempotency_key', 100).notNullable().unique();
    t.string('provider_session_id', 200);
    t.string('provider_transaction_id', 200);
    t.text('redirect_url');
    t.timestamp('expires_at', { useTz: true });
    t.integer('failed_count').notNullable().defaultTo(0);
    t.string('failure_kind', 10);
    t.string('failure_reason', 60);
    t.timestamp('capture_requested_at', { useTz: true });
    t.timestamp('void_requested_at', { useTz: true });
    t.timestamp('authorized_at', { useTz: true });
    t.timestamp('captured_at', { useTz: true });
    t.integer('version').notNullable().defaultTo(1);
    t.timestamps(true, true);
    t.index(['tenant_id', 'created_at'], 'payments_tenant_created_idx');
    t.index(['booking_id'], 'payments_booking_idx');
  });
  await knex.raw(`ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN (${PAYMENT_STATUSES}))`);
  await knex.raw(`ALTER TABLE payments ADD CONSTRAINT payments_intent_check CHECK (intent IN ('DEPOSIT','REMAINING'))`);
  await knex.raw(`ALTER TABLE payments ADD CONSTRAINT payments_capture_mode_check CHECK (capture_mode IN ('AUTO','MANUAL'))`);
  await knex.raw(`ALTER TABLE payments ADD CONSTRAINT payments_failure_kind_check CHECK (failure_kind IS NULL OR failure_kind IN ('TRANSIENT','PERMANENT'))`);
  // money in minor units: refunded <= captured <= amount, never negative
  await knex.raw(
    'ALTER TABLE payments ADD CONSTRAINT payments_amounts_check CHECK (amount >= 0 AND captured_amount >= 0 AND refunded_amount >= 0 AND captured_amount <= amount AND refunded_amount <= captured_amount)',
  );

  await knex.schema.createTable('payment_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('payment_id').notNullable().references('payments.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('type', 40).notNullable();
    t.string('from_status', 20);
    t.string('to_status', 20);
    t.integer('amount');
    t.string('actor_role', 20).notNullable();
    t.uuid('actor_user_id');
    t.jsonb('data').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['payment_id', 'created_at'], 'payment_events_payment_idx');
  });

  await knex.schema.createTable('payment_refunds', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('payment_id').notNullable().references('payments.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.integer('amount').notNullable();
    t.string('reason', 500);
    t.string('status', 20).notNullable().defaultTo('PENDING');
    t.string('idempotency_key', 100).notNullable().unique();
    t.string('provider_refund_id', 200);
    t.timestamp('completed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['payment_id'], 'payment_refunds_payment_idx');
  });
  await knex.raw(`ALTER TABLE payment_refunds ADD CONSTRAINT payment_refunds_status_check CHECK (status IN ('PENDING','SUCCEEDED','FAILED'))`);
  await knex.raw('ALTER TABLE payment_refunds ADD CONSTRAINT payment_refunds_amount_check CHECK (amount > 0)');

  await knex.schema.createTable('payment_webhook_inbox', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.string('provider', 30).notNullable();
    t.string('provider_event_id', 200).notNullable();
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('payment_id').references('payments.id').onDelete('SET NULL');
    t.string('event_type', 40).notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.string('outcome', 40);
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider', 'provider_event_id'], { indexName: 'payment_webhook_inbox_event_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('payment_webhook_inbox');
  await knex.schema.dropTableIfExists('payment_refunds');
  await knex.schema.dropTableIfExists('payment_events');
  await knex.schema.dropTableIfExists('payments');
  await knex.schema.dropTableIfExists('payment_configs');
}
