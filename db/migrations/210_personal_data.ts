// Customers' personal data (docs/rules/personal-data.md): what was sent to them, their marketing
// consent, the exports and erasures they or their salon asked for, and the salon's retention.
//
// The message tables keep what went out (`sent_to`, `text`), so an export can show it; an erasure
// or the retention clears both. marketing_consents records every consent and opt-out with its time
// and source; the customer's current answer stays `customers.accepts_rebooking_nudges`.
//
// An erased (or pseudonymised) customer is kept as a record without identity: `customers.erased`.
// A booking names its customer together with that flag (bookings.customer_erased), through a
// foreign key to (customers.id, customers.erased) that follows the flag (ON UPDATE CASCADE): a booking
// that reaches the database after its customer was erased refers to (id, false), which no longer
// exists, and is refused (bookings_customer_not_erased_fk), so no new booking ever joins an erased
// record (docs/rules/personal-data.md#erasure-racing-a-booking). `bookings.identity_removed_at` marks a
// booking kept for the accounts without its customer's identity, removed at the end of its period.
//
// personal_data_exports: who exported whose data, and when. personal_data_erasures: one row per
// request (one per salon record, one per customer account), the request's workflow's entity; the
// address the last notice goes to is kept on it until that notice is out. Its notice is claimed per
// channel in personal_data_erasure_notifications. customer_retention_sweeps: what each sweep of a
// salon's retention did. tenants.settings gains customerRetentionMonths (36).
import type { Knex } from 'knex';

const MESSAGE_TABLES = [
  'booking_notifications',
  'waitlist_notifications',
  'loyalty_voucher_notifications',
  'booking_series_notifications',
  'rebooking_nudge_notifications',
];

