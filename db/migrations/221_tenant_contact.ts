// How customers reach the salon (docs/rules/salon.md#tenant): a contact phone (E.164) and e-mail,
// shown on the public profile and wherever a page or message tells the customer to contact the
// salon. Nullable: existing salons have none until the owner sets them.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tenants', (t) => {
    t.string('contact_phone', 20);
    t.string('contact_email', 254);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tenants', (t) => {
    t.dropColumn('contact_phone');
    t.dropColumn('contact_email');
  });
}
