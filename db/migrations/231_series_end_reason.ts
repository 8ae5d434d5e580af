// Why a standing appointment ended, when it was not by hand (docs/rules/series.md#changing-cancelling-ending):
// FIRST_BOOKING_CANCELLED, the booking it was made from was cancelled by the salon or the platform, so
// the series stands on nothing the salon honours. Null for a series ended by hand or finished.
// Nullable: the version before this one writes no reason and reads none.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('booking_series', (t) => t.string('end_reason', 40));
  await knex.raw(
    `ALTER TABLE booking_series ADD CONSTRAINT booking_series_end_reason_check CHECK (end_reason IS NULL OR end_reason IN ('FIRST_BOOKING_CANCELLED'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('booking_series', (t) => t.dropColumn('end_reason'));
}
