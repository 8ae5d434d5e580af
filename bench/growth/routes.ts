// bench:growth's routes part: each hot route on the large database and on the small one, through the
// real api over HTTP (one `npm start` per database, both running, the rounds alternating between them
// so the machine's noise falls on both alike), p50/p95 and the ratio large/small of p95. Then one
// request of each route per database with auto_explain on: every statement's plan, and for each the
// scans it used (an index, or a sequential scan or sort over many rows: flagged).
import fs from 'node:fs';
import os from 'node:os';
import type { Knex } from 'knex';
import { derivePurposeKeys } from '../../config';
import { signCustomerAccessToken } from '../../domain/auth/tokens';
import { addDays, utcToLocalDate } from '../../domain/time/salon-time.rules';
import { BENCH_SECRETS, type RunningPlatform } from './platform';
import { STAFF_PASSWORD } from './database';
import { TIMEZONE, idOf, nameOf, phoneOf, slugOf, type PlannedSalon } from './plan';

interface Call {
  method?: 'GET' | 'POST';
  path: string;
  token?: string;
  body?: unknown;
}

interface Target {
  name: string;
  base: string;
  db: Knex;
  /** the database's name in Postgres's log lines */
  database: string;
}

interface Context {
  slug: string;
  serviceId: string;
  staffToken: string;
  ownerToken: string;
  adminToken: string;
  customerToken: string;
  tenantCustomerId: string;
  phone: string;
  name: string;
  today: string;
  freeSlots: { start: string; resourceId: string }[];
  booked: number;
  /** the `after` of page 500 (page 499's nextAfter); on the small platform, whose lists are shorter, its last page's */
  staffCursor500: string;
  ownerCursor500: string;
}

interface Route {
  name: string;
  /** the calls of one measurement (a month's availability is thirty day reads, sent together as a calendar does) */
  calls(ctx: Context): Call[];
}

const ROUTES: Route[] = [
  {
    name: 'availability, one day',
    calls: (c) => [{ path: `/public/tenants/${c.slug}/availability?serviceIds=${c.serviceId}&date=${addDays(c.today, 7)}` }],
  },
  {
    name: 'availability, a month (30 days together)',
    calls: (c) =>
      Array.from({ length: 30 }, (_, i) => ({ path: `/public/tenants/${c.slug}/availability?serviceIds=${c.serviceId}&date=${addDays(c.today, i + 1)}` })),
  },
  {
    name: 'next-available-date',
    calls: (c) => [
      {
        method: 'POST',
        path: `/public/tenants/${c.slug}/availability/next-available-date`,
        body: { items: [{ serviceId: c.serviceId }], fromDate: c.today, maxDaysAhead: 30 },
      },
    ],
  },
  {
    name: 'public booking creation',
    calls: (c) => {
      const slot = c.freeSlots[c.booked++ % c.freeSlots.length];
      const n = c.booked;
      return [
        {
          method: 'POST',
          path: `/public/tenants/${c.slug}/bookings`,
          body: {
            startTime: slot.start,
            items: [{ serviceId: c.serviceId, resourceId: slot.resourceId }],
            customer: { name: `Ny Kunde ${n}`, phone: `+4741${String(100000 + n).padStart(6, '0')}`, email: `ny${n}@growth.example` },
          },
        },
      ];
    },
  },
  { name: 'GET /schedule (owner, a day)', calls: (c) => [{ path: `/schedule?date=${addDays(c.today, 1)}`, token: c.ownerToken }] },
  { name: 'GET /bookings (staff), page 1', calls: (c) => [{ path: `/bookings?sort=startTime&order=desc&limit=10`, token: c.staffToken }] },
  { name: 'GET /bookings (staff), page 500', calls: (c) => [{ path: `/bookings?sort=startTime&order=desc&limit=10&page=500`, token: c.staffToken }] },
  {
    name: 'GET /bookings (staff), page 500 by after',
    calls: (c) => [{ path: `/bookings?sort=startTime&order=desc&limit=10&page=500&after=${c.staffCursor500}`, token: c.staffToken }],
  },
  { name: 'GET /bookings (owner), page 1', calls: (c) => [{ path: `/bookings?limit=20`, token: c.ownerToken }] },
  { name: 'GET /bookings (owner), page 500', calls: (c) => [{ path: `/bookings?limit=20&page=500`, token: c.ownerToken }] },
  { name: 'GET /bookings (owner), page 500 by after', calls: (c) => [{ path: `/bookings?limit=20&page=500&after=${c.ownerCursor500}`, token: c.ownerToken }] },
  { name: 'customer search, phone', calls: (c) => [{ path: `/customers?search=${encodeURIComponent(c.phone)}`, token: c.staffToken }] },
  { name: 'customer search, name', calls: (c) => [{ path: `/customers?search=${encodeURIComponent(c.name)}`, token: c.staffToken }] },
  { name: 'GET /tenant-customers', calls: (c) => [{ path: `/tenant-customers`, token: c.staffToken }] },
  { name: "signed-in customer's bookings", calls: (c) => [{ path: `/customer/me/bookings`, token: c.customerToken }] },
  { name: "customer's stamps (customer)", calls: (c) => [{ path: `/customer/loyalty/stamps/${c.slug}`, token: c.customerToken }] },
  { name: "customer's loyalty (staff)", calls: (c) => [{ path: `/customers/${c.tenantCustomerId}/loyalty`, token: c.staffToken }] },
  { name: "admin's tenant list", calls: (c) => [{ path: `/tenants`, token: c.adminToken }] },
];

