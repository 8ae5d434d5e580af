// npm run bench:growth:reminders - a morning's reminders (docs/rules/reminders.md#the-send-rate):
// COUNT bookings of SALONS salons whose reminders all fall due within WINDOW seconds, sent at the
// SMS send rate, each once; the worker's CPU and the backlog printed over time.
//
// Real time, not the time-skipping test server: the send rate is enforced by the Temporal server's
// task queue rate limiter, which the Java test server does not have, and the worker's CPU per
// reminder is only real when the reminders really go out. A morning's hour is compressed into the
// window (60 s unless --window-seconds: harder than an hour, everything falls due almost at once);
// the time the backlog takes to drain at RATE is what an hour has to hold.
//
// The platform runs as in production: dist/bin/worker.js against the engine (--engine dev, the CLI's
// dev server as npm start runs it, or --engine production, go.temporal.io/server on Postgres), its SMS
// through a Sveve stand-in in this process that records when each message arrived and to whom: the
// gateway's own view of the rate and of duplicates. The bookings are bulk-loaded; each one's real
// booking workflow is started as the api starts it and waits on its real reminder timer.
//
// Flags: --count N (20000), --salons N (1000), --rate N (SMS a second, SMS_SEND_RATE_PER_SECOND: 10),
// --window-seconds N (60), --engine dev|production (dev), --lead-seconds N (the time given to start
// every workflow and run its first task before the first reminder falls due: count / 15, at least 60;
// at 20,000 the dev server on 2 cores ran 11,205 first tasks in the 420 s a run gave them, 27 a second).
import http from 'node:http';
import os from 'node:os';
import { startGrowthStack, cpuBetween, loadavg, option, workerIdle, type Engine } from './stack';
import { seedBookings, seedSalons, startBookingWorkflows } from './open-bookings';
import { freePort } from '../../devstack/postgres';

export interface RemindersOptions {
  count: number;
  salons: number;
  rate: number;
  windowSeconds: number;
  engine: Engine;
  leadSeconds?: number;
}

interface Arrival {
  at: number;
  to: string;
  reminder: boolean;
}

