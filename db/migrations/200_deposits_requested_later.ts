// Deposits at any distance (docs/rules/payments.md#deposits-at-any-distance): a booking further ahead
// than a reservation can be held has its deposit SCHEDULED (to be asked for), then REQUESTED (asked
// for, not paid yet). The version before this one never writes them, so widening the check is safe
// while it still runs.
import type { Knex } from 'knex';

const BEFORE = `'PENDING','AUTHORIZED','PAID','REFUNDED','PARTIALLY_REFUNDED','FORFEIT','VOIDED','RETRY_PENDING'`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE bookings DROP CONSTRAINT bookings_deposit_status_check`);
  await knex.raw(
    `ALTER TABLE bookings ADD CONSTRAINT bookings_deposit_status_check CHECK (deposit_status IS NULL OR deposit_status IN (${BEFORE},'SCHEDULED','REQUESTED')) NOT VALID`,
  );
  await knex.raw(`ALTER TABLE bookings VALIDATE CONSTRAINT bookings_deposit_status_check`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE bookings DROP CONSTRAINT bookings_deposit_status_check`);
  await knex.raw(`ALTER TABLE bookings ADD CONSTRAINT bookings_deposit_status_check CHECK (deposit_status IS NULL OR deposit_status IN (${BEFORE}))`);
}
