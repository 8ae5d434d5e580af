// The moves of bookings per salon and mover, counted from the audit log at each metrics scrape
// (docs/rules/booking.md#moving-a-booking): a partial index over the RESCHEDULED entries only, so
// the count reads the moves and never the rest of the log.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX booking_audit_logs_moves_idx ON booking_audit_logs (tenant_id, actor_role) WHERE action = 'RESCHEDULED'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS booking_audit_logs_moves_idx');
}
