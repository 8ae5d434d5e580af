// Points expiry (docs/rules/loyalty.md#points-expiry): expired points leave the balance through an EXPIRE transaction
// (negative points, written lazily when the balance is read or changed).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE loyalty_points_transactions DROP CONSTRAINT loyalty_points_type_check');
  await knex.raw(`ALTER TABLE loyalty_points_transactions ADD CONSTRAINT loyalty_points_type_check CHECK (type IN ('EARN','REDEEM','ADJUST','EXPIRE'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DELETE FROM loyalty_points_transactions WHERE type = 'EXPIRE'`);
  await knex.raw('ALTER TABLE loyalty_points_transactions DROP CONSTRAINT loyalty_points_type_check');
  await knex.raw(`ALTER TABLE loyalty_points_transactions ADD CONSTRAINT loyalty_points_type_check CHECK (type IN ('EARN','REDEEM','ADJUST'))`);
}