async function call(base: string, c: Call): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${c.path}`, {
    method: c.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(c.token ? { authorization: `Bearer ${c.token}` } : {}) },
    ...(c.body ? { body: JSON.stringify(c.body) } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text for the error
  }
  return { status: res.status, body };
}

async function login(base: string, email: string, password: string, tenantSlug?: string): Promise<string> {
  const res = await call(base, { method: 'POST', path: '/auth/login', body: { email, password, ...(tenantSlug ? { tenantSlug } : {}) } });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { data: { accessToken: string } }).data.accessToken;
}

/** The measured salon's staff member 0, its owner, the admin, and its customer with the most bookings who has an account and a stamp card. */
async function prepare(target: Target, platform: RunningPlatform, salon: PlannedSalon, seed: number): Promise<Context> {
  const slug = slugOf(salon.no);
  const tenantId = idOf(seed, 't', salon.no);
  const base = platform.base;
  const [staffToken, ownerToken, adminToken] = await Promise.all([
    login(base, `staff0@${slug}.example`, STAFF_PASSWORD, slug),
    login(base, `owner@${slug}.example`, STAFF_PASSWORD, slug),
    login(base, BENCH_SECRETS.ADMIN_EMAIL, BENCH_SECRETS.ADMIN_PASSWORD),
  ]);
  const customer = (
    await target.db.raw(
      `SELECT b.customer_id, c.account_id, count(*) AS n FROM bookings b JOIN customers c ON c.id = b.customer_id
        WHERE b.tenant_id = ? AND c.account_id IS NOT NULL AND b.customer_account_id IS NOT NULL
          AND EXISTS (SELECT 1 FROM loyalty_stamps s JOIN tenant_customers t ON t.id = s.tenant_customer_id WHERE t.customer_id = c.id)
        GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT 1`,
      [tenantId],
    )
  ).rows[0] as { customer_id: string; account_id: string };
  if (!customer) throw new Error(`${target.name}: no customer with an account and stamps in ${slug}`);
  const tenantCustomer = (await target.db.raw(`SELECT id FROM tenant_customers WHERE customer_id = ?`, [customer.customer_id])).rows[0] as { id: string };
  // the customer's number is the last word of their name (bench/growth/plan.ts#nameOf)
  const customerNo = Number((await target.db.raw(`SELECT split_part(name, ' ', 3) AS no FROM customers WHERE id = ?`, [customer.customer_id])).rows[0].no);
  const session = (await target.db.raw(`INSERT INTO auth_sessions (customer_account_id) VALUES (?) RETURNING id`, [customer.account_id])).rows[0] as {
    id: string;
  };
  const customerToken = signCustomerAccessToken(
    { secret: derivePurposeKeys(BENCH_SECRETS.JWT_SECRET).accessToken, accessTtlSeconds: 6 * 3600 },
    { sub: customer.account_id, tv: 0, sid: session.id },
  );
  const today = utcToLocalDate(new Date(), TIMEZONE);
  const serviceId = idOf(seed, 'svc', salon.no, 0);
  // free slots for the bookings the bench makes: the days 40-60 ahead, past the bulk-loaded month
  const freeSlots: Context['freeSlots'] = [];
  for (let d = 40; d < 60 && freeSlots.length < 400; d++) {
    const res = await call(base, { path: `/public/tenants/${slug}/availability?serviceIds=${serviceId}&date=${addDays(today, d)}` });
    if (res.status !== 200) throw new Error(`${target.name}: availability ${res.status} ${JSON.stringify(res.body)}`);
    const slots = (res.body as { data: { slots: { start: string; items: { resourceId: string; freeResourceIds: string[] }[] }[] } }).data.slots;
    for (const slot of slots) for (const resourceId of slot.items[0].freeResourceIds) freeSlots.push({ start: slot.start, resourceId });
  }
  const cursor500 = async (path: string, token: string, limit: number) => {
    const first = await call(base, { path: `${path}&limit=${limit}`, token });
    const pages = (first.body as { meta: { totalPages: number } }).meta.totalPages;
    const before = await call(base, { path: `${path}&limit=${limit}&page=${Math.max(1, Math.min(499, pages - 1))}`, token });
    const cursor = (before.body as { meta: { nextAfter: string | null } }).meta.nextAfter;
    if (!cursor) throw new Error(`${target.name}: ${path} has a single page, no cursor to page by`);
    return encodeURIComponent(cursor);
  };
  const staffCursor500 = await cursor500('/bookings?sort=startTime&order=desc', staffToken, 10);
  const ownerCursor500 = await cursor500('/bookings?sort=createdAt&order=desc', ownerToken, 20);
  // one slot per (staff, hour): two bookings never ask for overlapping times of one staff member
  const distinct = freeSlots.filter((s) => new Date(s.start).getUTCMinutes() === 0);
  return {
    slug,
    serviceId,
    staffToken,
    ownerToken,
    adminToken,
    customerToken,
    tenantCustomerId: tenantCustomer.id,
    phone: phoneOf(customerNo),
    name: nameOf(customerNo).split(' ').slice(0, 2).join(' '),
    today,
    freeSlots: distinct,
    booked: 0,
    staffCursor500,
    ownerCursor500,
  };
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function measureOnce(base: string, ctx: Context, route: Route): Promise<number> {
  const calls = route.calls(ctx);
  const started = performance.now();
  const results = await Promise.all(calls.map((c) => call(base, c)));
  const ms = performance.now() - started;
  const bad = results.find((r) => r.status >= 300);
  if (bad) throw new Error(`${route.name}: ${bad.status} ${JSON.stringify(bad.body).slice(0, 300)}`);
  return ms;
}

export interface RouteFigure {
  route: string;
  /** p50 and p95 on each platform, the large one first */
  sides: { name: string; p50: number; p95: number }[];
  /** the large platform's p95 over each other's */
  ratios: number[];
}

/** A platform the routes are measured on: its database, its running api and its measured salon. */
export interface Side {
  target: Target;
  platform: RunningPlatform;
  salon: PlannedSalon;
}

export interface PlanLog {
  /** starts keeping Postgres's log lines; returns them when called again */
  capture(): () => string;
}

export interface RoutesOptions {
  rounds: number;
  warmup: number;
  seed: number;
  plansFile: string;
  log: (line: string) => void;
}

/** `sides[0]` is the large platform; every other is compared with it (the ratio of the p95s, target 1.5x). */
export async function measureRoutes(sides: Side[], planLog: PlanLog, admin: Knex, options: RoutesOptions): Promise<RouteFigure[]> {
  const { log } = options;
  const contexts: Context[] = [];
  for (const side of sides) contexts.push(await prepare(side.target, side.platform, side.salon, options.seed));
  const figures: RouteFigure[] = [];
  const names = sides.map((s) => s.target.name);
  log(`routes: ${options.rounds} rounds each after ${options.warmup} to warm, ${names.join(', ')} in turn  [load ${load()}]`);
  log(
    `  ${'route'.padEnd(42)} ${`${names[0]} p50`.padStart(10)} ${'p95'.padStart(9)}` +
      names
        .slice(1)
        .map((n) => ` ${`${n} p50`.padStart(14)} ${'p95'.padStart(9)} ${'ratio p95'.padStart(9)}`)
        .join('   '),
  );
  for (const route of ROUTES) {
    const times: number[][] = sides.map(() => []);
    for (let round = 0; round < options.warmup + options.rounds; round++) {
      for (const side of sides.keys()) {
        const ms = await measureOnce(sides[side].platform.base, contexts[side], route).catch((err: Error) => {
          throw new Error(`${err.message}\n${sides[side].target.name} platform's output: ${sides[side].platform.output().slice(-1500)}`);
        });
        if (round >= options.warmup) times[side].push(ms);
      }
    }
    const measured = times.map((t, i) => ({ name: names[i], p50: pct(t, 50), p95: pct(t, 95) }));
    const figure = { route: route.name, sides: measured, ratios: measured.slice(1).map((m) => measured[0].p95 / m.p95) };
    figures.push(figure);
    const ms = (v: number, width: number) => `${v.toFixed(1).padStart(width)} ms`;
    log(
      `  ${route.name.padEnd(42)} ${ms(measured[0].p50, 7)} ${ms(measured[0].p95, 6)}` +
        measured
          .slice(1)
          .map((m, i) => ` ${ms(m.p50, 11)} ${ms(m.p95, 6)} ${figure.ratios[i].toFixed(2).padStart(8)}x ${figure.ratios[i] <= 1.5 ? 'OK    ' : 'MISSED'}`)
          .join('')
          .concat(`  [load ${load()}]`),
    );
  }

  // the plans: auto_explain on for one request of each route, then off again
  await admin.raw(`ALTER SYSTEM SET auto_explain.log_min_duration = 0`);
  await admin.raw(`ALTER SYSTEM SET auto_explain.log_analyze = on`);
  await admin.raw(`ALTER SYSTEM SET auto_explain.log_timing = off`);
  await admin.raw(`SELECT pg_reload_conf()`);
  await new Promise((r) => setTimeout(r, 500));
  fs.writeFileSync(options.plansFile, `# bench:growth plans, ${new Date().toISOString()}\n\n`);
  log(`plans (every statement of one request per route; the full plans in ${options.plansFile}):`);
  try {
    for (const route of ROUTES) {
      for (const side of sides.keys()) {
        const stop = planLog.capture();
        await measureOnce(sides[side].platform.base, contexts[side], route);
        await new Promise((r) => setTimeout(r, 300));
        const statements = explainedStatements(stop(), sides[side].target.database);
        fs.appendFileSync(options.plansFile, `## ${route.name} - ${sides[side].target.name}\n\n${statements.map((s) => s.text).join('\n\n')}\n\n`);
        if (side === 0) {
          log(`  ${route.name}: ${statements.length} statements (slowest of each; !! a sequential scan or sort of more than ${FLAG_ROWS} rows)`);
          for (const line of statementGroups(statements)) log(`    ${line}`);
        }
      }
    }
  } finally {
    await admin.raw(`ALTER SYSTEM RESET auto_explain.log_min_duration`);
    await admin.raw(`ALTER SYSTEM RESET auto_explain.log_analyze`);
    await admin.raw(`ALTER SYSTEM RESET auto_explain.log_timing`);
    await admin.raw(`SELECT pg_reload_conf()`);
  }
  return figures;
}

