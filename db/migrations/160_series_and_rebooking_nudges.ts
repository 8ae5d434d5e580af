// Standing appointments (docs/rules/series.md) and rebooking nudges (docs/rules/series.md#rebooking-nudges).
//
// booking_series: one customer's same services with the same staff member every N weeks, from a
// first booking (occurrence 0). booking_series_occurrences holds one row per occurrence the series
// handled, keyed (series_id, occurrence_index): the key is what makes booking an occurrence
// idempotent (the row and its booking are written in one transaction, so a retried activity finds
// the row and books nothing). A booking belongs to at most one occurrence (unique booking_id).
//
// rebooking_nudges: one row per customer and salon (unique), pointing at the customer's latest
// completed visit; each message is claimed in rebooking_nudge_notifications, unique on
// (nudge, visit, channel), so a visit is nudged at most once.
//
// A series' bookings are the salon's own (source ADMIN; the released contract's source values stay as
// they are): the occurrence rows say which series each belongs to. Services gain an optional typical interval; customers record
// whether they agreed to nudges; the salon setting seriesToleranceDays (default 2) is added to
// every tenant's settings.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('booking_series', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('customer_id').notNullable().references('customers.id').onDelete('CASCADE');
    t.uuid('resource_id').notNullable().references('resources.id').onDelete('CASCADE');
    t.specificType('service_ids', 'uuid[]').notNullable();
    t.integer('interval_weeks').notNullable();
    t.uuid('first_booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    // occurrence k (k > anchor_index) is planned at anchor_start + (k - anchor_index) * interval_weeks, salon-local
    t.integer('anchor_index').notNullable().defaultTo(0);
    t.timestamp('anchor_start', { useTz: true }).notNullable();
    // the series ends after occurrence_count occurrences (the first included), or on until_date (salon-local)
    t.integer('occurrence_count');
    t.date('until_date');
    t.string('status', 20).notNullable().defaultTo('ACTIVE');
    t.string('created_via', 20).notNullable();
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.uuid('customer_account_id').references('customer_accounts.id').onDelete('SET NULL');
    t.timestamp('ended_at', { useTz: true });
    t.integer('version').notNullable().defaultTo(1);
    t.timestamps(true, true);
    t.unique(['first_booking_id'], { indexName: 'booking_series_first_booking_unique' });
    t.index(['tenant_id', 'status'], 'booking_series_tenant_status_idx');
    t.index(['customer_id'], 'booking_series_customer_idx');
  });
  await knex.raw(`ALTER TABLE booking_series ADD CONSTRAINT booking_series_status_check CHECK (status IN ('ACTIVE','ENDED','FINISHED'))`);
  await knex.raw(`ALTER TABLE booking_series ADD CONSTRAINT booking_series_created_via_check CHECK (created_via IN ('STAFF','CUSTOMER'))`);
  await knex.raw(`ALTER TABLE booking_series ADD CONSTRAINT booking_series_interval_check CHECK (interval_weeks BETWEEN 1 AND 26)`);
  await knex.raw(
    `ALTER TABLE booking_series ADD CONSTRAINT booking_series_end_check CHECK ((occurrence_count IS NULL) <> (until_date IS NULL) AND (occurrence_count IS NULL OR occurrence_count BETWEEN 2 AND 52) AND cardinality(service_ids) >= 1)`,
  );

  await knex.schema.createTable('booking_series_occurrences', (t) => {
    t.uuid('series_id').notNullable().references('booking_series.id').onDelete('CASCADE');
    t.integer('occurrence_index').notNullable();
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    // BOOKED (at the planned time), MOVED (nearest free time within the tolerance), SKIPPED (none), CANCELLED (before it was booked)
    t.string('status', 20).notNullable();
    t.timestamp('planned_start', { useTz: true }).notNullable();
    t.timestamp('start_time', { useTz: true });
    t.uuid('booking_id').references('bookings.id').onDelete('SET NULL');
    t.string('reason', 40);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['series_id', 'occurrence_index']);
    t.unique(['booking_id'], { indexName: 'booking_series_occurrences_booking_unique' });
    t.index(['tenant_id', 'status'], 'booking_series_occurrences_tenant_status_idx');
  });
  await knex.raw(
    `ALTER TABLE booking_series_occurrences ADD CONSTRAINT booking_series_occurrences_status_check CHECK (status IN ('BOOKED','MOVED','SKIPPED','CANCELLED'))`,
  );

  await knex.schema.createTable('booking_series_notifications', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('series_id').notNullable().references('booking_series.id').onDelete('CASCADE');
    t.integer('occurrence_index').notNullable();
    // CUSTOMER, or SALON:<user id> (an owner)
    t.string('recipient', 60).notNullable();
    t.string('channel', 10).notNullable();
    t.string('kind', 20).notNullable();
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['series_id', 'occurrence_index', 'recipient', 'channel', 'kind'], { indexName: 'booking_series_notifications_unique' });
  });

  await knex.schema.createTable('rebooking_nudges', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('customer_id').notNullable().references('customers.id').onDelete('CASCADE');
    t.uuid('visit_booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    t.timestamp('visited_at', { useTz: true }).notNullable();
    // null: none of the visit's services has a typical interval
    t.timestamp('due_at', { useTz: true });
    t.specificType('service_ids', 'uuid[]').notNullable();
    t.uuid('resource_id').references('resources.id').onDelete('SET NULL');
    // WAITING, SENT, BOOKED_BEFORE, NOT_AGREED, NO_INTERVAL, NO_CONTACT, PASSED (the visit was recorded after its nudge was due)
    t.string('status', 20).notNullable();
    t.timestamp('sent_at', { useTz: true });
    t.integer('version').notNullable().defaultTo(1);
    t.timestamps(true, true);
    t.unique(['tenant_id', 'customer_id'], { indexName: 'rebooking_nudges_customer_unique' });
    t.index(['tenant_id', 'status'], 'rebooking_nudges_tenant_status_idx');
  });
  await knex.raw(
    `ALTER TABLE rebooking_nudges ADD CONSTRAINT rebooking_nudges_status_check CHECK (status IN ('WAITING','SENT','BOOKED_BEFORE','NOT_AGREED','NO_INTERVAL','NO_CONTACT','PASSED'))`,
  );

  await knex.schema.createTable('rebooking_nudge_notifications', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('nudge_id').notNullable().references('rebooking_nudges.id').onDelete('CASCADE');
    t.uuid('visit_booking_id').notNullable();
    t.string('channel', 10).notNullable();
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['nudge_id', 'visit_booking_id', 'channel'], { indexName: 'rebooking_nudge_notifications_unique' });
  });

  await knex.schema.alterTable('services', (t) => t.integer('typical_interval_weeks'));
  await knex.raw(
    `ALTER TABLE services ADD CONSTRAINT services_typical_interval_check CHECK (typical_interval_weeks IS NULL OR typical_interval_weeks BETWEEN 1 AND 52)`,
  );
  await knex.schema.alterTable('customers', (t) => t.boolean('accepts_rebooking_nudges').notNullable().defaultTo(false));
  await knex.raw(`UPDATE tenants SET settings = '{"seriesToleranceDays":2}'::jsonb || settings`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`UPDATE tenants SET settings = settings - 'seriesToleranceDays'`);
  await knex.schema.alterTable('customers', (t) => t.dropColumn('accepts_rebooking_nudges'));
  await knex.raw(`ALTER TABLE services DROP CONSTRAINT services_typical_interval_check`);
  await knex.schema.alterTable('services', (t) => t.dropColumn('typical_interval_weeks'));
  await knex.schema.dropTableIfExists('rebooking_nudge_notifications');
  await knex.schema.dropTableIfExists('rebooking_nudges');
  await knex.schema.dropTableIfExists('booking_series_notifications');
  await knex.schema.dropTableIfExists('booking_series_occurrences');
  await knex.schema.dropTableIfExists('booking_series');
}
