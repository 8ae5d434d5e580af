// Loyalty (docs/rules/loyalty.md): cards, stamps, vouchers with their audit timeline and per-channel
// message claims, and points (transactions plus a per-customer balance).
//
// Concurrency lives here: one stamp per (card, booking) and one EARN per (card, booking) make the
// completion step idempotent; a voucher code is unique per tenant (generation retries on a clash);
// a reserved voucher names its booking once (bookings.applied_voucher_id is unique as well).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('loyalty_cards', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('type', 20).notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.integer('required_stamps');
    t.integer('min_booking_value');
    t.integer('voucher_expiry_months');
    t.string('reward_type', 20);
    t.integer('reward_value');
    t.integer('earn_rate');
    t.integer('redeem_rate');
    t.integer('expiry_months');
    t.integer('min_redemption');
    t.specificType('service_ids', 'uuid[]').notNullable().defaultTo('{}');
    // deleted cards keep their stamps, vouchers and points for audit; they stop earning
    t.timestamp('deleted_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['tenant_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE loyalty_cards ADD CONSTRAINT loyalty_cards_type_check CHECK (type IN ('VISIT_BASED','POINTS_BASED'))`);
  await knex.raw(
    `ALTER TABLE loyalty_cards ADD CONSTRAINT loyalty_cards_reward_type_check CHECK (reward_type IS NULL OR reward_type IN ('FREE_SERVICE','DISCOUNT_PERCENT','DISCOUNT_AMOUNT'))`,
  );
  await knex.raw(
    `ALTER TABLE loyalty_cards ADD CONSTRAINT loyalty_cards_visit_fields_check CHECK (type <> 'VISIT_BASED' OR (required_stamps >= 1 AND reward_type IS NOT NULL AND reward_value >= 1))`,
  );
  await knex.raw(
    `ALTER TABLE loyalty_cards ADD CONSTRAINT loyalty_cards_points_fields_check CHECK (type <> 'POINTS_BASED' OR (earn_rate >= 1 AND redeem_rate >= 1 AND min_redemption >= 0))`,
  );

  await knex.schema.createTable('loyalty_stamps', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('loyalty_card_id').notNullable().references('loyalty_cards.id').onDelete('CASCADE');
    t.uuid('tenant_customer_id').notNullable().references('tenant_customers.id').onDelete('CASCADE');
    t.uuid('booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    t.integer('stamp_number').notNullable();
    t.integer('cycle_number').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['loyalty_card_id', 'booking_id'], { indexName: 'loyalty_stamps_card_booking_unique' });
    t.index(['loyalty_card_id', 'tenant_customer_id', 'cycle_number']);
  });

  await knex.schema.createTable('loyalty_vouchers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('loyalty_card_id').notNullable().references('loyalty_cards.id').onDelete('CASCADE');
    t.uuid('tenant_customer_id').notNullable().references('tenant_customers.id').onDelete('CASCADE');
    t.string('code', 20).notNullable();
    t.string('reward_type', 20).notNullable();
    t.integer('reward_value').notNullable();
    t.string('status', 20).notNullable().defaultTo('ACTIVE');
    t.timestamp('issued_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true });
    t.integer('issued_from_cycle_number').notNullable();
    t.uuid('issued_from_booking_id');
    t.uuid('reserved_booking_id');
    t.timestamp('reserved_at', { useTz: true });
    t.uuid('redeemed_booking_id');
    t.timestamp('redeemed_at', { useTz: true });
    t.integer('discount_applied');
    t.timestamp('cancelled_at', { useTz: true });
    t.string('cancelled_reason', 500);
    // the voucher workflow's entityVersion
    t.integer('version').notNullable().defaultTo(1);
    t.timestamps(true, true);
    t.unique(['tenant_id', 'code'], { indexName: 'loyalty_vouchers_tenant_code_unique' });
    t.unique(['loyalty_card_id', 'tenant_customer_id', 'issued_from_cycle_number'], { indexName: 'loyalty_vouchers_card_customer_cycle_unique' });
    t.index(['tenant_id', 'status', 'created_at']);
    t.index(['tenant_customer_id']);
  });
  await knex.raw(
    `ALTER TABLE loyalty_vouchers ADD CONSTRAINT loyalty_vouchers_status_check CHECK (status IN ('ACTIVE','RESERVED','REDEEMED','EXPIRED','CANCELLED'))`,
  );
  await knex.raw(
    `ALTER TABLE loyalty_vouchers ADD CONSTRAINT loyalty_vouchers_reserved_check CHECK ((status = 'RESERVED') = (reserved_booking_id IS NOT NULL))`,
  );

  await knex.schema.createTable('loyalty_voucher_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('voucher_id').notNullable().references('loyalty_vouchers.id').onDelete('CASCADE');
    t.string('action', 30).notNullable();
    t.string('from_status', 20);
    t.string('to_status', 20).notNullable();
    t.uuid('booking_id');
    t.uuid('actor_user_id').references('users.id').onDelete('SET NULL');
    t.string('actor_role', 20).notNullable();
    t.string('reason', 500);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['voucher_id', 'created_at']);
  });

  await knex.schema.createTable('loyalty_voucher_notifications', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('voucher_id').notNullable().references('loyalty_vouchers.id').onDelete('CASCADE');
    t.string('channel', 10).notNullable();
    t.string('kind', 20).notNullable();
    t.string('dedupe_key', 100).notNullable();
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['voucher_id', 'channel', 'dedupe_key'], { indexName: 'loyalty_voucher_notifications_once' });
  });

  await knex.schema.createTable('loyalty_points_balances', (t) => {
    t.uuid('loyalty_card_id').notNullable().references('loyalty_cards.id').onDelete('CASCADE');
    t.uuid('tenant_customer_id').notNullable().references('tenant_customers.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.integer('balance').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['loyalty_card_id', 'tenant_customer_id']);
  });
  await knex.raw('ALTER TABLE loyalty_points_balances ADD CONSTRAINT loyalty_points_balance_non_negative CHECK (balance >= 0)');

  await knex.schema.createTable('loyalty_points_transactions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('loyalty_card_id').notNullable().references('loyalty_cards.id').onDelete('CASCADE');
    t.uuid('tenant_customer_id').notNullable().references('tenant_customers.id').onDelete('CASCADE');
    t.string('type', 10).notNullable();
    t.integer('points').notNullable();
    t.integer('balance_after').notNullable();
    t.uuid('booking_id');
    t.string('reason', 500);
    t.uuid('actor_user_id').references('users.id').onDelete('SET NULL');
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['loyalty_card_id', 'tenant_customer_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE loyalty_points_transactions ADD CONSTRAINT loyalty_points_type_check CHECK (type IN ('EARN','REDEEM','ADJUST'))`);
  await knex.raw(`CREATE UNIQUE INDEX loyalty_points_earn_once ON loyalty_points_transactions (loyalty_card_id, booking_id) WHERE type = 'EARN'`);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'loyalty_points_transactions',
    'loyalty_points_balances',
    'loyalty_voucher_notifications',
    'loyalty_voucher_events',
    'loyalty_vouchers',
    'loyalty_stamps',
    'loyalty_cards',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
