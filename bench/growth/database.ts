// bench:growth's database part: a large platform bulk-loaded into a migrated database, table by
// table, with INSERT ... SELECT over generate_series (no row passes through Node or the api). The plan
// (bench/growth/plan.ts) fixes the salons' sizes; every other choice is a seeded hash of the row's
// number (hashint8extended), so one seed gives the same rows on every run (dates are relative to the
// day of the run). The bulk-loaded bookings have no workflows: nothing of theirs is open in Temporal.
//
// While loading, the big tables' secondary indexes (and the segments' exclusion constraint) are
// dropped and built again afterwards from their own definitions, and foreign keys are not checked
// (session_replication_role = replica): the rows are consistent by construction, and one index build
// is far cheaper than millions of index inserts. The schema afterwards is the migrations' own.
//
// The rows of the big tables are written in two sessions at once, each taking the salons of one
// parity (one core each on the 2-core machines the benches run on), and the indexes are built two at
// a time, the slowest (the segments' GiST) first: in one session every statement ran in one backend,
// one core at most, and the GiST builds one after another (docs/performance.md#growth-a-large-platform-issue-54).
import type { Knex } from 'knex';
import bcrypt from 'bcryptjs';
import { completeSettings } from '../../domain/tenant/tenant-settings.rules';
import { DAYS_AHEAD, DAYS_PAST, FIRST_HOUR, FIRST_NAMES, LAST_NAMES, ROOMS, SERVICES, SLOTS_PER_DAY, TIMEZONE, idSql, type PlannedSalon } from './plan';

/** The password of every bulk-loaded staff member and owner (e-mail owner@<slug>.example, staff<k>@<slug>.example). */
export const STAFF_PASSWORD = 'growth-bench-password';

export interface TableLoad {
  table: string;
  rows: number;
  ms: number;
}

const BIG_TABLES = [
  'customers',
  'tenant_customers',
  'customer_accounts',
  'bookings',
  'booking_items',
  'booking_segments',
  'booking_notifications',
  'payments',
  'loyalty_stamps',
  'loyalty_vouchers',
];

/** The sessions writing at once: the salons of each parity. */
const HALVES = [0, 1];

/** A transaction on a connection of its own, with the load's settings. */
async function session<T>(knex: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return knex.transaction(async (trx) => {
    await trx.raw(`SET LOCAL session_replication_role = replica`);
    await trx.raw(`SET LOCAL synchronous_commit = off`);
    await trx.raw(`SET LOCAL maintenance_work_mem = '1GB'`);
    await trx.raw(`SET LOCAL work_mem = '256MB'`);
    await trx.raw(`SET LOCAL max_parallel_workers_per_gather = 0`);
    return work(trx);
  });
}

