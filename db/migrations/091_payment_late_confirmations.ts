// A provider's confirmation that arrives after the payment expired here (the booking was cancelled,
// or the checkout or the hold ran out): the money the provider took is recorded beside the payment
// (authorized or captured, how much) and released by the payment workflow (voided or refunded at
// the provider); the payment itself stays EXPIRED.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.string('late_outcome', 20);
    t.integer('late_amount');
    t.timestamp('late_released_at', { useTz: true });
    t.string('late_release', 20);
  });
  await knex.raw(
    `ALTER TABLE payments ADD CONSTRAINT payments_late_outcome_check CHECK (late_outcome IS NULL OR (late_outcome IN ('AUTHORIZED','CAPTURED') AND late_amount > 0))`,
  );
  await knex.raw(
    `ALTER TABLE payments ADD CONSTRAINT payments_late_release_check CHECK ((late_release IS NULL) = (late_released_at IS NULL) AND (late_release IS NULL OR late_release IN ('VOIDED','REFUNDED')))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_late_release_check');
  await knex.raw('ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_late_outcome_check');
  await knex.schema.alterTable('payments', (t) => {
    t.dropColumn('late_outcome');
    t.dropColumn('late_amount');
    t.dropColumn('late_released_at');
    t.dropColumn('late_release');
  });
}
