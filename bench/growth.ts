// npm run bench:growth - how the cost grows as the platform grows (docs/performance.md#growth-a-large-platform-issue-54).
//
// One run, in parts (--part database,routes,workflows,reminders; default: all four):
//   database  builds, from a seed, a large platform in an embedded Postgres the bench starts (the real
//             migrations first, then bulk INSERT ... SELECT over generate_series: bench/growth/database.ts)
//             and beside it, the same way, a small one (a few salons, a few hundred bookings) and the
//             large one's measured salon alone with the small one's two others; prints the load time
//             of each table and index
//   routes    the hot routes on the three, through the real api over HTTP (one `npm start` per
//             database), p50/p95 and the ratios of the large one's p95 to the small one's (what a
//             grown platform with a grown salon costs) and to the same salon's (what the platform's
//             growth alone costs); then each statement's plan (bench/growth/routes.ts)
//   workflows many open booking workflows waiting on their reminders, on the dev server and the
//             production server, and a new booking beside them and on an empty server
//             (bench/growth/workflows.ts, also `npm run bench:growth:workflows`; its flags: --open,
//             --engine, --workflow-bookings, --rate, --concurrency)
//   reminders a morning's reminders falling due together, at the SMS send rate
//             (bench/growth/reminders.ts, also `npm run bench:growth:reminders`; its flags: --count,
//             --salons, --sms-rate, --window-seconds, --engine, --lead-seconds)
// The bulk-loaded bookings have no workflows (nothing of theirs is open in Temporal): the routes
// measured read Postgres; the workflows and reminders parts start their own stacks.
//
// Options: --seed N (1), --salons N, --customers N, --bookings N (the large platform: 1,000, 1,000,000,
// 5,000,000), --rounds N (measured requests per route and database, 40), --data DIR (the Postgres data
// folder; kept, and a database already loaded there with the same seed and scale is measured again
// without loading it: for iterating on the routes), --plans FILE (the full plans: growth-plans.md in
// the data folder given, else in the current folder).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { startEmbeddedPostgres } from '../devstack/postgres';
import { ensureOfficialTemporal } from '../devstack/official-temporal/install';
import { ISSUE_SCALE, planSalons, type Scale } from './growth/plan';
import { loadDatabase, type TableLoad } from './growth/database';
import { BENCH_SECRETS, startPlatform, type RunningPlatform } from './growth/platform';
import { measureRoutes } from './growth/routes';
import { run as runWorkflows, workflowsOptions } from './growth/workflows';
import { run as runReminders, remindersOptions } from './growth/reminders';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const SEED = Number(option('--seed') ?? 1);
const LARGE: Scale = {
  salons: Number(option('--salons') ?? ISSUE_SCALE.salons),
  customers: Number(option('--customers') ?? ISSUE_SCALE.customers),
  bookings: Number(option('--bookings') ?? ISSUE_SCALE.bookings),
};
const SMALL: Scale = { salons: 3, customers: 300, bookings: 600 };
/** The large platform's measured salon, whole, with the small platform's two others: what the salon's own size costs, apart from the platform's */
const MEASURED = planSalons(LARGE, SEED)[0];
const SAME: Scale = {
  salons: 3,
  customers: MEASURED.customers + 200,
  bookings: MEASURED.bookings + 400,
  measured: { bookings: MEASURED.bookings, customers: MEASURED.customers },
};
/** The databases of one Postgres, the large one first (the routes are compared with it). */
const PLATFORMS = [
  { name: 'large', database: 'growth_large', scale: LARGE },
  { name: 'small', database: 'growth_small', scale: SMALL },
  { name: 'same salon', database: 'growth_same', scale: SAME },
];
const PARTS = (option('--part') ?? 'database,routes,workflows,reminders').split(',');
const ROUNDS = Number(option('--rounds') ?? 40);
const KEPT_DATA = option('--data');

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const log = (line: string) => console.log(line);

/** The bench's own connection: plain rows, snake_case as in Postgres. */
function connect(url: string): Knex {
  return knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 2 } });
}

/** The database's plan as loaded (growth.scale), or undefined when nothing was loaded there. */
async function loadedScale(db: Knex): Promise<string | undefined> {
  const exists = (await db.raw(`SELECT to_regclass('growth.scale') AS t`)).rows[0].t;
  return exists ? (await db.raw(`SELECT value FROM growth.scale`)).rows[0]?.value : undefined;
}

