// Range indexes for the availability loader (domain/availability/availability.repository.ts). It asks
// for the active items that overlap a few days, per resource and for the tenant's unassigned ones.
// The btree indexes on (tenant_id, resource_id, start_time) and (tenant_id, start_time) can only
// bound such a query from above (start_time < range end), so every read walked the resource's (or
// the salon's) whole booking history before that day: 72% of Postgres's time under bench:e2e, and
// growing with every booking a salon ever took. A GiST index on the item's time range answers the
// overlap (&&) directly, whatever an item's duration; btree_gist (migration 040) indexes the ids.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX booking_items_resource_range_idx ON booking_items
    USING gist (resource_id, tstzrange(start_time, end_time, '[)')) WHERE is_active AND resource_id IS NOT NULL`);
  await knex.raw(`CREATE INDEX booking_items_unassigned_range_idx ON booking_items
    USING gist (tenant_id, tstzrange(start_time, end_time, '[)')) WHERE is_active AND resource_id IS NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX booking_items_unassigned_range_idx');
  await knex.raw('DROP INDEX booking_items_resource_range_idx');
}
