// npm run bench:growth - how the cost grows as the platform grows (docs/performance.md#growth-a-large-platform-issue-54).
//
// One run, in parts (--part database,routes; default: every part there is):
//   database  builds, from a seed, a large platform in an embedded Postgres the bench starts (the real
//             migrations first, then bulk INSERT ... SELECT over generate_series: bench/growth/database.ts)
//             and a small one (a few salons, a few hundred bookings) beside it, the same way; prints the
//             load time of each table
//   routes    the hot routes on both, through the real api over HTTP (one `npm start` per database),
//             p50/p95 and the ratio large/small; then each statement's plan (bench/growth/routes.ts)
// The bulk-loaded bookings have no workflows (nothing of theirs is open in Temporal): the routes
// measured read Postgres; many open workflows are another part's.
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
const PARTS = (option('--part') ?? 'database,routes').split(',');
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
  const pg = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, 'postgres'),
    database: 'growth_large',
    persistent: true,
    log: (line) => capturing?.push(line),
    postgresFlags: [
      ...['-c', 'shared_preload_libraries=pg_stat_statements,auto_explain'],
      ...['-c', 'shared_buffers=1GB', '-c', 'max_wal_size=16GB', '-c', 'checkpoint_timeout=30min'],
      ...['-c', 'log_line_prefix=[%d] '],
    ],
  });
  const smallUrl = pg.url.replace(/\/growth_large$/, '/growth_small');
  const admin = connect(pg.url);
  if ((await admin.raw(`SELECT 1 FROM pg_database WHERE datname = 'growth_small'`)).rowCount === 0) await admin.raw(`CREATE DATABASE growth_small`);
  const small = connect(smallUrl);
  const platforms: RunningPlatform[] = [];
  try {
    log(`bench:growth  [${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, load ${load()}]`);
    if (PARTS.includes('database')) {
      await build(admin, pg.url, 'large', LARGE);
      await build(small, smallUrl, 'small', SMALL);
    }
    if (PARTS.includes('routes')) {
      ensureOfficialTemporal();
      for (const [db, name, scale] of [
        [admin, 'large', LARGE],
        [small, 'small', SMALL],
      ] as const)
        if ((await loadedScale(db)) !== JSON.stringify({ seed: SEED, ...scale }))
          throw new Error(`routes: the ${name} database is not loaded (run --part database first)`);
      const [largePlatform, smallPlatform] = await Promise.all([
        startPlatform(pg.url, path.join(dataDir, 'npm-start-large')),
        startPlatform(smallUrl, path.join(dataDir, 'npm-start-small')),
      ]);
      platforms.push(largePlatform, smallPlatform);
      await measureRoutes(
        {
          target: { name: 'large', base: largePlatform.base, db: admin, database: 'growth_large' },
          platform: largePlatform,
          salon: planSalons(LARGE, SEED)[0],
        },
        {
          target: { name: 'small', base: smallPlatform.base, db: small, database: 'growth_small' },
          platform: smallPlatform,
          salon: planSalons(SMALL, SEED)[0],
        },
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
    await small.destroy();
    await admin.destroy();
    await pg.stop();
    if (!KEPT_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
