// Processing time, buffers, and rooms or equipment booked with the staff member
// (docs/rules/catalogue.md#phases-buffers-and-rooms, docs/rules/booking.md#the-parts-of-a-booking).
//
// Services describe their parts:
// - `phases`: an ordered JSON array of {kind: WORK|PROCESSING, minutes}, 1 to 10 of them, whose
//   minutes add up to `duration` (the customer-visible length; services_phases_check). NULL is the
//   canonical form of one WORK phase of `duration`: every service that existed before this
//   migration is that, and so is a row written without phases.
// - `buffer_before_minutes`, `buffer_after_minutes` (0 to 120): the staff member's (and a
//   whole-service room's) time before and after, not shown to the customer.
// - `resource_requirements`: a JSON array of at most two {resourceType: room|equipment,
//   phases: [phase indexes] | null (the whole service, buffers included)}; the suitable rooms or
//   pieces of equipment are those of that type with the service among their skills.
//
// A booking holds its time in `booking_segments`, one row per part: the staff member's buffers and
// phases of each item, and each room or piece of equipment in the phases that need it. The
// double-booking guarantee moves here from booking_items: booking_segments_no_overlap rejects two
// overlapping blocking segments on one resource, while both are active (the booking's status is not
// CANCELLED / NO_SHOW) and exclusive (made without allowDoubleBooking), unless they belong to the
// same booking or the same waitlist round (a staff member's buffer between two services of one
// visit overlaps their next service; a round's offers hold the same time). `blocks` is generated:
// a staff member's PROCESSING segment blocks nothing (they may take another client then), every
// other segment blocks. A waitlist hold is a segment without a booking (waitlist_round_id set), as
// it was an item without a booking before: existing holds move here, and booking_items is once more
// bookings' items only. Every existing booking item becomes one WORK segment with its resource,
// times and flags, so every existing booking keeps its times and its guarantee.
// Unassigned items (staff resource_id NULL) stay outside the constraint: their capacity is checked
// under the tenant's booking lock (domain/booking/booking-lock.ts), as before.
import type { Knex } from 'knex';

const KINDS = `'BUFFER_BEFORE','WORK','PROCESSING','BUFFER_AFTER'`;
const RANGE = `tstzrange(start_time, end_time, '[)')`;

