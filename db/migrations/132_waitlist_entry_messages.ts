// The message that confirms joining the waitlist (docs/rules/waitlist.md#joining), with the link to
// see or leave the entry: claimed once per entry and channel like an offer's messages, so
// waitlist_notifications now belongs to an offer or to an entry (exactly one of the two).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE waitlist_notifications ALTER COLUMN offer_id DROP NOT NULL');
  await knex.schema.alterTable('waitlist_notifications', (t) => {
    t.uuid('entry_id').references('waitlist_entries.id').onDelete('CASCADE');
    // NULLs are distinct: offer messages (entry_id NULL) never meet this one
    t.unique(['entry_id', 'channel', 'kind'], { indexName: 'waitlist_notifications_entry_unique' });
  });
  await knex.raw(
    `ALTER TABLE waitlist_notifications ADD CONSTRAINT waitlist_notifications_offer_or_entry_check CHECK ((offer_id IS NULL) <> (entry_id IS NULL))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DELETE FROM waitlist_notifications WHERE offer_id IS NULL');
  await knex.raw('ALTER TABLE waitlist_notifications DROP CONSTRAINT waitlist_notifications_offer_or_entry_check');
  await knex.schema.alterTable('waitlist_notifications', (t) => {
    t.dropUnique(['entry_id', 'channel', 'kind'], 'waitlist_notifications_entry_unique');
    t.dropColumn('entry_id');
  });
  await knex.raw('ALTER TABLE waitlist_notifications ALTER COLUMN offer_id SET NOT NULL');
}
