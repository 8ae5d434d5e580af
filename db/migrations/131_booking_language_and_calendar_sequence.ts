// The language a booking and a waitlist entry were made in (docs/rules/messages.md#language): every
// message about them is written in it. Rows made before it was kept were Norwegian.
//
// A booking's calendar sequence (docs/rules/booking-page.md#calendar-files): the SEQUENCE of its
// iCalendar event, raised only by the changes its messages tell the customer about (confirmed,
// moved, cancelled), so the manage page's calendar file never carries a SEQUENCE no message sent.
// It starts where the invitations already sent left it: they carried the row's version.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bookings', (t) => {
    t.string('language', 2).notNullable().defaultTo('nb');
    t.integer('calendar_sequence').notNullable().defaultTo(0);
  });
  await knex.raw(`ALTER TABLE bookings ADD CONSTRAINT bookings_language_check CHECK (language IN ('nb','en'))`);
  await knex.raw('UPDATE bookings SET calendar_sequence = version');
  await knex.schema.alterTable('waitlist_entries', (t) => {
    t.string('language', 2).notNullable().defaultTo('nb');
  });
  await knex.raw(`ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_language_check CHECK (language IN ('nb','en'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('waitlist_entries', (t) => t.dropColumn('language'));
  await knex.schema.alterTable('bookings', (t) => {
    t.dropColumn('calendar_sequence');
    t.dropColumn('language');
  });
}
