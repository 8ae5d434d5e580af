// How often an entry's link was sent again (docs/rules/waitlist.md#joining): a public join with a
// phone that already waits over overlapping dates writes no second entry and says nothing of the
// first; the first's own contacts get its link again, at most 3 times over its life (each time its
// own message claim, JOINED_AGAIN_<n>). Defaulted: the version before this one reads and writes none.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('waitlist_entries', (t) => t.integer('link_resends').notNullable().defaultTo(0));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('waitlist_entries', (t) => t.dropColumn('link_resends'));
}