interface Statement {
  text: string;
  query: string;
  duration: number;
  summary: string;
  /** a sequential scan or a sort of more than FLAG_ROWS rows */
  flag: boolean;
}
const FLAG_ROWS = 5_000;

/** auto_explain's entries of one database in the captured log: each statement's query and plan, and what it scanned. */
export function explainedStatements(logText: string, database: string): Statement[] {
  const entries = logText.split(/(?=^\[[^\]]*\] LOG: {2}duration: )/m).filter((e) => e.startsWith(`[${database}] LOG:  duration: `));
  return entries.map((entry) => {
    const text = entry.trim();
    const duration = /duration: ([\d.]+) ms/.exec(text)?.[1] ?? '?';
    const lines = text.split('\n');
    const firstPlanLine = lines.findIndex((l) => l.includes('(cost='));
    const query = lines
      .slice(0, firstPlanLine < 0 ? lines.length : firstPlanLine)
      .join(' ')
      .replace(/^.*?Query Text: /, '')
      .replace(/Query Parameters: .*$/, '')
      .replace(/\s+/g, ' ')
      .trim();
    const nodes = [
      ...text.matchAll(/((?:Parallel )?(?:Seq Scan|Index Scan|Index Only Scan|Bitmap Index Scan|Sort|Incremental Sort)[^\n(]*)\([^)]*\) \(actual rows=(\d+)/g),
    ].map((m) => ({
      node: m[1].trim(),
      rows: Number(m[2]),
    }));
    const flag = nodes.some((n) => /^(Parallel )?(Seq Scan|Sort)/.test(n.node) && n.rows > FLAG_ROWS) || /Rows Removed by Filter: \d{5,}/.test(text);
    const scans = [
      ...new Set(
        nodes
          .filter((n) => !/Sort/.test(n.node) || n.rows > FLAG_ROWS)
          .map((n) => n.node.replace(/ using (\S+) on (\S+).*/, ' $1').replace(/ on (\S+).*/, ' $1')),
      ),
    ];
    return { text, query, duration: Number(duration), summary: `${query.slice(0, 90)}  ->  ${scans.join(', ') || 'no scan'}`, flag };
  });
}

/** The statements grouped by their query (a month's thirty reads are thirty of each): count, slowest, what they scanned. */
export function statementGroups(statements: Statement[]): string[] {
  const groups = new Map<string, { count: number; slowest: number; summary: string; flag: boolean }>();
  for (const s of statements) {
    const key = s.query.replace(/\$\d+|'[^']*'|\d+/g, '?');
    const g = groups.get(key) ?? { count: 0, slowest: 0, summary: s.summary, flag: false };
    g.count++;
    g.slowest = Math.max(g.slowest, s.duration);
    g.flag ||= s.flag;
    groups.set(key, g);
  }
  return [...groups.values()].map((g) => `${g.flag ? '!! ' : '   '}${String(g.count).padStart(3)}x  ${g.slowest.toFixed(2).padStart(7)} ms  ${g.summary}`);
}