/** A Sveve stand-in: answers every message as sent, and records it. */
async function startGateway(): Promise<{ url: string; arrivals: Arrival[]; close(): Promise<void> }> {
  const arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      arrivals.push({ at: Date.now(), to: form.get('to') ?? '', reminder: /Svar JA/.test(form.get('msg') ?? '') });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ response: { msgOkCount: 1, stdSMSCount: 1, ids: [arrivals.length] } }));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/SMS/SendMessage`, arrivals, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export async function run(options: RemindersOptions): Promise<Record<string, unknown>> {
  const gateway = await startGateway();
  const stack = await startGrowthStack({
    engine: options.engine,
    api: false,
    name: 'reminders',
    env: { SMS_SEND_RATE_PER_SECOND: String(options.rate), SVEVE_URL: gateway.url, SVEVE_USER: 'bench', SVEVE_PASSWORD: 'bench' },
  });
  try {
    const t0 = Date.now();
    const leadMs = 1000 * (options.leadSeconds ?? Math.max(60, Math.ceil(options.count / 15)));
    const HOUR = 3_600_000;
    // every reminder an hour before its start: the starts spread over the window, an hour and the lead from now
    const firstDue = t0 + leadMs;
    const dueOf = (k: number) => firstDue + Math.floor((k / options.count) * options.windowSeconds * 1000);
    const salons = await seedSalons(stack.knex, {
      salons: options.salons,
      staff: Math.ceil(options.count / options.salons),
      reminderHoursBefore: 1,
      tag: 'reminders',
    });
    const bookings = await seedBookings(stack.knex, salons, options.count, (k) => new Date(dueOf(k) + HOUR));
    const seededMs = Date.now() - t0;
    console.log(`seeded ${options.salons} salons and ${options.count} bookings in ${(seededMs / 1000).toFixed(1)} s   [load ${loadavg()}]`);
    const started = await startBookingWorkflows(stack.client, 'salon', bookings, {
      concurrency: 32,
      onProgress: (done, ms) => console.log(`  ${done} workflows started, ${((1000 * done) / ms).toFixed(0)}/s`),
    });
    console.log(`started ${options.count} booking workflows in ${(started.ms / 1000).toFixed(1)} s (${started.perSecond.toFixed(0)}/s)   [load ${loadavg()}]`);
    // a workflow whose first task runs after its reminder's time plans no reminder (a booking made closer
    // to its start than that gets none): the worker must have run every first task before the first is due
    const settledMs = await workerIdle(stack, Math.max(0, firstDue - Date.now()));
    if (Date.now() >= firstDue)
      console.log(`  the worker was still running the workflows' first tasks when the first reminder fell due: this run does not count (raise --lead-seconds)`);
    else console.log(`  the worker ran every workflow's first task ${(settledMs / 1000).toFixed(0)} s after the last start   [load ${loadavg()}]`);
    // the backlog over time: reminders due so far less the reminder SMS the gateway has, every 10 s
    const series: { s: number; due: number; sent: number; backlog: number; workerCpu: number; temporalCpu: number; postgresCpu: number }[] = [];
    const drainLimitMs = ((1.5 * options.count) / options.rate + options.windowSeconds + 120) * 1000;
    const intervalMs = 10_000;
    await new Promise((r) => setTimeout(r, Math.max(0, firstDue - Date.now())));
    const cpuStart = stack.cpuMs();
    let cpuBefore = cpuStart;
    console.log(
      `the first reminder is due now; every ${intervalMs / 1000} s: reminders due, reminder SMS at the gateway, backlog, CPU % of one core (worker, temporal, postgres)`,
    );
    for (;;) {
      await new Promise((r) => setTimeout(r, intervalMs));
      const now = Date.now();
      const cpuNow = stack.cpuMs();
      const spent = cpuBetween(cpuBefore, cpuNow);
      cpuBefore = cpuNow;
      const due = bookings.filter((_, k) => dueOf(k) <= now).length;
      const sent = gateway.arrivals.filter((a) => a.reminder).length;
      const row = {
        s: Math.round((now - firstDue) / 1000),
        due,
        sent,
        backlog: due - sent,
        workerCpu: (100 * spent.worker) / intervalMs,
        temporalCpu: (100 * spent.temporal) / intervalMs,
        postgresCpu: (100 * spent.postgres) / intervalMs,
      };
      series.push(row);
      console.log(
        `  +${String(row.s).padStart(5)} s  due ${String(due).padStart(6)}  sent ${String(sent).padStart(6)}  backlog ${String(row.backlog).padStart(6)}  CPU worker ${row.workerCpu.toFixed(0)}%  temporal ${row.temporalCpu.toFixed(0)}%  postgres ${row.postgresCpu.toFixed(0)}%   [load ${loadavg()}]`,
      );
      if (sent >= options.count || now - firstDue > drainLimitMs) break;
    }
    const spentAll = cpuBetween(cpuStart, stack.cpuMs());
    const reminders = gateway.arrivals.filter((a) => a.reminder);
    const perPhone = new Map<string, number>();
    for (const a of reminders) perPhone.set(a.to, (perPhone.get(a.to) ?? 0) + 1);
    const times = reminders.map((a) => a.at).sort((a, b) => a - b);
    const spanS = times.length > 1 ? (times[times.length - 1] - times[0]) / 1000 : 0;
    // the busiest second at the gateway, and the rate over the whole span
    let busiest = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i] - times[j] >= 1000) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    const sentRows = Number(
      (await stack.knex('booking_notifications').where({ channel: 'SMS', kind: 'REMINDER' }).whereNotNull('sentAt').count({ n: '*' }))[0].n,
    );
    const out = {
      engine: options.engine,
      count: options.count,
      salons: options.salons,
      rate: options.rate,
      windowSeconds: options.windowSeconds,
      seededMs,
      startPerSecond: started.perSecond,
      remindersAtGateway: reminders.length,
      phonesReminded: perPhone.size,
      phonesRemindedTwice: [...perPhone.values()].filter((n) => n > 1).length,
      sentRows,
      firstToLastSeconds: spanS,
      achievedPerSecond: spanS > 0 ? (reminders.length - 1) / spanS : NaN,
      busiestSecond: busiest,
      lastSentAfterFirstDueSeconds: times.length ? (times[times.length - 1] - firstDue) / 1000 : NaN,
      withinTheHourAtThisRate: options.count / options.rate <= 3600,
      cpuMsPerReminder: Object.fromEntries(Object.entries(spentAll).map(([k, v]) => [k, +(v / Math.max(1, reminders.length)).toFixed(2)])),
      workerMemory: stack.workerMemory(),
      series,
      machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model, loadavg: loadavg(), node: process.version },
    };
    console.log(
      `\nbench:growth:reminders, engine ${options.engine === 'dev' ? 'temporal server start-dev (as npm start)' : 'go.temporal.io/server on Postgres'}: ${options.count} reminders of ${options.salons} salons due within ${options.windowSeconds} s, SMS_SEND_RATE_PER_SECOND=${options.rate}`,
    );
    console.log(
      `  at the gateway: ${reminders.length} reminder SMS to ${perPhone.size} phones, ${out.phonesRemindedTwice} phones twice; rows sent ${sentRows}; first to last ${spanS.toFixed(0)} s = ${out.achievedPerSecond.toFixed(2)}/s (the busiest second ${busiest}); the last ${out.lastSentAfterFirstDueSeconds.toFixed(0)} s after the first fell due`,
    );
    console.log(
      `  CPU ms per reminder (SMS and e-mail, from the first due to the last sent): ${Object.entries(out.cpuMsPerReminder)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}; worker memory ${JSON.stringify(out.workerMemory)}`,
    );
    console.log(
      `  ${options.count} at ${options.rate}/s need ${(options.count / options.rate / 60).toFixed(0)} min: ${out.withinTheHourAtThisRate ? 'within the hour' : 'NOT within the hour'}; each once ${reminders.length === options.count && out.phonesRemindedTwice === 0 ? 'OK' : 'MISSED'}   [machine: ${out.machine.cores} cores, load ${out.machine.loadavg}]`,
    );
    console.log(JSON.stringify({ ...out, series: undefined }));
    return out;
  } finally {
    await stack.stop();
    await gateway.close();
  }
}

/** The part's options from the command line (its own, and bench:growth's --part reminders). */
export function remindersOptions(args: string[]): RemindersOptions {
  return {
    count: Number(option(args, '--count') ?? 20_000),
    salons: Number(option(args, '--salons') ?? 1000),
    rate: Number(option(args, '--sms-rate') ?? option(args, '--rate') ?? 10),
    windowSeconds: Number(option(args, '--window-seconds') ?? 60),
    engine: option(args, '--engine') === 'production' ? 'production' : 'dev',
    leadSeconds: option(args, '--lead-seconds') ? Number(option(args, '--lead-seconds')) : undefined,
  };
}

if (require.main === module) {
  // a stopped bench still stops what it started (bench/growth/stack.ts kills its processes on exit)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  run(remindersOptions(process.argv.slice(2))).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
