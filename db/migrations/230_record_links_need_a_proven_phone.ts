// A salon's customer record is an account's only while the account has proven the record's phone
// (docs/rules/customers.md#linking-an-account). The rule before this one also linked a record when
// the identity provider had verified the account's e-mail and the record carried it; but a record's
// e-mail is whatever the booking that made it typed, so a stranger could book with someone else's
// phone and their own e-mail and take the record, its stamps and its vouchers. Links made that way
// (or kept after the account's proven phone changed) are ended here, and each record whose phone an
// account has proven goes to that account (the earliest proof first, as the code links them), unless
// it already has a record in that salon. The vouchers and stamps are the record's, so they follow it.
//
// Backward compatible: the version before this one keeps reading the same column; a link it makes
// by e-mail while it still runs is an unproven one, which the phone's owner takes back by proving it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await settleRecordLinks(knex);
}

/** The step itself, over every salon or one (the test's). */
export async function settleRecordLinks(knex: Knex, tenantId?: string): Promise<void> {
  const inSalon = (alias: string) => (tenantId ? `AND ${alias}.tenant_id = :tenantId` : '');
  const bindings = tenantId ? { tenantId } : {};
  await knex.raw(
    `UPDATE customers c SET account_id = NULL
      WHERE c.account_id IS NOT NULL ${inSalon('c')}
        AND NOT EXISTS (SELECT 1 FROM customer_accounts a WHERE a.id = c.account_id AND a.phone_verified_at IS NOT NULL AND a.phone = c.phone)`,
    bindings,
  );
  await knex.raw(
    `UPDATE customers c SET account_id = proven.account_id
      FROM (
        SELECT DISTINCT ON (r.id) r.id AS customer_id, a.id AS account_id
          FROM customers r
          JOIN customer_accounts a ON a.phone = r.phone AND a.phone_verified_at IS NOT NULL
         WHERE r.account_id IS NULL ${inSalon('r')}
           AND NOT EXISTS (SELECT 1 FROM customers o WHERE o.tenant_id = r.tenant_id AND o.account_id = a.id)
         ORDER BY r.id, a.phone_verified_at, a.id
      ) proven
      WHERE c.id = proven.customer_id`,
    bindings,
  );
}

/** The links ended here were not the accounts' to have: nothing to restore. */
export async function down(): Promise<void> {}
