// Bookings, their items and the audit log (docs/rules/booking.md).
//
// Double-booking guarantee. booking_items carries the resource and the item's own time range; the
// EXCLUDE constraint booking_items_no_overlap (btree_gist) rejects two overlapping ranges on one
// resource while both items are `is_active` (status not CANCELLED / NO_SHOW; kept in step with the
// booking status by domain/booking/booking-change.ts) and `is_exclusive` (the booking was created
// while settings.allowDoubleBooking was off). Touching ranges ([) bounds) are fine. Unassigned items
// (resource_id NULL) cannot be covered by the constraint: their capacity check is serialised with a
// per-tenant advisory lock inside the writing transaction (see booking-lock.ts).
import type { Knex } from 'knex';

const STATUSES = `'PENDING','CONFIRMED','ARRIVED','IN_PROGRESS','COMPLETED','CANCELLED','NO_SHOW'`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS btree_gist');

  await knex.schema.createTable('bookings', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('customer_id').references('customers.id').onDelete('SET NULL');
    // null = unassigned; for multi-item bookings the first item's resource
    t.uuid('resource_id').references('resources.id');
    t.timestamp('start_time', { useTz: true }).notNullable();
    t.timestamp('end_time', { useTz: true }).notNullable();
    t.string('status', 20).notNullable();
    t.string('source', 20).notNullable();
    t.string('payment_mode', 20).notNullable().defaultTo('IN_PERSON');
    t.integer('total_amount').notNullable().defaultTo(0);
    t.integer('discount_amount').notNullable().defaultTo(0);
    t.uuid('applied_voucher_id');
    t.integer('cancellation_fee').notNullable().defaultTo(0);
    t.string('deposit_status', 20);
    t.boolean('processed_for_loyalty').notNullable().defaultTo(false);
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.boolean('is_guest').notNullable().defaultTo(false);
    t.string('contact_name', 200);
    t.string('contact_phone', 32);
    t.string('contact_email', 254);
    t.text('notes');
    t.integer('version').notNullable().defaultTo(1);
    t.string('cancel_reason', 500);
    t.string('cancelled_by', 20);
    t.timestamp('cancelled_at', { useTz: true });
    t.string('cancellation_token_hash', 64);
    t.boolean('allow_double_booking').notNullable().defaultTo(false);
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.index(['tenant_id', 'start_time'], 'bookings_tenant_start_idx');
    t.index(['tenant_id', 'resource_id', 'start_time'], 'bookings_tenant_resource_start_idx');
    t.index(['tenant_id', 'created_at'], 'bookings_tenant_created_idx');
    t.index(['customer_id'], 'bookings_customer_idx');
  });
  await knex.raw('CREATE UNIQUE INDEX bookings_applied_voucher_unique ON bookings (applied_voucher_id) WHERE applied_voucher_id IS NOT NULL');
  await knex.raw(`ALTER TABLE bookings ADD CONSTRAINT bookings_status_check CHECK (status IN (${STATUSES}))`);
  await knex.raw(`ALTER TABLE bookings ADD CONSTRAINT bookings_source_check CHECK (source IN ('PHONE','ADMIN','WALK_IN','ONLINE'))`);
  await knex.raw(`ALTER TABLE bookings ADD CONSTRAINT bookings_payment_mode_check CHECK (payment_mode IN ('IN_PERSON','ONLINE'))`);
  await knex.raw(
    `ALTER TABLE bookings ADD CONSTRAINT bookings_deposit_status_check CHECK (deposit_status IS NULL OR deposit_status IN ('PENDING','AUTHORIZED','PAID','REFUNDED','PARTIALLY_REFUNDED','FORFEIT','VOIDED','RETRY_PENDING'))`,
  );
  await knex.raw(
    `ALTER TABLE bookings ADD CONSTRAINT bookings_cancelled_by_check CHECK (cancelled_by IS NULL OR cancelled_by IN ('CUSTOMER','SALON','SYSTEM'))`,
  );
  await knex.raw('ALTER TABLE bookings ADD CONSTRAINT bookings_time_check CHECK (end_time > start_time)');
  await knex.raw('ALTER TABLE bookings ADD CONSTRAINT bookings_amounts_check CHECK (total_amount >= 0 AND discount_amount >= 0 AND cancellation_fee >= 0)');

  await knex.schema.createTable('booking_items', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('service_id').notNullable().references('services.id');
    t.uuid('resource_id').references('resources.id');
    t.timestamp('start_time', { useTz: true }).notNullable();
    t.timestamp('end_time', { useTz: true }).notNullable();
    t.integer('duration').notNullable();
    t.integer('price').notNullable();
    t.integer('sort_order').notNullable().defaultTo(0);
    // denormalised from the booking: status blocks time (not CANCELLED / NO_SHOW)
    t.boolean('is_active').notNullable().defaultTo(true);
    // denormalised from the booking: created without allowDoubleBooking
    t.boolean('is_exclusive').notNullable().defaultTo(true);
    t.timestamps(true, true);
    t.index(['booking_id'], 'booking_items_booking_idx');
    t.index(['tenant_id', 'resource_id', 'start_time'], 'booking_items_tenant_resource_start_idx');
    t.index(['tenant_id', 'start_time'], 'booking_items_tenant_start_idx');
  });
  await knex.raw('ALTER TABLE booking_items ADD CONSTRAINT booking_items_time_check CHECK (end_time > start_time AND duration > 0 AND price >= 0)');
  await knex.raw(`ALTER TABLE booking_items ADD CONSTRAINT booking_items_no_overlap
    EXCLUDE USING gist (resource_id WITH =, tstzrange(start_time, end_time, '[)') WITH &&)
    WHERE (is_active AND is_exclusive AND resource_id IS NOT NULL)`);

  await knex.schema.createTable('booking_audit_logs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('actor_user_id').references('users.id').onDelete('SET NULL');
    t.string('actor_role', 20).notNullable();
    t.string('action', 40).notNullable();
    t.string('from_status', 20);
    t.string('to_status', 20);
    t.string('reason', 500);
    t.boolean('forced').notNullable().defaultTo(false);
    t.jsonb('changes').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant_id', 'booking_id', 'created_at'], 'booking_audit_logs_booking_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('booking_audit_logs');
  await knex.schema.dropTableIfExists('booking_items');
  await knex.schema.dropTableIfExists('bookings');
}
