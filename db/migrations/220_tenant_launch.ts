// A salon is listed and bookable online once it has launched (docs/rules/salon.md#launch):
// `tenants.launched_at`, set by the onboarding's last step when nothing blocks it. Nullable, so the
// version before this one keeps inserting salons as it did. Salons that were live before it are
// marked launched, so none goes dark: those that finished onboarding (at that moment) and those that
// already took a booking (at their creation).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tenants', (t) => {
    t.timestamp('launched_at', { useTz: true });
  });
  await knex.raw(`UPDATE tenants SET launched_at = COALESCE(onboarded_at, created_at)
    WHERE onboarded_at IS NOT NULL OR EXISTS (SELECT 1 FROM bookings b WHERE b.tenant_id = tenants.id)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tenants', (t) => {
    t.dropColumn('launched_at');
  });
}
