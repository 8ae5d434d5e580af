// Decoy entries (docs/rules/waitlist.md#joining): a public join whose phone already waits over
// overlapping dates is answered with an entry of what was asked, whose link opens and leaves like any
// entry's, but which waits for nothing (no workflow, no offers, not on the salon's list). So neither
// the answer nor its link tells anyone that the number waits. Decoys are outside the one-entry-per-phone
// constraint. Defaulted: the version before this one writes none and reads none.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('waitlist_entries', (t) => t.boolean('decoy').notNullable().defaultTo(false));
  await knex.raw(`ALTER TABLE waitlist_entries DROP CONSTRAINT waitlist_entries_one_per_phone`);
  await knex.raw(`ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_one_per_phone
    EXCLUDE USING gist (tenant_id WITH =, contact_phone WITH =, daterange(from_date, to_date, '[]') WITH &&)
    WHERE (status = 'WAITING' AND NOT decoy)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex('waitlist_entries').where({ decoy: true }).delete();
  await knex.raw(`ALTER TABLE waitlist_entries DROP CONSTRAINT waitlist_entries_one_per_phone`);
  await knex.raw(`ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_one_per_phone
    EXCLUDE USING gist (tenant_id WITH =, contact_phone WITH =, daterange(from_date, to_date, '[]') WITH &&)
    WHERE (status = 'WAITING')`);
  await knex.schema.alterTable('waitlist_entries', (t) => t.dropColumn('decoy'));
}
