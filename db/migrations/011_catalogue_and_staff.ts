// Catalogue (service categories, services) and staff (resources, skills, weekly schedules,
// per-date overrides, time-off): docs/rules/catalogue.md.
// 'HH:mm' times are salon-local strings, stored exactly as given (varchar(5) + format check);
// zero-padded HH:mm strings compare correctly as text, so "end after start" is a plain check.
import type { Knex } from 'knex';

const HHMM = `'^([01][0-9]|2[0-3]):[0-5][0-9]$'`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('service_categories', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.integer('sort_order').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.index(['tenant_id', 'sort_order'], 'service_categories_tenant_sort_idx');
  });
  await knex.raw('CREATE UNIQUE INDEX service_categories_tenant_name_unique ON service_categories (tenant_id, lower(name))');

  await knex.schema.createTable('services', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.text('description');
    t.integer('duration').notNullable();
    t.integer('price').notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    // Deleting a category keeps its services, uncategorised.
    t.uuid('category_id').references('service_categories.id').onDelete('SET NULL');
    // An accounting account still used by a service cannot be deleted (409 ACCOUNTING_ACCOUNT_IN_USE).
    t.uuid('accounting_account_id').references('accounting_accounts.id').onDelete('RESTRICT');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.string('image_key', 500);
    t.timestamps(true, true);
    t.index(['tenant_id', 'is_active'], 'services_tenant_active_idx');
    t.index(['tenant_id', 'category_id'], 'services_tenant_category_idx');
  });
  await knex.raw('ALTER TABLE services ADD CONSTRAINT services_duration_positive_check CHECK (duration > 0)');
  await knex.raw('ALTER TABLE services ADD CONSTRAINT services_price_nonnegative_check CHECK (price >= 0)');
  await knex.raw(`ALTER TABLE services ADD CONSTRAINT services_currency_format_check CHECK (currency ~ '^[A-Z]{3}$')`);

  await knex.schema.createTable('resources', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('type', 20).notNullable().defaultTo('staff');
    t.string('name', 200).notNullable();
    t.string('color', 7);
    t.string('image_key', 500);
    t.string('avatar_key', 500);
    t.text('description');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.boolean('is_bookable_online').notNullable().defaultTo(true);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.uuid('user_id').references('users.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.index(['tenant_id', 'type', 'is_active'], 'resources_tenant_type_active_idx');
  });
  await knex.raw(`ALTER TABLE resources ADD CONSTRAINT resources_type_check CHECK (type IN ('staff','room','equipment'))`);
  await knex.raw(`ALTER TABLE resources ADD CONSTRAINT resources_color_check CHECK (color IS NULL OR color ~ '^#[0-9A-Fa-f]{6}$')`);
  await knex.raw('CREATE UNIQUE INDEX resources_user_unique ON resources (user_id) WHERE user_id IS NOT NULL');

  await knex.schema.createTable('resource_skills', (t) => {
    t.uuid('resource_id').notNullable().references('resources.id').onDelete('CASCADE');
    t.uuid('service_id').notNullable().references('services.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['resource_id', 'service_id'], { constraintName: 'resource_skills_pkey' });
    t.index(['tenant_id', 'service_id'], 'resource_skills_tenant_service_idx');
  });

  await knex.schema.createTable('resource_schedules', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('resource_id').notNullable().references('resources.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.smallint('day_of_week').notNullable();
    t.string('start_time', 5).notNullable();
    t.string('end_time', 5).notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamps(true, true);
    t.index(['tenant_id', 'resource_id', 'day_of_week'], 'resource_schedules_tenant_resource_day_idx');
  });
  await knex.raw('ALTER TABLE resource_schedules ADD CONSTRAINT resource_schedules_day_check CHECK (day_of_week BETWEEN 0 AND 6)');
  await knex.raw(
    `ALTER TABLE resource_schedules ADD CONSTRAINT resource_schedules_times_check CHECK (start_time ~ ${HHMM} AND end_time ~ ${HHMM} AND end_time > start_time)`,
  );

  await knex.schema.createTable('resource_schedule_overrides', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('resource_id').notNullable().references('resources.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.date('date').notNullable();
    t.string('start_time', 5);
    t.string('end_time', 5);
    t.string('reason', 200);
    t.timestamps(true, true);
    t.unique(['resource_id', 'date'], { indexName: 'resource_schedule_overrides_resource_date_unique' });
    t.index(['tenant_id', 'resource_id', 'date'], 'resource_schedule_overrides_tenant_resource_date_idx');
  });
  await knex.raw(
    `ALTER TABLE resource_schedule_overrides ADD CONSTRAINT resource_schedule_overrides_times_check CHECK (
      (start_time IS NULL AND end_time IS NULL)
      OR (start_time ~ ${HHMM} AND end_time ~ ${HHMM} AND end_time > start_time))`,
  );

  await knex.schema.createTable('time_offs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('resource_id').notNullable().references('resources.id').onDelete('CASCADE');
    t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
    t.string('type', 20).notNullable();
    t.date('start_date').notNullable();
    t.date('end_date').notNullable();
    t.string('start_time', 5);
    t.string('end_time', 5);
    t.string('description', 100);
    t.boolean('is_approved').notNullable().defaultTo(false);
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.index(['tenant_id', 'resource_id', 'start_date', 'end_date'], 'time_offs_tenant_resource_dates_idx');
    t.index(['tenant_id', 'start_date', 'end_date'], 'time_offs_tenant_dates_idx');
  });
  await knex.raw(`ALTER TABLE time_offs ADD CONSTRAINT time_offs_type_check CHECK (type IN ('vacation','sick','personal','other'))`);
  await knex.raw('ALTER TABLE time_offs ADD CONSTRAINT time_offs_dates_check CHECK (end_date >= start_date)');
  await knex.raw(
    `ALTER TABLE time_offs ADD CONSTRAINT time_offs_times_check CHECK (
      (start_time IS NULL AND end_time IS NULL)
      OR (start_time ~ ${HHMM} AND end_time ~ ${HHMM} AND end_time > start_time))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('time_offs');
  await knex.schema.dropTableIfExists('resource_schedule_overrides');
  await knex.schema.dropTableIfExists('resource_schedules');
  await knex.schema.dropTableIfExists('resource_skills');
  await knex.schema.dropTableIfExists('resources');
  await knex.schema.dropTableIfExists('services');
  await knex.schema.dropTableIfExists('service_categories');
}
