// One booking_notifications row per message AND channel, so the SMS and the e-mail of one message are
// separate idempotent deliveries: a failing e-mail retries on its own and never resends the SMS.
// Before: one row per (booking, dedupe key) with the channels it went out on in `channels`.
// After: one row per (booking, channel, dedupe key); `channel` says which; `sent_at` when it went out.
// Existing rows are split by the channels they list; a claim that never went out (no `sent_at`) is
// kept as an unsent claim on both channels, which is what a retry of it would have done.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('booking_notifications', (t) => {
    t.string('channel', 10);
    t.dropUnique(['booking_id', 'dedupe_key'], 'booking_notifications_booking_key_unique');
  });
  await knex.raw(`
    INSERT INTO booking_notifications (booking_id, tenant_id, kind, dedupe_key, sent_at, created_at, channel)
    SELECT n.booking_id, n.tenant_id, n.kind, n.dedupe_key, n.sent_at, n.created_at, c.channel
    FROM booking_notifications n
    CROSS JOIN LATERAL unnest(CASE WHEN n.sent_at IS NULL THEN ARRAY['SMS', 'EMAIL'] ELSE n.channels END) AS c(channel)
    WHERE n.channel IS NULL`);
  await knex('booking_notifications').whereNull('channel').delete();
  await knex.schema.alterTable('booking_notifications', (t) => {
    t.string('channel', 10).notNullable().alter();
    t.check(`channel IN ('SMS', 'EMAIL')`, [], 'booking_notifications_channel_check');
    t.unique(['booking_id', 'channel', 'dedupe_key'], { indexName: 'booking_notifications_booking_channel_key_unique' });
    t.dropColumn('channels');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('booking_notifications', (t) => {
    t.specificType('channels', 'text[]').notNullable().defaultTo('{}');
    t.dropUnique(['booking_id', 'channel', 'dedupe_key'], 'booking_notifications_booking_channel_key_unique');
    t.dropChecks(['booking_notifications_channel_check']);
  });
  // one row per (booking, dedupe key) again, listing the channels it went out on
  await knex.raw(`
    WITH merged AS (
      SELECT booking_id, dedupe_key,
             array_agg(channel ORDER BY channel DESC) FILTER (WHERE sent_at IS NOT NULL) AS channels,
             max(sent_at) AS sent_at,
             (array_agg(id ORDER BY created_at, id))[1] AS keep_id
      FROM booking_notifications GROUP BY booking_id, dedupe_key)
    UPDATE booking_notifications n
    SET channels = coalesce(m.channels, '{}'), sent_at = m.sent_at
    FROM merged m WHERE n.id = m.keep_id`);
  await knex.raw(`
    DELETE FROM booking_notifications n
    WHERE EXISTS (SELECT 1 FROM booking_notifications o
                  WHERE o.booking_id = n.booking_id AND o.dedupe_key = n.dedupe_key
                    AND (o.created_at, o.id) < (n.created_at, n.id))`);
  await knex.schema.alterTable('booking_notifications', (t) => {
    t.dropColumn('channel');
    t.unique(['booking_id', 'dedupe_key'], { indexName: 'booking_notifications_booking_key_unique' });
  });
}
