import type { Knex } from 'knex';

// Super-admin impersonation (docs/rules/auth.md#impersonation): one session per start, with the reason (at most
// 500 characters), where it came from, and the hash of its refresh token; one audit row per
// mutating request made with the session's token (method, path, status, SHA-256 of the body; the
// body itself is never stored).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('impersonation_sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('admin_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('reason', 500).notNullable();
    t.string('ip', 64);
    t.string('user_agent', 500);
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('ended_at', { useTz: true });
    t.string('refresh_token_hash', 64).unique();
    t.index(['tenant_id', 'started_at']);
    t.index(['admin_user_id', 'started_at']);
  });
  await knex.raw(`ALTER TABLE impersonation_sessions ADD CONSTRAINT impersonation_sessions_reason_check CHECK (char_length(btrim(reason)) BETWEEN 1 AND 500)`);

  await knex.schema.createTable('impersonation_audit_logs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('session_id').notNullable().references('impersonation_sessions.id').onDelete('CASCADE');
    t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('method', 10).notNullable();
    t.string('path', 2000).notNullable();
    t.integer('status_code').notNullable();
    t.string('body_hash', 64).notNullable();
    t.index(['session_id', 'occurred_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('impersonation_audit_logs');
  await knex.schema.dropTableIfExists('impersonation_sessions');
}
