import type { Knex } from 'knex';

// Sessions that end (docs/rules/auth.md#sessions): every sign-in is one auth_sessions row, the
// family of its refresh tokens (refresh_tokens.family_id, customer_refresh_tokens.family_id) and
// the `sid` of its access tokens. Signing out ends the row, so its access tokens stop working at
// once; a session also ends its maximum length after it started. Existing refresh-token families
// become sessions that started with their first token (ended when every token of the family was
// revoked). impersonation_used_refresh_tokens remembers an impersonation session's rotated refresh
// tokens: presenting one again ends the session.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('auth_sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').references('users.id').onDelete('CASCADE');
    t.uuid('customer_account_id').references('customer_accounts.id').onDelete('CASCADE');
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('ended_at', { useTz: true });
    t.index(['user_id']);
    t.index(['customer_account_id']);
  });
  await knex.raw('ALTER TABLE auth_sessions ADD CONSTRAINT auth_sessions_holder_check CHECK (num_nonnulls(user_id, customer_account_id) = 1)');
  await knex.raw(`INSERT INTO auth_sessions (id, user_id, started_at, ended_at)
    SELECT family_id, min(user_id::text)::uuid, min(created_at), CASE WHEN bool_and(revoked_at IS NOT NULL) THEN max(revoked_at) END
    FROM refresh_tokens GROUP BY family_id`);
  await knex.raw(`INSERT INTO auth_sessions (id, customer_account_id, started_at, ended_at)
    SELECT family_id, min(account_id::text)::uuid, min(created_at), CASE WHEN bool_and(revoked_at IS NOT NULL) THEN max(revoked_at) END
    FROM customer_refresh_tokens GROUP BY family_id ON CONFLICT (id) DO NOTHING`);
  await knex.schema.alterTable('refresh_tokens', (t) => t.foreign('family_id').references('auth_sessions.id').onDelete('CASCADE'));
  await knex.schema.alterTable('customer_refresh_tokens', (t) => t.foreign('family_id').references('auth_sessions.id').onDelete('CASCADE'));

  await knex.schema.createTable('impersonation_used_refresh_tokens', (t) => {
    t.string('token_hash', 64).primary();
    t.uuid('session_id').notNullable().references('impersonation_sessions.id').onDelete('CASCADE');
    t.timestamp('used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['session_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('impersonation_used_refresh_tokens');
  await knex.schema.alterTable('customer_refresh_tokens', (t) => t.dropForeign('family_id'));
  await knex.schema.alterTable('refresh_tokens', (t) => t.dropForeign('family_id'));
  await knex.schema.dropTableIfExists('auth_sessions');
}
