// The waitlist (docs/rules/waitlist.md): entries, offer rounds, offers, their messages, and holds.
//
// Holds take part in the bookings' own overlap rule: a hold is a booking_items row without a
// booking (booking_id NULL, waitlist_round_id set), active and exclusive, so the existing EXCLUDE
// constraint booking_items_no_overlap refuses a booking over held time (409 BOOKING_CONFLICT) and
// a hold over booked time, and the availability loader, which reads active items, offers no held
// time. Deleting a round's hold rows releases the time.
//
// One entry per phone number and salon per overlapping date range: the EXCLUDE constraint
// waitlist_entries_one_per_phone over (tenant, phone, daterange) while the entry is WAITING.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('waitlist_entries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('status', 20).notNullable().defaultTo('WAITING');
    t.string('source', 20).notNullable();
    t.specificType('service_ids', 'uuid[]').notNullable();
    // null = any staff member
    t.uuid('resource_id').references('resources.id').onDelete('CASCADE');
    t.date('from_date').notNullable();
    t.date('to_date').notNullable();
    // salon-local HH:mm: the appointment starts at or after earliest_time and ends by latest_time
    t.string('earliest_time', 5);
    t.string('latest_time', 5);
    t.string('contact_name', 200).notNullable();
    t.string('contact_phone', 32).notNullable();
    t.string('contact_email', 254);
    t.uuid('customer_account_id').references('customer_accounts.id').onDelete('SET NULL');
    t.string('token_hash', 64).notNullable();
    t.uuid('booking_id').references('bookings.id').onDelete('SET NULL');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.integer('version').notNullable().defaultTo(1);
    t.timestamps(true, true);
    t.index(['tenant_id', 'status', 'from_date'], 'waitlist_entries_tenant_status_idx');
    t.index(['customer_account_id'], 'waitlist_entries_account_idx');
  });
  await knex.raw(`ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_status_check CHECK (status IN ('WAITING','BOOKED','LEFT','EXPIRED'))`);
  await knex.raw(`ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_source_check CHECK (source IN ('PUBLIC','STAFF'))`);
  await knex.raw(
    `ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_range_check CHECK (to_date >= from_date AND to_date - from_date <= 60 AND cardinality(service_ids) >= 1)`,
  );
  await knex.raw(`ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_one_per_phone
    EXCLUDE USING gist (tenant_id WITH =, contact_phone WITH =, daterange(from_date, to_date, '[]') WITH &&)
    WHERE (status = 'WAITING')`);

  await knex.schema.createTable('waitlist_rounds', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('status', 20).notNullable().defaultTo('OPEN');
    // what freed the time: CANCELLED, NO_SHOW, MOVED, TIME_OFF_REMOVED, ...
    t.string('cause', 30).notNullable();
    // the freed time; null resource = any staff member (an unassigned booking)
    t.uuid('resource_id').references('resources.id').onDelete('CASCADE');
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.timestamp('window_end', { useTz: true }).notNullable();
    // the offer step the round is at (0: nothing offered yet); each step offers once
    t.integer('step').notNullable().defaultTo(0);
    t.uuid('booking_id').references('bookings.id').onDelete('SET NULL');
    t.timestamp('freed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('first_offer_sent_at', { useTz: true });
    t.integer('version').notNullable().defaultTo(1);
    t.timestamps(true, true);
    t.index(['tenant_id', 'status'], 'waitlist_rounds_tenant_status_idx');
  });
  await knex.raw(`ALTER TABLE waitlist_rounds ADD CONSTRAINT waitlist_rounds_status_check CHECK (status IN ('OPEN','FILLED','EXHAUSTED'))`);
  await knex.raw('ALTER TABLE waitlist_rounds ADD CONSTRAINT waitlist_rounds_window_check CHECK (window_end > window_start)');

  await knex.schema.createTable('waitlist_offers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('round_id').notNullable().references('waitlist_rounds.id').onDelete('CASCADE');
    t.uuid('entry_id').notNullable().references('waitlist_entries.id').onDelete('CASCADE');
    t.integer('step').notNullable();
    t.string('status', 20).notNullable().defaultTo('OFFERED');
    t.timestamp('start_time', { useTz: true }).notNullable();
    t.timestamp('end_time', { useTz: true }).notNullable();
    // [{serviceId, resourceId, startTime, endTime}]: the booking accepting it makes
    t.jsonb('items').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.uuid('booking_id').references('bookings.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.unique(['round_id', 'entry_id'], { indexName: 'waitlist_offers_round_entry_unique' });
    t.index(['round_id', 'step'], 'waitlist_offers_round_step_idx');
  });
  await knex.raw(
    `ALTER TABLE waitlist_offers ADD CONSTRAINT waitlist_offers_status_check CHECK (status IN ('OFFERED','ACCEPTED','EXPIRED','DECLINED','TAKEN'))`,
  );
  // an entry holds at most one open offer at a time (a second round skips it meanwhile)
  await knex.raw(`CREATE UNIQUE INDEX waitlist_offers_one_open_per_entry ON waitlist_offers (entry_id) WHERE status = 'OFFERED'`);

  await knex.schema.createTable('waitlist_notifications', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('offer_id').notNullable().references('waitlist_offers.id').onDelete('CASCADE');
    t.string('channel', 10).notNullable();
    t.string('kind', 30).notNullable();
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['offer_id', 'channel', 'kind'], { indexName: 'waitlist_notifications_unique' });
  });

  // Holds: booking items without a booking, covered by booking_items_no_overlap like any item.
  await knex.raw('ALTER TABLE booking_items ALTER COLUMN booking_id DROP NOT NULL');
  await knex.raw('ALTER TABLE booking_items ALTER COLUMN service_id DROP NOT NULL');
  await knex.schema.alterTable('booking_items', (t) => {
    t.uuid('waitlist_round_id').references('waitlist_rounds.id').onDelete('CASCADE');
    t.index(['waitlist_round_id'], 'booking_items_waitlist_round_idx');
  });
  await knex.raw(`ALTER TABLE booking_items ADD CONSTRAINT booking_items_booking_or_hold_check CHECK (
    (booking_id IS NOT NULL AND service_id IS NOT NULL AND waitlist_round_id IS NULL)
    OR (booking_id IS NULL AND waitlist_round_id IS NOT NULL AND resource_id IS NOT NULL))`);

  // Settings are stored complete (docs/rules/salon.md#settings): existing salons get the defaults.
  await knex.raw(`UPDATE tenants SET settings = '{"waitlistMode":"FIRST_IN_LINE","waitlistHoldMinutes":15}'::jsonb || settings`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`UPDATE tenants SET settings = settings - 'waitlistMode' - 'waitlistHoldMinutes'`);
  await knex.raw('DELETE FROM booking_items WHERE booking_id IS NULL');
  await knex.raw('ALTER TABLE booking_items DROP CONSTRAINT booking_items_booking_or_hold_check');
  await knex.schema.alterTable('booking_items', (t) => t.dropColumn('waitlist_round_id'));
  await knex.raw('ALTER TABLE booking_items ALTER COLUMN booking_id SET NOT NULL');
  await knex.raw('ALTER TABLE booking_items ALTER COLUMN service_id SET NOT NULL');
  await knex.schema.dropTableIfExists('waitlist_notifications');
  await knex.schema.dropTableIfExists('waitlist_offers');
  await knex.schema.dropTableIfExists('waitlist_rounds');
  await knex.schema.dropTableIfExists('waitlist_entries');
}