async function build(db: Knex, url: string, name: string, scale: Scale): Promise<TableLoad[]> {
  const wanted = JSON.stringify({ seed: SEED, ...scale });
  if ((await loadedScale(db)) === wanted) {
    log(`${name}: already loaded (${wanted}), measured as it is`);
    return [];
  }
  if (await loadedScale(db)) throw new Error(`${name}: the data folder holds another platform; give another --data`);
  const started = performance.now();
  // the build's own migrator (dist/bin/migrate.js), so the applied names are those `npm start` checks
  const migrate = spawnSync(process.execPath, [path.resolve(__dirname, '../dist/bin/migrate.js')], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...BENCH_SECRETS, DATABASE_URL: url },
    encoding: 'utf8',
  });
  if (migrate.status !== 0) throw new Error(`migrate: ${migrate.stdout}${migrate.stderr}`);
  log(`${name}: ${scale.salons} salons, ${scale.customers} customers, ${scale.bookings} bookings (seed ${SEED})  [load ${load()}]`);
  log(`  migrations ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const loads = await loadDatabase(db, planSalons(scale, SEED), SEED, log);
  await db.raw(`CREATE TABLE growth.scale (value text)`);
  await db.raw(`INSERT INTO growth.scale VALUES (?)`, [wanted]);
  const total = loads.reduce((sum, l) => sum + l.ms, 0);
  const size = (await db.raw(`SELECT pg_size_pretty(pg_database_size(current_database())) AS s`)).rows[0].s;
  log(`  total ${(total / 1000).toFixed(1)} s, database ${size}  [load ${load()}]`);
  return loads;
}

async function main(): Promise<void> {
  const dataDir = path.resolve(KEPT_DATA ?? fs.mkdtempSync(path.join(os.tmpdir(), 'salon-bench-growth-')));
  fs.mkdirSync(dataDir, { recursive: true });
  let capturing: string[] | undefined;
  const measuring = [
    ...['-c', 'shared_preload_libraries=pg_stat_statements,auto_explain'],
    ...['-c', 'shared_buffers=1GB', '-c', 'max_wal_size=16GB', '-c', 'checkpoint_timeout=30min'],
    ...['-c', 'log_line_prefix=[%d] '],
  ];
  // the load writes a database nobody else uses and rebuilds it on a crash: no flush to disk, no WAL
  // beyond the minimal, no autovacuum racing the load; measured after a restart with the defaults
  const loading = [
    ...measuring,
    ...['-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'wal_level=minimal', '-c', 'max_wal_senders=0', '-c', 'autovacuum=off'],
    ...['-c', 'shared_buffers=4GB'],
  ];
  const startPostgres = (flags: string[]) =>
    startEmbeddedPostgres({
      dataDir: path.join(dataDir, 'postgres'),
      database: 'growth_large',
      persistent: true,
      log: (line) => capturing?.push(line),
      postgresFlags: flags,
    });
  /** A connection and the URL of each platform's database, created when missing. */
  const databases = async (url: string) => {
    const admin = connect(url);
    const out: ((typeof PLATFORMS)[number] & { url: string; db: Knex })[] = [];
    for (const p of PLATFORMS) {
      if ((await admin.raw(`SELECT 1 FROM pg_database WHERE datname = ?`, [p.database])).rowCount === 0) await admin.raw(`CREATE DATABASE "${p.database}"`);
      const dbUrl = url.replace(/\/growth_large$/, `/${p.database}`);
      out.push({ ...p, url: dbUrl, db: p.database === 'growth_large' ? admin : connect(dbUrl) });
    }
    return { admin, all: out, destroy: () => Promise.all(out.map((d) => d.db.destroy())) };
  };
  log(`bench:growth  [${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, load ${load()}]`);
  if (PARTS.includes('database')) {
    const pg = await startPostgres(loading);
    const { admin, all, destroy } = await databases(pg.url);
    try {
      for (const d of all) await build(d.db, d.url, d.name, d.scale);
      await admin.raw('CHECKPOINT');
    } finally {
      await destroy();
      await pg.stop();
    }
  }
  const pg = await startPostgres(measuring);
  const { admin, all, destroy } = await databases(pg.url);
  const platforms: RunningPlatform[] = [];
  try {
    if (PARTS.includes('routes')) {
      ensureOfficialTemporal();
      for (const d of all)
        if ((await loadedScale(d.db)) !== JSON.stringify({ seed: SEED, ...d.scale }))
          throw new Error(`routes: the ${d.name} database is not loaded (run --part database first)`);
      const running = await Promise.all(all.map((d) => startPlatform(d.url, path.join(dataDir, `npm-start-${d.database}`))));
      platforms.push(...running);
      await measureRoutes(
        all.map((d, i) => ({
          target: { name: d.name, base: running[i].base, db: d.db, database: d.database },
          platform: running[i],
          salon: planSalons(d.scale, SEED)[0],
        })),
        {
          capture() {
            const lines: string[] = [];
            capturing = lines;
            return () => {
              capturing = undefined;
              return lines.join('');
            };
          },
        },
        admin,
        {
          rounds: ROUNDS,
          warmup: 10,
          seed: SEED,
          plansFile: path.resolve(option('--plans') ?? (KEPT_DATA ? path.join(dataDir, 'growth-plans.md') : 'growth-plans.md')),
          log,
        },
      );
    }
  } finally {
    await Promise.all(platforms.map((p) => p.stop()));
    await destroy();
    await pg.stop();
    if (!KEPT_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The parts over Postgres first (their database stopped after), then those over Temporal, each on its own stack. */
async function all(): Promise<void> {
  if (PARTS.includes('database') || PARTS.includes('routes')) await main();
  if (PARTS.includes('workflows')) await runWorkflows(workflowsOptions(args));
  if (PARTS.includes('reminders')) await runReminders(remindersOptions(args));
}

all().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
