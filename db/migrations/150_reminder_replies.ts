// Reminders the customer answers (docs/rules/reminders.md).
//
// bookings: when and how the customer confirmed they are coming (confirmed_at, confirmed_via: LINK
// from the manage page or the public API, SMS by reply, STAFF when the salon records it), and when a
// booking still unconfirmed at the salon's flag time was flagged to the salon (once).
//
// sms_replies: every inbound SMS the gateway delivered, claimed by the gateway's own message id, so a
// redelivered reply is recognised and changes nothing; what it was matched to, what it did and the
// answer the customer was sent (answered_at once the answer is out).
//
// tenants.settings: the two new settings with their defaults on every stored salon (reminderHoursBefore
// 24, unconfirmedFlagHoursBefore null = off), so every read finds them complete.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bookings', (t) => {
    t.timestamp('confirmed_at', { useTz: true });
    t.string('confirmed_via', 10);
    t.timestamp('unconfirmed_flagged_at', { useTz: true });
  });
  await knex.raw(`ALTER TABLE bookings ADD CONSTRAINT bookings_confirmed_via_check
    CHECK ((confirmed_at IS NULL AND confirmed_via IS NULL) OR (confirmed_at IS NOT NULL AND confirmed_via IN ('LINK', 'SMS', 'STAFF')))`);

  await knex.schema.createTable('sms_replies', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // the gateway that delivered it ('SVEVE') and its id for the message
    t.string('gateway', 20).notNullable();
    t.string('gateway_message_id', 100).notNullable();
    // E.164 when the number could be read, else as received
    t.string('from_phone', 40).notNullable();
    t.string('text', 1000).notNullable();
    // CONFIRM, CANCEL or OTHER (docs/rules/reminders.md#answering-by-sms)
    t.string('intent', 10).notNullable();
    t.uuid('tenant_id').references('tenants.id').onDelete('CASCADE');
    t.uuid('booking_id').references('bookings.id').onDelete('SET NULL');
    // what the reply did: CONFIRMED, ALREADY_CONFIRMED, CANCELLED, WINDOW_CLOSED, ALREADY_CANCELLED, FINISHED, HELP, NO_BOOKING
    t.string('outcome', 30).notNullable();
    t.text('answer').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('answered_at', { useTz: true });
    t.unique(['gateway', 'gateway_message_id'], { indexName: 'sms_replies_gateway_message_unique' });
    t.index(['tenant_id', 'outcome'], 'sms_replies_tenant_outcome_idx');
  });
  await knex.raw(`ALTER TABLE sms_replies ADD CONSTRAINT sms_replies_intent_check CHECK (intent IN ('CONFIRM', 'CANCEL', 'OTHER'))`);

  // the matching of a reply to the booking most recently reminded on that phone
  await knex.raw(
    `CREATE INDEX booking_notifications_reminders_idx ON booking_notifications (booking_id, created_at) WHERE kind = 'REMINDER' AND channel = 'SMS'`,
  );
  await knex.raw(`CREATE INDEX bookings_contact_phone_start_idx ON bookings (contact_phone, start_time) WHERE contact_phone IS NOT NULL`);

  await knex.raw(`UPDATE tenants SET settings = jsonb_build_object('reminderHoursBefore', 24, 'unconfirmedFlagHoursBefore', null) || settings
    WHERE NOT (settings \\? 'reminderHoursBefore') OR NOT (settings \\? 'unconfirmedFlagHoursBefore')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`UPDATE tenants SET settings = settings - 'reminderHoursBefore' - 'unconfirmedFlagHoursBefore'`);
  await knex.raw('DROP INDEX bookings_contact_phone_start_idx');
  await knex.raw('DROP INDEX booking_notifications_reminders_idx');
  await knex.schema.dropTable('sms_replies');
  await knex.raw('ALTER TABLE bookings DROP CONSTRAINT bookings_confirmed_via_check');
  await knex.schema.alterTable('bookings', (t) => {
    t.dropColumn('unconfirmed_flagged_at');
    t.dropColumn('confirmed_via');
    t.dropColumn('confirmed_at');
  });
}
