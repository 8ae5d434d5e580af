// Platform-wide settings the super-admin changes at run time (docs/rules/booking-page.md): one row, typed
// columns with their allowed values checked by the database. `booking_ui_version` selects which
// customer booking page the api serves (v1: server-rendered forms, v2: the interactive page).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('platform_settings', (t) => {
    // a single row: the key is always true
    t.boolean('id').primary().defaultTo(true);
    t.string('booking_ui_version', 2).notNullable().defaultTo('v2');
    t.uuid('updated_by').references('users.id').onDelete('SET NULL');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE platform_settings ADD CONSTRAINT platform_settings_single_row CHECK (id)`);
  await knex.raw(`ALTER TABLE platform_settings ADD CONSTRAINT platform_settings_booking_ui_version_check CHECK (booking_ui_version IN ('v1','v2'))`);
  await knex('platform_settings').insert({ id: true });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('platform_settings');
}
