// Phone numbers in E.164 (docs/rules/conventions.md#phone-numbers): the numbers stored before the
// platform read them (customers, bookings' contact snapshots, waitlist entries, staff logins) are
// written again in E.164, a number without a country code read in the salon's country (its
// address's country, Norway when it names none), so "98765433", "+47 987 65 433" and
// "004798765433" become one number and one customer.
//
// Nothing is merged. A row whose number cannot be read, or whose E.164 form another row already
// holds where a number must be unique (two customers of one salon, two staff logins of one salon,
// two waiting entries over the same dates), keeps its number as it was and gets a row in
// phone_normalisation_issues (problem NOT_A_NUMBER or TAKEN, the other row's id for TAKEN), for
// the salon or operations to settle by hand. Rows are taken oldest first.
//
// The parsing is libphonenumber-js with its full metadata, the same library and options as
// domain/phone/phone.rules.ts; a migration keeps its own copy of the few lines it needs, since db/
// imports nothing of the platform and an applied migration must not change with later code.
import type { Knex } from 'knex';
import { getCountries, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

const NAME_LANGUAGES = ['en', 'nb', 'nn', 'sv', 'da', 'fi', 'de', 'fr', 'es', 'is'];

function regionResolver(): (country: unknown) => CountryCode {
  const byName = new Map<string, CountryCode>();
  for (const language of NAME_LANGUAGES) {
    const names = new Intl.DisplayNames([language], { type: 'region' });
    for (const region of getCountries()) {
      const shown = names.of(region)?.toLowerCase();
      if (shown && !byName.has(shown)) byName.set(shown, region);
    }
  }
  return (country) => {
    if (typeof country !== 'string' || !country.trim()) return 'NO';
    const text = country.trim();
    if (/^[A-Za-z]{2}$/.test(text) && isSupportedCountry(text.toUpperCase())) return text.toUpperCase() as CountryCode;
    return byName.get(text.toLowerCase()) ?? 'NO';
  };
}

function e164(stored: string, region: CountryCode): string | null {
  const typed = stored.trim();
  if (!typed) return null;
  const parsed = parsePhoneNumberFromString(typed.startsWith('00') ? `+${typed.slice(2)}` : typed, region);
  return parsed && parsed.isPossible() ? parsed.number : null;
}

interface Column {
  table: string;
  column: string;
  /** how to find the row that already holds a number (null: the column is not unique) */
  holder: ((db: Knex, row: StoredRow, number: string) => Promise<string | undefined>) | null;
}

interface StoredRow {
  id: string;
  tenantId: string | null;
  phone: string;
  country: unknown;
  fromDate?: string;
  toDate?: string;
}

const COLUMNS: Column[] = [
  {
    table: 'customers',
    column: 'phone',
    holder: async (db, row, number) =>
      (await db.raw('SELECT id FROM customers WHERE tenant_id = ? AND phone = ? AND id <> ? LIMIT 1', [row.tenantId, number, row.id])).rows[0]?.id,
  },
  {
    table: 'users',
    column: 'phone',
    holder: async (db, row, number) =>
      (await db.raw('SELECT id FROM users WHERE tenant_id IS NOT DISTINCT FROM ? AND phone = ? AND id <> ? LIMIT 1', [row.tenantId, number, row.id])).rows[0]
        ?.id,
  },
  {
    table: 'waitlist_entries',
    column: 'contact_phone',
    holder: async (db, row, number) =>
      (
        await db.raw(
          `SELECT id FROM waitlist_entries WHERE tenant_id = ? AND contact_phone = ? AND id <> ? AND status = 'WAITING'
             AND daterange(from_date, to_date, '[]') && daterange(?::date, ?::date, '[]') LIMIT 1`,
          [row.tenantId, number, row.id, row.fromDate ?? null, row.toDate ?? null],
        )
      ).rows[0]?.id,
  },
  { table: 'bookings', column: 'contact_phone', holder: null },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('phone_normalisation_issues', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.string('table_name', 40).notNullable();
    t.uuid('row_id').notNullable();
    t.uuid('tenant_id').references('tenants.id').onDelete('CASCADE');
    t.string('column_name', 40).notNullable();
    // the number as it is stored (unchanged)
    t.string('value', 64).notNullable();
    // NOT_A_NUMBER: no valid number of any country; TAKEN: its E.164 form is another row's (other_row_id)
    t.string('problem', 20).notNullable();
    t.string('e164', 20);
    t.uuid('other_row_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tenant_id'], 'phone_normalisation_issues_tenant_idx');
  });
  await knex.raw(`ALTER TABLE phone_normalisation_issues ADD CONSTRAINT phone_normalisation_issues_problem_check CHECK (problem IN ('NOT_A_NUMBER','TAKEN'))`);
  await normaliseStoredPhones(knex);
}

/** The data step (`onlyTenant`: that salon's rows only, as the migration's test runs it). */
export async function normaliseStoredPhones(knex: Knex, onlyTenant?: string): Promise<void> {
  const regionOf = regionResolver();
  for (const { table, column, holder } of COLUMNS) {
    const extra = table === 'waitlist_entries' ? `, t.from_date::text AS "fromDate", t.to_date::text AS "toDate"` : '';
    // raw SQL: a data step over four tables with one shape, oldest rows first
    const { rows } = (await knex.raw(
      `SELECT t.id, t.tenant_id AS "tenantId", t.${column} AS phone, tenants.address->'country' AS country${extra}
         FROM ${table} t LEFT JOIN tenants ON tenants.id = t.tenant_id
        WHERE t.${column} IS NOT NULL ${onlyTenant ? 'AND t.tenant_id = ?' : ''} ORDER BY t.created_at, t.id`,
      onlyTenant ? [onlyTenant] : [],
    )) as { rows: StoredRow[] };
    for (const row of rows) {
      const number = e164(row.phone, regionOf(row.country));
      if (number === row.phone) continue;
      const issue = { tableName: table, rowId: row.id, tenantId: row.tenantId, columnName: column, value: row.phone };
      if (number === null) {
        await knex('phone_normalisation_issues').insert({ ...issue, problem: 'NOT_A_NUMBER' });
        continue;
      }
      const other = holder ? await holder(knex, row, number) : undefined;
      if (other) {
        await knex('phone_normalisation_issues').insert({ ...issue, problem: 'TAKEN', e164: number, otherRowId: other });
        continue;
      }
      await knex.raw(`UPDATE ${table} SET ${column} = ? WHERE id = ?`, [number, row.id]);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  // the numbers stay in E.164: the typed forms are not kept
  await knex.schema.dropTable('phone_normalisation_issues');
}
