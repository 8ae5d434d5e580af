// Uploaded files (docs/rules/uploads.md): one row per object in storage under `{tenantId}/{uuid}.{ext}`,
// with the record that references it (null: an orphan candidate, deleted 24 h after creation by its
// `upload:<id>` workflow). `version` is what the workflow's entity inbox follows. Rendered image
// variants (image proxy cache) are listed per file so deleting the file deletes them too.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('uploaded_files', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('key', 200).notNullable().unique();
    t.string('purpose', 30).notNullable();
    t.string('visibility', 10).notNullable();
    t.string('status', 20).notNullable().defaultTo('ACTIVE');
    t.string('mime_type', 100).notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.string('original_name', 255);
    t.integer('width');
    t.integer('height');
    t.string('checksum_sha256', 64);
    t.uuid('uploaded_by').references('users.id').onDelete('SET NULL');
    t.jsonb('referenced_by');
    t.timestamp('referenced_at', { useTz: true });
    t.timestamp('expires_at', { useTz: true });
    t.integer('version').notNullable().defaultTo(1);
    t.timestamps(true, true);
    t.index(['tenant_id', 'purpose']);
  });
  await knex.raw(
    `ALTER TABLE uploaded_files ADD CONSTRAINT uploaded_files_purpose_check CHECK (purpose IN ('TENANT_LOGO','TENANT_COVER','SERVICE_IMAGE','RESOURCE_AVATAR','PORTFOLIO_PHOTO','ONBOARDING_DOC','PAYMENT_ATTACHMENT'))`,
  );
  await knex.raw(`ALTER TABLE uploaded_files ADD CONSTRAINT uploaded_files_visibility_check CHECK (visibility IN ('PUBLIC','PRIVATE'))`);
  await knex.raw(`ALTER TABLE uploaded_files ADD CONSTRAINT uploaded_files_status_check CHECK (status IN ('PENDING_UPLOAD','ACTIVE'))`);
  await knex.raw(`ALTER TABLE uploaded_files ADD CONSTRAINT uploaded_files_reference_check CHECK ((referenced_by IS NULL) = (referenced_at IS NULL))`);

  await knex.schema.createTable('uploaded_file_variants', (t) => {
    t.uuid('file_id').notNullable().references('uploaded_files.id').onDelete('CASCADE');
    t.string('key', 300).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['file_id', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('uploaded_file_variants');
  await knex.schema.dropTableIfExists('uploaded_files');
}