export async function loadDatabase(knex: Knex, salons: PlannedSalon[], seed: number, log: (line: string) => void): Promise<TableLoad[]> {
  const loads: TableLoad[] = [];
  const h = (key: string, salt: number) => `abs(hashint8extended(${key}, ${seed * 100 + salt}))`;
  const id = (kind: string, ...numbers: string[]) => idSql(seed, kind, ...numbers);
  const record = (table: string, rows: number, ms: number) => {
    loads.push({ table, rows, ms });
    log(`  ${table.padEnd(26)} ${String(rows).padStart(10)} rows ${(ms / 1000).toFixed(1).padStart(7)} s`);
  };
  /** One statement over every salon, written by the two sessions at once: `sql(half)` keeps the salons of that parity. */
  const split = async (table: string, sql: (half: string) => string) => {
    const started = performance.now();
    const rows = await Promise.all(HALVES.map((half) => session(knex, async (trx) => (await trx.raw(sql(String(half)))).rowCount ?? 0)));
    record(
      table,
      rows.reduce((a, b) => a + b, 0),
      performance.now() - started,
    );
  };
  const name = (c: string) =>
    `(ARRAY[${FIRST_NAMES.map((n) => `'${n}'`).join(',')}])[${c} % ${FIRST_NAMES.length} + 1] || ' ' || ` +
    `(ARRAY[${LAST_NAMES.map((n) => `'${n}'`).join(',')}])[(${c} / ${FIRST_NAMES.length}) % ${LAST_NAMES.length} + 1] || ' ' || ${c}`;
  const phone = (c: string) => `'+479' || lpad(${c}::text, 7, '0')`;
  const email = (c: string) => `'kunde' || ${c} || '@growth.example'`;
  let indexes: { indexname: string; indexdef: string }[] = [];
  let exclusions: { table: string; conname: string; def: string }[] = [];
  // the catalogues, the customers and the plan in one session, committed before the two sessions read the plan
  await session(knex, async (trx) => {
    const run = async (table: string, sql: string, bindings: readonly Knex.RawBinding[] = []) => {
      const started = performance.now();
      const result = await trx.raw(sql, bindings);
      record(table, result.rowCount ?? 0, performance.now() - started);
    };

    // the big tables' indexes and the exclusion constraint, to build again after the load
    indexes = (
      await trx.raw(
        `SELECT i.indexname, i.indexdef FROM pg_indexes i
          WHERE i.schemaname = 'public' AND i.tablename = ANY(?)
            AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.indexname))::regclass)`,
        [BIG_TABLES],
      )
    ).rows as { indexname: string; indexdef: string }[];
    exclusions = (
      await trx.raw(
        `SELECT conrelid::regclass::text AS "table", conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
          WHERE contype = 'x' AND conrelid::regclass::text = ANY(?)`,
        [BIG_TABLES],
      )
    ).rows as { table: string; conname: string; def: string }[];
    for (const x of exclusions) await trx.raw(`ALTER TABLE ${x.table} DROP CONSTRAINT ${x.conname}`);
    for (const i of indexes) await trx.raw(`DROP INDEX ${i.indexname}`);

    // ------------------------------------------------------------ the plan, in the database
    await trx.raw(`CREATE SCHEMA IF NOT EXISTS growth`);
    await trx.raw(`DROP TABLE IF EXISTS growth.salons, growth.services, growth.phases, growth.bookings`);
    await trx.raw(`CREATE TABLE growth.salons (no int PRIMARY KEY, staff int, bookings int, booking_offset bigint, customers int, customer_offset bigint)`);
    await trx.raw(
      `INSERT INTO growth.salons SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(no int, staff int, bookings int, booking_offset bigint, customers int, customer_offset bigint)`,
      [JSON.stringify(salons.map((s) => ({ ...s, booking_offset: s.bookingOffset, customer_offset: s.customerOffset })))],
    );
    await trx.raw(`CREATE TABLE growth.services (no int PRIMARY KEY, name text, price int, duration int, phases jsonb, room boolean)`);
    await trx.raw(
      `INSERT INTO growth.services SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(no int, name text, price int, duration int, phases jsonb, room boolean)`,
      [JSON.stringify(SERVICES.map((s) => ({ ...s, duration: s.phases.reduce((a, p) => a + p.minutes, 0), phases: s.phases })))],
    );
    await trx.raw(`CREATE TABLE growth.phases AS
      SELECT s.no AS service_no, (p.i - 1)::smallint AS phase_index, p.v->>'kind' AS kind, (p.v->>'minutes')::int AS minutes,
             COALESCE(sum((p.v->>'minutes')::int) OVER (PARTITION BY s.no ORDER BY p.i ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::int AS offset_minutes
        FROM growth.services s, jsonb_array_elements(s.phases) WITH ORDINALITY AS p(v, i)`);

    // ------------------------------------------------------------ salons and their catalogues
    const week = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({
      dayOfWeek,
      isOpen: true,
      slots: [{ startTime: `${String(FIRST_HOUR).padStart(2, '0')}:00`, endTime: `${FIRST_HOUR + SLOTS_PER_DAY}:00` }],
    }));
    const settings = JSON.stringify(completeSettings('beauty', { businessHours: week, maxBookingDaysInAdvance: 60, timezone: TIMEZONE }));
    await run(
      'tenants',
      `INSERT INTO tenants (id, name, slug, industry_type, settings, branding, is_active, billing_exempt, launched_at, onboarded_at, created_at)
       SELECT ${id('t', 's.no')}, 'Salong ' || s.no, 'growth-' || lpad(s.no::text, 4, '0'), 'beauty', ?::jsonb, '{}', true, true,
              now() - interval '${DAYS_PAST + 30} days', now() - interval '${DAYS_PAST + 30} days', now() - interval '${DAYS_PAST + 30} days' + s.no * interval '1 minute'
         FROM growth.salons s`,
      [settings],
    );
    const hash = await bcrypt.hash(STAFF_PASSWORD, 10);
    await run(
      'resources',
      `INSERT INTO resources (id, tenant_id, type, name, sort_order)
       SELECT ${id('r', 's.no', 'k')}, ${id('t', 's.no')}, 'staff', 'Frisør ' || k, k FROM growth.salons s, generate_series(0, s.staff - 1) k
       UNION ALL
       SELECT ${id('room', 's.no', 'k')}, ${id('t', 's.no')}, 'room', 'Rom ' || (k + 1), 100 + k FROM growth.salons s, generate_series(0, ${ROOMS - 1}) k`,
    );
    await run(
      'users',
      `INSERT INTO users (id, tenant_id, role, email, name, password_hash)
       SELECT ${id('owner', 's.no')}, ${id('t', 's.no')}, 'OWNER', 'owner@growth-' || lpad(s.no::text, 4, '0') || '.example', 'Eier ' || s.no, ? FROM growth.salons s
       UNION ALL
       SELECT ${id('u', 's.no', 'k')}, ${id('t', 's.no')}, 'STAFF', 'staff' || k || '@growth-' || lpad(s.no::text, 4, '0') || '.example', 'Frisør ' || k, ?
         FROM growth.salons s, generate_series(0, s.staff - 1) k`,
      [hash, hash],
    );
    await trx.raw(
      `UPDATE resources r SET user_id = ${id('u', 's.no', 'k')} FROM growth.salons s, generate_series(0, s.staff - 1) k WHERE r.id = ${id('r', 's.no', 'k')}`,
    );
    await run(
      'services',
      `INSERT INTO services (id, tenant_id, name, duration, price, currency, sort_order, phases, resource_requirements)
       SELECT ${id('svc', 's.no', 'v.no')}, ${id('t', 's.no')}, v.name, v.duration, v.price, 'NOK', v.no, v.phases,
              CASE WHEN v.room THEN '[{"resourceType": "room", "phases": null}]'::jsonb ELSE '[]'::jsonb END
         FROM growth.salons s, growth.services v`,
    );
    await run(
      'resource_skills',
      `INSERT INTO resource_skills (resource_id, service_id, tenant_id)
       SELECT ${id('r', 's.no', 'k')}, ${id('svc', 's.no', 'v.no')}, ${id('t', 's.no')} FROM growth.salons s, generate_series(0, s.staff - 1) k, growth.services v`,
    );
    await run(
      'resource_schedules',
      `INSERT INTO resource_schedules (resource_id, tenant_id, day_of_week, start_time, end_time)
       SELECT ${id('r', 's.no', 'k')}, ${id('t', 's.no')}, d, '${String(FIRST_HOUR).padStart(2, '0')}:00', '${FIRST_HOUR + SLOTS_PER_DAY}:00'
         FROM growth.salons s, generate_series(0, s.staff - 1) k, generate_series(0, 6) d`,
    );
    // a week's vacation three times a year and a sick day a month, per staff member, over the whole span
    await run(
      'time_offs',
      `INSERT INTO time_offs (resource_id, tenant_id, type, start_date, end_date, is_approved)
       SELECT ${id('r', 's.no', 'k')}, ${id('t', 's.no')}, CASE WHEN m % 4 = 0 THEN 'vacation' ELSE 'sick' END,
              (now() AT TIME ZONE '${TIMEZONE}')::date - ${DAYS_PAST} + m * 30 + (${h('s.no * 100 + k', 1)} % 20)::int,
              (now() AT TIME ZONE '${TIMEZONE}')::date - ${DAYS_PAST} + m * 30 + (${h('s.no * 100 + k', 1)} % 20)::int + CASE WHEN m % 4 = 0 THEN 6 ELSE 0 END,
              true
         FROM growth.salons s, generate_series(0, s.staff - 1) k, generate_series(0, ${Math.floor((DAYS_PAST + DAYS_AHEAD) / 30)}) m`,
    );
    await run(
      'loyalty_cards',
      `INSERT INTO loyalty_cards (id, tenant_id, name, type, required_stamps, reward_type, reward_value, voucher_expiry_months)
       SELECT ${id('card', 's.no')}, ${id('t', 's.no')}, 'Stempelkort', 'VISIT_BASED', 10, 'DISCOUNT_PERCENT', 50, 12 FROM growth.salons s`,
    );

    // ------------------------------------------------------------ customers
    // customer c (0-based over the platform) is in the salon whose range holds it; every tenth has an account
    await run(
      'customer_accounts',
      `INSERT INTO customer_accounts (id, email, email_verified, name, phone, phone_verified_at, created_at)
       SELECT ${id('a', 'c')}, ${email('c')}, true, ${name('c')}, ${phone('c')}, now() - interval '${DAYS_PAST} days', now() - interval '${DAYS_PAST} days'
         FROM growth.salons s, generate_series(s.customer_offset, s.customer_offset + s.customers - 1) c WHERE c % 10 = 0`,
    );
    await run(
      'customers',
      `INSERT INTO customers (id, tenant_id, name, phone, email, account_id, created_at, updated_at)
       SELECT ${id('c', 'c')}, ${id('t', 's.no')}, ${name('c')}, ${phone('c')}, ${email('c')},
              CASE WHEN c % 10 = 0 THEN ${id('a', 'c')} END,
              now() - interval '${DAYS_PAST} days' + (c - s.customer_offset) * (interval '${DAYS_PAST} days' / s.customers), now()
         FROM growth.salons s, generate_series(s.customer_offset, s.customer_offset + s.customers - 1) c`,
    );

    // ------------------------------------------------------------ bookings (a staging table first: one computation, many tables)
    // booking n of a salon takes slot floor(n * capacity / count) of its grid (staff x day x hour): never two on one slot,
    // in order of time, spread over three years back and a month ahead
  });

  // ------------------------------------------------------------ bookings (a staging table first: one computation, many tables)
  // booking n of a salon takes slot floor(n * capacity / count) of its grid (staff x day x hour): never two on one slot,
  // in order of time, spread over three years back and a month ahead
  const staging = (half: string) => `
       WITH slots AS (
         SELECT s.no AS salon, s.staff AS staff_count, s.customers, s.customer_offset, s.booking_offset + k AS n,
                (k::bigint * (s.staff * ${(DAYS_PAST + DAYS_AHEAD) * SLOTS_PER_DAY}) / s.bookings) AS slot
           FROM growth.salons s, generate_series(0, s.bookings - 1) k
          WHERE s.no % 2 = ${half}
       ), placed AS (
         SELECT salon, n, (slot % staff_count)::int AS staff, customer_offset + ${h('n', 5)} % customers AS customer,
                ((now() AT TIME ZONE '${TIMEZONE}')::date - ${DAYS_PAST} + (slot / staff_count / ${SLOTS_PER_DAY})::int
                   + make_interval(hours => ${FIRST_HOUR} + ((slot / staff_count) % ${SLOTS_PER_DAY})::int)) AT TIME ZONE '${TIMEZONE}' AS start_time,
                ${h('n', 2)} % 100 AS kind, ${h('n', 3)} % 8 AS pick, ${h('n', 4)} % 100 AS fate, ${h('n', 6)} % 100 AS channel
           FROM slots
       ), chosen AS (
       SELECT p.salon, p.n, p.staff, p.customer, p.start_time,
              -- a quarter are two 30-minute services back to back; the room's service only for the staff a room is kept for
              CASE WHEN p.kind < 25 THEN p.pick % 4 WHEN p.pick = 6 AND p.staff >= ${ROOMS} THEN 4 ELSE p.pick END AS service1,
              CASE WHEN p.kind < 25 THEN (p.pick + 1) % 4 END AS service2,
              CASE WHEN p.start_time < now() THEN
                     CASE WHEN p.fate < 86 THEN 'COMPLETED' WHEN p.fate < 95 THEN 'CANCELLED' ELSE 'NO_SHOW' END
                   ELSE CASE WHEN p.fate < 8 THEN 'CANCELLED' WHEN p.fate < 30 THEN 'PENDING' ELSE 'CONFIRMED' END END AS status,
              CASE WHEN p.channel < 60 THEN 'ONLINE' WHEN p.channel < 85 THEN 'PHONE' WHEN p.channel < 90 THEN 'WALK_IN' ELSE 'ADMIN' END AS source,
              p.channel < 12 AS deposit
         FROM placed p
       )
       SELECT c.*, CASE WHEN c.service2 IS NULL THEN v1.duration ELSE 60 END AS duration, v1.price + COALESCE(v2.price, 0) AS price
         FROM chosen c JOIN growth.services v1 ON v1.no = c.service1 LEFT JOIN growth.services v2 ON v2.no = c.service2`;
  await knex.raw(`CREATE UNLOGGED TABLE growth.bookings AS ${staging('0')} WITH NO DATA`);
  await split('growth.bookings (staging)', (half) => `INSERT INTO growth.bookings ${staging(half)}`);
  await split(
    'bookings',
    (half) => `INSERT INTO bookings (id, tenant_id, customer_id, resource_id, start_time, end_time, status, source, payment_mode, total_amount, deposit_status,
                             processed_for_loyalty, contact_name, contact_phone, contact_email, customer_account_id, cancel_reason, cancelled_by, cancelled_at,
                             promised_at, promised_via, metadata, created_at, updated_at)
       SELECT ${id('b', 'b.n')}, ${id('t', 'b.salon')}, ${id('c', 'b.customer')}, ${id('r', 'b.salon', 'b.staff')}, b.start_time, b.start_time + b.duration * interval '1 minute',
              b.status, b.source, CASE WHEN b.deposit THEN 'ONLINE' ELSE 'IN_PERSON' END, b.price,
              CASE WHEN b.deposit THEN CASE WHEN b.status = 'CANCELLED' THEN 'REFUNDED' ELSE 'PAID' END END,
              b.status = 'COMPLETED',
              CASE WHEN b.source = 'ONLINE' THEN ${name('b.customer')} END, CASE WHEN b.source = 'ONLINE' THEN ${phone('b.customer')} END,
              CASE WHEN b.source = 'ONLINE' THEN ${email('b.customer')} END, CASE WHEN b.source = 'ONLINE' AND b.customer % 10 = 0 THEN ${id('a', 'b.customer')} END,
              CASE WHEN b.status = 'CANCELLED' THEN 'Kan ikke komme' END, CASE WHEN b.status = 'CANCELLED' THEN 'CUSTOMER' END,
              CASE WHEN b.status = 'CANCELLED' THEN b.start_time - interval '1 day' END,
              CASE WHEN b.status <> 'CANCELLED' AND b.source = 'ONLINE' THEN b.start_time - interval '2 days' END,
              CASE WHEN b.status <> 'CANCELLED' AND b.source = 'ONLINE' THEN 'LINK' END,
              '{"displaySnapshot": {"timezone": "${TIMEZONE}", "currency": "NOK", "locale": "nb-NO"}}'::jsonb,
              b.start_time - interval '14 days', b.start_time
         FROM growth.bookings b WHERE b.salon % 2 = ${half}`,
  );
  await split(
    'booking_items',
    (
      half,
    ) => `INSERT INTO booking_items (id, booking_id, tenant_id, service_id, resource_id, start_time, end_time, duration, price, sort_order, is_active, created_at, updated_at)
       SELECT ${id('i', 'b.n', 'i.o')}, ${id('b', 'b.n')}, ${id('t', 'b.salon')}, ${id('svc', 'b.salon', 'i.service')}, ${id('r', 'b.salon', 'b.staff')},
              b.start_time + i.at * interval '1 minute', b.start_time + (i.at + v.duration) * interval '1 minute', v.duration, v.price, i.o,
              b.status <> 'CANCELLED', b.start_time - interval '14 days', b.start_time
         FROM growth.bookings b
         CROSS JOIN LATERAL (VALUES (0, b.service1, 0), (1, b.service2, 30)) AS i(o, service, at)
         JOIN growth.services v ON v.no = i.service
        WHERE b.salon % 2 = ${half}`,
  );
  await split(
    'booking_segments',
    (
      half,
    ) => `INSERT INTO booking_segments (id, tenant_id, booking_id, booking_item_id, resource_type, resource_id, kind, phase_index, start_time, end_time, is_active, created_at)
       SELECT ${id('g', 'b.n', 'i.o', 'p.phase_index', 'x.room::int')}, ${id('t', 'b.salon')}, ${id('b', 'b.n')}, ${id('i', 'b.n', 'i.o')},
              CASE WHEN x.room THEN 'room' ELSE 'staff' END, CASE WHEN x.room THEN ${id('room', 'b.salon', 'b.staff')} ELSE ${id('r', 'b.salon', 'b.staff')} END,
              p.kind, p.phase_index,
              b.start_time + (i.at + p.offset_minutes) * interval '1 minute', b.start_time + (i.at + p.offset_minutes + p.minutes) * interval '1 minute',
              b.status NOT IN ('CANCELLED', 'NO_SHOW'), b.start_time - interval '14 days'
         FROM growth.bookings b
         CROSS JOIN LATERAL (VALUES (0, b.service1, 0), (1, b.service2, 30)) AS i(o, service, at)
         JOIN growth.phases p ON p.service_no = i.service
         JOIN growth.services v ON v.no = i.service
         CROSS JOIN LATERAL (SELECT false AS room UNION ALL SELECT true WHERE v.room) x
        WHERE b.salon % 2 = ${half}`,
  );
  await split(
    'payments',
    (
      half,
    ) => `INSERT INTO payments (id, tenant_id, booking_id, provider, intent, capture_mode, status, amount, captured_amount, refunded_amount, currency, idempotency_key,
                             authorized_at, captured_at, created_at, updated_at)
       SELECT ${id('p', 'b.n')}, ${id('t', 'b.salon')}, ${id('b', 'b.n')}, 'vipps', 'DEPOSIT', 'AUTO', CASE WHEN b.status = 'CANCELLED' THEN 'REFUNDED' ELSE 'CAPTURED' END,
              b.price / 5, b.price / 5, CASE WHEN b.status = 'CANCELLED' THEN b.price / 5 ELSE 0 END, 'NOK', 'growth:' || b.n,
              b.start_time - interval '14 days', b.start_time - interval '14 days', b.start_time - interval '14 days', b.start_time - interval '14 days'
         FROM growth.bookings b WHERE b.deposit AND b.salon % 2 = ${half}`,
  );
  // the confirmation (e-mail) of every booking, and the reminder (SMS) of every booking not cancelled
  await split(
    'booking_notifications',
    (half) => `INSERT INTO booking_notifications (booking_id, tenant_id, kind, dedupe_key, channel, sent_at, sent_to, created_at)
       SELECT ${id('b', 'b.n')}, ${id('t', 'b.salon')}, 'CONFIRMED', 'CONFIRMED', 'EMAIL', b.start_time - interval '14 days', ${email('b.customer')}, b.start_time - interval '14 days'
         FROM growth.bookings b WHERE b.salon % 2 = ${half}
       UNION ALL
       SELECT ${id('b', 'b.n')}, ${id('t', 'b.salon')}, 'REMINDER', 'REMINDER', 'SMS', CASE WHEN b.start_time < now() THEN b.start_time - interval '1 day' END,
              ${phone('b.customer')}, b.start_time - interval '1 day'
         FROM growth.bookings b WHERE b.status <> 'CANCELLED' AND b.start_time - interval '1 day' < now() AND b.salon % 2 = ${half}`,
  );
  await split(
    'tenant_customers',
    (half) => `INSERT INTO tenant_customers (id, tenant_id, customer_id, visit_count, first_visit, last_visit, total_spent, tags, created_at, updated_at)
       SELECT ${id('tc', 'c')}, ${id('t', 's.no')}, ${id('c', 'c')}, COALESCE(v.visits, 0), v.first_visit, v.last_visit, COALESCE(v.spent, 0),
              CASE WHEN c % 20 = 0 THEN ARRAY['vip'] ELSE '{}' END,
              now() - interval '${DAYS_PAST} days' + (c - s.customer_offset) * (interval '${DAYS_PAST} days' / s.customers), now()
         FROM growth.salons s, generate_series(s.customer_offset, s.customer_offset + s.customers - 1) c
         LEFT JOIN (SELECT customer, count(*) AS visits, min(start_time) AS first_visit, max(start_time) AS last_visit, sum(price) AS spent
                      FROM growth.bookings WHERE status = 'COMPLETED' AND salon % 2 = ${half} GROUP BY customer) v ON v.customer = c
        WHERE s.no % 2 = ${half}`,
  );
  // a stamp for each completed visit of every third customer (the card's members), ten to a card
  await split(
    'loyalty_stamps',
    (half) => `INSERT INTO loyalty_stamps (id, tenant_id, loyalty_card_id, tenant_customer_id, booking_id, stamp_number, cycle_number, created_at)
       SELECT ${id('st', 'x.n')}, ${id('t', 'x.salon')}, ${id('card', 'x.salon')}, ${id('tc', 'x.customer')}, ${id('b', 'x.n')},
              (x.visit - 1) % 10 + 1, (x.visit - 1) / 10 + 1, x.start_time
         FROM (SELECT b.*, row_number() OVER (PARTITION BY b.customer ORDER BY b.n) AS visit FROM growth.bookings b WHERE b.status = 'COMPLETED' AND b.customer % 3 = 0 AND b.salon % 2 = ${half}) x`,
  );
  // a voucher for each full card: redeemed, but for the customer's newest
  await split(
    'loyalty_vouchers',
    (half) => `INSERT INTO loyalty_vouchers (id, tenant_id, loyalty_card_id, tenant_customer_id, code, reward_type, reward_value, status, issued_at, expires_at,
                                     issued_from_cycle_number, issued_from_booking_id, redeemed_at, discount_applied, created_at, updated_at)
       SELECT ${id('v', 'x.booking_id::text')}, x.tenant_id, x.loyalty_card_id, x.tenant_customer_id, 'G' || upper(substr(md5(x.booking_id::text), 1, 10)),
              'DISCOUNT_PERCENT', 50, CASE WHEN x.newest THEN 'ACTIVE' ELSE 'REDEEMED' END, x.created_at, x.created_at + interval '12 months', x.cycle_number, x.booking_id,
              CASE WHEN NOT x.newest THEN x.created_at + interval '30 days' END, CASE WHEN NOT x.newest THEN 30000 END, x.created_at, x.created_at
         FROM (SELECT s.*, s.cycle_number = max(s.cycle_number) OVER (PARTITION BY s.tenant_customer_id) AS newest FROM loyalty_stamps s WHERE s.stamp_number = 10 AND s.tenant_id IN (SELECT ${id('t', 'g.no')} FROM growth.salons g WHERE g.no % 2 = ${half})) x`,
  );

  // ------------------------------------------------------------ the indexes back, and fresh statistics
  // two at a time, the GiST builds (the slowest by far) first; each index's time printed
  const builds = [
    ...exclusions.map((x) => ({ name: `${x.table}.${x.conname}`, gist: true, sql: `ALTER TABLE ${x.table} ADD CONSTRAINT ${x.conname} ${x.def}` })),
    ...indexes.map((i) => ({ name: `${/ON public\.(\w+) /.exec(i.indexdef)?.[1]}.${i.indexname}`, gist: /USING gist/.test(i.indexdef), sql: i.indexdef })),
  ].sort((a, b) => Number(b.gist) - Number(a.gist));
  const indexesStarted = performance.now();
  await Promise.all(
    HALVES.map(async () => {
      for (let build = builds.shift(); build; build = builds.shift()) {
        const started = performance.now();
        await session(knex, (trx) => trx.raw(build.sql));
        log(`  index ${build.name.padEnd(56)} ${((performance.now() - started) / 1000).toFixed(1).padStart(7)} s`);
      }
    }),
  );
  record(`indexes (${indexes.length + exclusions.length}, two at a time)`, 0, performance.now() - indexesStarted);
  await knex.raw(`DROP TABLE growth.bookings`);
  const started = performance.now();
  const tables = (await knex.raw(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)).rows.map(
    (r: { tablename: string }) => r.tablename,
  );
  const queue = [...BIG_TABLES, ...tables.filter((t: string) => !BIG_TABLES.includes(t))];
  await Promise.all(
    HALVES.map(async () => {
      for (let table = queue.shift(); table; table = queue.shift()) await knex.raw(`VACUUM ANALYZE ${table}`);
    }),
  );
  record('VACUUM ANALYZE', 0, performance.now() - started);
  return loads;
}
