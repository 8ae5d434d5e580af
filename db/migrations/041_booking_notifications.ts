// One row per message the booking workflow sends (keyed by booking and dedupe key), so a retried
// activity never sends the same confirmation or reminder twice once it has gone out.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('booking_notifications', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('kind', 20).notNullable();
    t.string('dedupe_key', 100).notNullable();
    t.specificType('channels', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['booking_id', 'dedupe_key'], { indexName: 'booking_notifications_booking_key_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('booking_notifications');
}