export async function up(knex: Knex): Promise<void> {
  // ---------------------------------------------------------------- services
  await knex.raw(`CREATE FUNCTION service_phase_minutes(phases jsonb) RETURNS integer LANGUAGE sql IMMUTABLE STRICT
    AS $$ SELECT COALESCE(sum((p->>'minutes')::integer), 0)::integer FROM jsonb_array_elements(phases) p $$`);
  await knex.schema.alterTable('services', (t) => {
    t.jsonb('phases');
    t.integer('buffer_before_minutes').notNullable().defaultTo(0);
    t.integer('buffer_after_minutes').notNullable().defaultTo(0);
    t.jsonb('resource_requirements').notNullable().defaultTo('[]');
  });
  await knex.raw(`ALTER TABLE services ADD CONSTRAINT services_phases_check CHECK (phases IS NULL OR CASE WHEN jsonb_typeof(phases) = 'array'
    THEN jsonb_array_length(phases) BETWEEN 1 AND 10 AND duration = service_phase_minutes(phases) ELSE false END)`);
  await knex.raw(
    'ALTER TABLE services ADD CONSTRAINT services_buffers_check CHECK (buffer_before_minutes BETWEEN 0 AND 120 AND buffer_after_minutes BETWEEN 0 AND 120)',
  );
  await knex.raw(`ALTER TABLE services ADD CONSTRAINT services_resource_requirements_check CHECK (CASE WHEN jsonb_typeof(resource_requirements) = 'array'
    THEN jsonb_array_length(resource_requirements) <= 2 ELSE false END)`);

  // ---------------------------------------------------------------- segments
  await knex.schema.createTable('booking_segments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('booking_id').references('bookings.id').onDelete('CASCADE');
    t.uuid('booking_item_id').references('booking_items.id').onDelete('CASCADE');
    t.uuid('waitlist_round_id').references('waitlist_rounds.id').onDelete('CASCADE');
    t.string('resource_type', 20).notNullable();
    // null: an unassigned item's staff member (any qualified one)
    t.uuid('resource_id').references('resources.id');
    t.string('kind', 20).notNullable();
    // the service's phase (0-based); null for buffers
    t.smallint('phase_index');
    t.timestamp('start_time', { useTz: true }).notNullable();
    t.timestamp('end_time', { useTz: true }).notNullable();
    // denormalised from the booking, as on booking_items: its status blocks time / made without allowDoubleBooking
    t.boolean('is_active').notNullable().defaultTo(true);
    t.boolean('is_exclusive').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['booking_id'], 'booking_segments_booking_idx');
    t.index(['booking_item_id'], 'booking_segments_item_idx');
    t.index(['waitlist_round_id'], 'booking_segments_waitlist_round_idx');
  });
  await knex.raw(`ALTER TABLE booking_segments ADD COLUMN blocks boolean GENERATED ALWAYS AS (resource_type <> 'staff' OR kind <> 'PROCESSING') STORED`);
  await knex.raw(`ALTER TABLE booking_segments ADD CONSTRAINT booking_segments_resource_type_check CHECK (resource_type IN ('staff','room','equipment'))`);
  await knex.raw(
    `ALTER TABLE booking_segments ADD CONSTRAINT booking_segments_kind_check CHECK (kind IN (${KINDS}) AND (phase_index IS NULL) = (kind IN ('BUFFER_BEFORE','BUFFER_AFTER')))`,
  );
  await knex.raw('ALTER TABLE booking_segments ADD CONSTRAINT booking_segments_time_check CHECK (end_time > start_time)');
  await knex.raw(`ALTER TABLE booking_segments ADD CONSTRAINT booking_segments_owner_check CHECK (
    (booking_id IS NOT NULL AND booking_item_id IS NOT NULL AND waitlist_round_id IS NULL)
    OR (booking_id IS NULL AND booking_item_id IS NULL AND waitlist_round_id IS NOT NULL AND resource_id IS NOT NULL))`);
  await knex.raw(`ALTER TABLE booking_segments ADD CONSTRAINT booking_segments_room_assigned_check CHECK (resource_type = 'staff' OR resource_id IS NOT NULL)`);
  await knex.raw(`ALTER TABLE booking_segments ADD CONSTRAINT booking_segments_no_overlap
    EXCLUDE USING gist (resource_id WITH =, ${RANGE} WITH &&, (COALESCE(booking_id, waitlist_round_id)) WITH <>)
    WHERE (blocks AND is_active AND is_exclusive AND resource_id IS NOT NULL)`);
  // the availability loader: a resource's blocking time over a few days, and a salon's segments over a day (unassigned ones, the day's schedule)
  await knex.raw(
    `CREATE INDEX booking_segments_resource_range_idx ON booking_segments USING gist (resource_id, ${RANGE}) WHERE is_active AND blocks AND resource_id IS NOT NULL`,
  );
  await knex.raw(`CREATE INDEX booking_segments_tenant_range_idx ON booking_segments USING gist (tenant_id, ${RANGE}) WHERE is_active`);

  // every existing item is one WORK segment of its staff member; every hold one held WORK segment
  await knex.raw(`INSERT INTO booking_segments (tenant_id, booking_id, booking_item_id, waitlist_round_id, resource_type, resource_id, kind, phase_index, start_time, end_time, is_active, is_exclusive)
    SELECT tenant_id, booking_id, CASE WHEN booking_id IS NULL THEN NULL ELSE id END, waitlist_round_id, 'staff', resource_id, 'WORK', 0, start_time, end_time, is_active, is_exclusive
      FROM booking_items`);

  // booking_items: bookings' items only again; the guarantee and the loader's indexes live on the segments now
  await knex.raw('DELETE FROM booking_items WHERE booking_id IS NULL');
  await knex.raw('ALTER TABLE booking_items DROP CONSTRAINT booking_items_booking_or_hold_check');
  await knex.schema.alterTable('booking_items', (t) => t.dropColumn('waitlist_round_id'));
  await knex.raw('ALTER TABLE booking_items ALTER COLUMN booking_id SET NOT NULL');
  await knex.raw('ALTER TABLE booking_items ALTER COLUMN service_id SET NOT NULL');
  await knex.raw('ALTER TABLE booking_items DROP CONSTRAINT booking_items_no_overlap');
  await knex.raw('DROP INDEX booking_items_resource_range_idx');
  await knex.raw('DROP INDEX booking_items_unassigned_range_idx');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX booking_items_resource_range_idx ON booking_items
    USING gist (resource_id, ${RANGE}) WHERE is_active AND resource_id IS NOT NULL`);
  await knex.raw(`CREATE INDEX booking_items_unassigned_range_idx ON booking_items
    USING gist (tenant_id, ${RANGE}) WHERE is_active AND resource_id IS NULL`);
  // refused when a staff member holds another client inside a processing phase: that cannot be undone
  await knex.raw(`ALTER TABLE booking_items ADD CONSTRAINT booking_items_no_overlap
    EXCLUDE USING gist (resource_id WITH =, ${RANGE} WITH &&)
    WHERE (is_active AND is_exclusive AND resource_id IS NOT NULL)`);
  await knex.raw('ALTER TABLE booking_items ALTER COLUMN booking_id DROP NOT NULL');
  await knex.raw('ALTER TABLE booking_items ALTER COLUMN service_id DROP NOT NULL');
  await knex.schema.alterTable('booking_items', (t) => {
    t.uuid('waitlist_round_id').references('waitlist_rounds.id').onDelete('CASCADE');
    t.index(['waitlist_round_id'], 'booking_items_waitlist_round_idx');
  });
  await knex.raw(`ALTER TABLE booking_items ADD CONSTRAINT booking_items_booking_or_hold_check CHECK (
    (booking_id IS NOT NULL AND service_id IS NOT NULL AND waitlist_round_id IS NULL)
    OR (booking_id IS NULL AND waitlist_round_id IS NOT NULL AND resource_id IS NOT NULL))`);
  // a round's staff holds go back as items without a booking (merged per staff member)
  await knex.raw(`INSERT INTO booking_items (tenant_id, waitlist_round_id, resource_id, start_time, end_time, duration, price, sort_order, is_active, is_exclusive)
    SELECT tenant_id, waitlist_round_id, resource_id, lower(m), upper(m), GREATEST(1, (extract(epoch FROM upper(m) - lower(m)) / 60)::integer), 0, 0, true, true
      FROM (SELECT tenant_id, waitlist_round_id, resource_id, unnest(range_agg(${RANGE})) AS m
              FROM booking_segments WHERE waitlist_round_id IS NOT NULL AND resource_type = 'staff' AND blocks
             GROUP BY tenant_id, waitlist_round_id, resource_id) held`);
  await knex.schema.dropTableIfExists('booking_segments');
  await knex.raw('ALTER TABLE services DROP CONSTRAINT services_resource_requirements_check');
  await knex.raw('ALTER TABLE services DROP CONSTRAINT services_buffers_check');
  await knex.raw('ALTER TABLE services DROP CONSTRAINT services_phases_check');
  await knex.schema.alterTable('services', (t) => {
    t.dropColumn('resource_requirements');
    t.dropColumn('buffer_after_minutes');
    t.dropColumn('buffer_before_minutes');
    t.dropColumn('phases');
  });
  await knex.raw('DROP FUNCTION service_phase_minutes(jsonb)');
}
