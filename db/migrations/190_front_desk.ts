// The front desk (docs/rules/front-desk.md).
//
// booking_changes: the transaction that last wrote each booking (pg_current_xact_id()), kept by a
// trigger on every insert and update of bookings, so "what changed since" is a cursor over committed
// transactions: every transaction below the oldest one still running has finished, and its rows are
// visible (docs/rules/front-desk.md#live-updates). A table of its own beside bookings (not a column of
// it): the bookings' rows, their statements and their readers stay as they are. The same trigger
// NOTIFYs `salon_changes` with the salon's id, which Postgres delivers to every listening api process
// when the change commits (never when it rolls back). Bookings written before this migration have no
// row and are never reported.
//
// salon_notices: what the salon's owner is told (docs/rules/front-desk.md#the-salon-is-told), one row
// per booking and kind, written by the booking's workflow; it is in the change cursor too.
//
// tenants.settings: notifyOwnerByEmail (true) on every stored salon, so every read finds it complete.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('booking_changes', (t) => {
    t.uuid('booking_id').primary().references('bookings.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable();
    t.specificType('changed_xid', 'xid8').notNullable();
    t.index(['tenant_id', 'changed_xid'], 'booking_changes_tenant_changed_xid_idx');
  });
  // one row per booking; a transaction that writes a booking again leaves its row as it is
  await knex.raw(`CREATE FUNCTION booking_change_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO booking_changes (booking_id, tenant_id, changed_xid) VALUES (NEW.id, NEW.tenant_id, pg_current_xact_id())
        ON CONFLICT (booking_id) DO UPDATE SET changed_xid = EXCLUDED.changed_xid WHERE booking_changes.changed_xid <> EXCLUDED.changed_xid;
      PERFORM pg_notify('salon_changes', NEW.tenant_id::text);
      RETURN NULL;
    END $$`);
  await knex.raw('CREATE TRIGGER bookings_change_stamp AFTER INSERT OR UPDATE ON bookings FOR EACH ROW EXECUTE FUNCTION booking_change_stamp()');

  await knex.schema.createTable('salon_notices', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.uuid('booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    // APPROVAL_NEEDED or CUSTOMER_CANCELLED
    t.string('kind', 30).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('read_at', { useTz: true });
    t.specificType('changed_xid', 'xid8');
    t.unique(['booking_id', 'kind'], { indexName: 'salon_notices_booking_kind_unique' });
    t.index(['tenant_id', 'created_at'], 'salon_notices_tenant_created_idx');
    t.index(['tenant_id', 'changed_xid'], 'salon_notices_tenant_changed_xid_idx');
  });
  await knex.raw(`ALTER TABLE salon_notices ADD CONSTRAINT salon_notices_kind_check CHECK (kind IN ('APPROVAL_NEEDED', 'CUSTOMER_CANCELLED'))`);
  await knex.raw(`CREATE FUNCTION salon_notice_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.changed_xid := pg_current_xact_id();
      PERFORM pg_notify('salon_changes', NEW.tenant_id::text);
      RETURN NEW;
    END $$`);
  await knex.raw('CREATE TRIGGER salon_notices_change_stamp BEFORE INSERT OR UPDATE ON salon_notices FOR EACH ROW EXECUTE FUNCTION salon_notice_stamp()');

  await knex.raw(`UPDATE tenants SET settings = jsonb_build_object('notifyOwnerByEmail', true) || settings WHERE NOT (settings \\? 'notifyOwnerByEmail')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`UPDATE tenants SET settings = settings - 'notifyOwnerByEmail'`);
  await knex.schema.dropTable('salon_notices');
  await knex.raw('DROP FUNCTION salon_notice_stamp()');
  await knex.raw('DROP TRIGGER bookings_change_stamp ON bookings');
  await knex.raw('DROP FUNCTION booking_change_stamp()');
  await knex.schema.dropTable('booking_changes');
}
