import type { Knex } from 'knex';

// Messages to an account's owner that a workflow sends (docs/rules/auth.md#account-messages), so a
// request answers the same at once whatever the account (docs/rules/consistency.md#one-workflow-per-entity):
//   - account_messages: one row per request, signalled to its `account-message:<id>` workflow;
//     PASSWORD_RESET carries the e-mail asked for (and the salon it named), CONTACT_CHANGED the old
//     address of a staff account whose e-mail or phone changed, PHONE_CODE the phone a customer
//     verifies; sent_at once delivered.
//   - password_reset_tokens gain the message that issued them (one token per message and user) and
//     when their mail went out.
//   - phone_verifications: a one-time code sent to a customer's phone (the code is derived from the
//     row, never stored), its expiry and failed attempts; customer_accounts.phone_verified_at says the
//     account's phone is proven (docs/rules/customers.md#verifying-a-phone).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('customer_accounts', (t) => {
    t.timestamp('phone_verified_at', { useTz: true });
  });
  await knex.schema.createTable('phone_verifications', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('customer_account_id').notNullable().references('customer_accounts.id').onDelete('CASCADE');
    t.string('phone', 32).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.integer('failed_attempts').notNullable().defaultTo(0);
    t.timestamp('verified_at', { useTz: true });
    t.index(['customer_account_id', 'created_at']);
    t.index(['phone', 'created_at']);
  });

  await knex.schema.createTable('account_messages', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.string('kind', 20).notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.specificType('email', 'citext');
    t.string('phone', 32);
    // as the request named it (x-tenant-id or host): no reference, so an unknown salon is written as
    // readily as a known one and the answer does not tell them apart
    t.uuid('tenant_id');
    t.string('tenant_slug', 100);
    t.uuid('user_id').references('users.id').onDelete('CASCADE');
    t.uuid('phone_verification_id').references('phone_verifications.id').onDelete('CASCADE');
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
  });
  await knex.raw(`ALTER TABLE account_messages ADD CONSTRAINT account_messages_kind_check CHECK (kind IN ('PASSWORD_RESET', 'CONTACT_CHANGED', 'PHONE_CODE'))`);

  await knex.schema.alterTable('password_reset_tokens', (t) => {
    t.uuid('message_id').references('account_messages.id').onDelete('CASCADE');
    t.timestamp('mailed_at', { useTz: true });
    t.unique(['message_id', 'user_id']);
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('password_reset_tokens', (t) => {
    t.dropIndex(['user_id']);
    t.dropUnique(['message_id', 'user_id']);
    t.dropColumn('mailed_at');
    t.dropColumn('message_id');
  });
  await knex.schema.dropTableIfExists('account_messages');
  await knex.schema.dropTableIfExists('phone_verifications');
  await knex.schema.alterTable('customer_accounts', (t) => t.dropColumn('phone_verified_at'));
}