export async function up(knex: Knex): Promise<void> {
  for (const table of MESSAGE_TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.string('sent_to', 254);
      t.text('text');
    });
  }

  await knex.schema.alterTable('customers', (t) => {
    t.boolean('erased').notNullable().defaultTo(false);
    t.timestamp('erased_at', { useTz: true });
  });
  await knex.raw('ALTER TABLE customers ADD CONSTRAINT customers_id_erased_unique UNIQUE (id, erased)');
  await knex.raw(`ALTER TABLE customers ADD CONSTRAINT customers_erased_check CHECK (erased = (erased_at IS NOT NULL))`);
  await knex.schema.alterTable('bookings', (t) => {
    t.boolean('customer_erased').notNullable().defaultTo(false);
    t.timestamp('identity_removed_at', { useTz: true });
  });
  await knex.raw(`ALTER TABLE bookings ADD CONSTRAINT bookings_customer_not_erased_fk
    FOREIGN KEY (customer_id, customer_erased) REFERENCES customers (id, erased) ON UPDATE CASCADE ON DELETE SET NULL (customer_id) NOT VALID`);
  await knex.raw('ALTER TABLE bookings VALIDATE CONSTRAINT bookings_customer_not_erased_fk');
  await knex.raw('CREATE INDEX bookings_identity_removed_idx ON bookings (tenant_id, identity_removed_at) WHERE identity_removed_at IS NOT NULL');

  await knex.schema.createTable('marketing_consents', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('customer_id').notNullable().references('customers.id').onDelete('CASCADE');
    t.boolean('granted').notNullable();
    t.string('source', 20).notNullable();
    t.uuid('actor_user_id').references('users.id').onDelete('SET NULL');
    t.timestamp('recorded_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['customer_id', 'recorded_at']);
  });
  await knex.raw(
    `ALTER TABLE marketing_consents ADD CONSTRAINT marketing_consents_source_check CHECK (source IN ('BOOKING_PAGE','SIGN_IN','UNSUBSCRIBE_LINK','SALON'))`,
  );

  await knex.schema.createTable('personal_data_exports', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // a salon's export of one customer, or a signed-in customer's own (tenant and customer null)
    t.uuid('tenant_id').references('tenants.id').onDelete('CASCADE');
    t.uuid('customer_id').references('customers.id').onDelete('CASCADE');
    // no foreign key: the record outlives an erased account
    t.uuid('customer_account_id');
    t.uuid('requested_by_user_id').references('users.id').onDelete('SET NULL');
    t.string('requested_by_role', 20).notNullable();
    t.string('format', 10).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant_id', 'created_at']);
    t.index(['customer_id']);
  });
  await knex.raw(`ALTER TABLE personal_data_exports ADD CONSTRAINT personal_data_exports_format_check CHECK (format IN ('JSON','SUMMARY'))`);
  await knex.raw(
    `ALTER TABLE personal_data_exports ADD CONSTRAINT personal_data_exports_subject_check CHECK (customer_id IS NOT NULL OR customer_account_id IS NOT NULL)`,
  );

  await knex.schema.createTable('personal_data_erasures', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').references('tenants.id').onDelete('CASCADE');
    t.uuid('customer_id').references('customers.id').onDelete('CASCADE');
    // no foreign key: the account is deleted by its own erasure, the request stays
    t.uuid('customer_account_id');
    // a salon record erased as part of an account's request
    t.uuid('parent_id').references('personal_data_erasures.id').onDelete('CASCADE');
    t.string('requested_by', 20).notNullable();
    t.uuid('requested_by_user_id').references('users.id').onDelete('SET NULL');
    t.string('status', 20).notNullable().defaultTo('REQUESTED');
    t.integer('version').notNullable().defaultTo(1);
    // the address of the last notice, kept until it is out (docs/rules/personal-data.md#erasure)
    t.string('notice_phone', 32);
    t.string('notice_email', 254);
    t.string('notice_language', 2);
    t.jsonb('outcome').notNullable().defaultTo('{}');
    t.timestamp('requested_at', { useTz: true }).notNullable();
    t.timestamp('completed_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['tenant_id', 'requested_at']);
  });
  await knex.raw('CREATE UNIQUE INDEX personal_data_erasures_customer_unique ON personal_data_erasures (customer_id) WHERE customer_id IS NOT NULL');
  await knex.raw(
    'CREATE UNIQUE INDEX personal_data_erasures_account_unique ON personal_data_erasures (customer_account_id) WHERE customer_id IS NULL AND customer_account_id IS NOT NULL',
  );
  await knex.raw(`ALTER TABLE personal_data_erasures ADD CONSTRAINT personal_data_erasures_status_check CHECK (status IN ('REQUESTED','COMPLETED'))`);
  await knex.raw(`ALTER TABLE personal_data_erasures ADD CONSTRAINT personal_data_erasures_requested_by_check CHECK (requested_by IN ('SALON','CUSTOMER'))`);
  await knex.raw(
    `ALTER TABLE personal_data_erasures ADD CONSTRAINT personal_data_erasures_subject_check CHECK ((customer_id IS NOT NULL AND tenant_id IS NOT NULL) OR (customer_id IS NULL AND customer_account_id IS NOT NULL))`,
  );

  await knex.schema.createTable('personal_data_erasure_notifications', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('erasure_id').notNullable().references('personal_data_erasures.id').onDelete('CASCADE');
    t.string('channel', 10).notNullable();
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['erasure_id', 'channel'], { indexName: 'personal_data_erasure_notifications_once' });
  });

  await knex.schema.createTable('customer_retention_sweeps', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    // the workflow clock's time of the sweep, and the retention it applied
    t.timestamp('swept_at', { useTz: true }).notNullable();
    t.integer('retention_months').notNullable();
    t.integer('pseudonymised').notNullable();
    t.integer('accounting_removed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // one report per sweep: a retried step records nothing twice
    t.unique(['tenant_id', 'swept_at'], { indexName: 'customer_retention_sweeps_once' });
  });

  await knex.raw(`UPDATE tenants SET settings = '{"customerRetentionMonths":36}'::jsonb || settings`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`UPDATE tenants SET settings = settings - 'customerRetentionMonths'`);
  await knex.schema.dropTableIfExists('customer_retention_sweeps');
  await knex.schema.dropTableIfExists('personal_data_erasure_notifications');
  await knex.schema.dropTableIfExists('personal_data_erasures');
  await knex.schema.dropTableIfExists('personal_data_exports');
  await knex.schema.dropTableIfExists('marketing_consents');
  await knex.raw('DROP INDEX IF EXISTS bookings_identity_removed_idx');
  await knex.raw('ALTER TABLE bookings DROP CONSTRAINT bookings_customer_not_erased_fk');
  await knex.schema.alterTable('bookings', (t) => {
    t.dropColumn('identity_removed_at');
    t.dropColumn('customer_erased');
  });
  await knex.raw('ALTER TABLE customers DROP CONSTRAINT customers_erased_check');
  await knex.raw('ALTER TABLE customers DROP CONSTRAINT customers_id_erased_unique');
  await knex.schema.alterTable('customers', (t) => {
    t.dropColumn('erased_at');
    t.dropColumn('erased');
  });
  for (const table of MESSAGE_TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('text');
      t.dropColumn('sent_to');
    });
  }
}
