// npm test's two lanes, side by side (the suites wait on Temporal, Postgres and processes far more
// than they use the two cores):
//   stack   npm run test:stack   every suite on the one embedded stack (api, browser, e2e, fuzz,
//                                integration, workflows, the HTTP edge)
//   apart   npm run lint, npm run temporal:build-server, npm run test:apart
//                                the lint, then the suites that need no stack: the unit tests and
//                                the production topology, fault, restart and npm start tests (their
//                                own processes on the run's Postgres, the Go-built Temporal server)
// Each line is prefixed with its lane; a lane stops at its first failing step, the other goes on.
// Exits 1 when a lane failed, after both ended, with each lane's steps and times.
import { spawn } from 'node:child_process';

const lanes = {
  stack: ['npm run --silent test:stack'],
  apart: ['npm run --silent lint', 'npm run --silent temporal:build-server', 'npm run --silent test:apart'],
};

const started = Date.now();
// The last lines of each lane, printed again after the summary when it failed: the lanes interleave,
// and a failed lane's mocha report would otherwise sit far above the end of the run's output.
const tails = { stack: [], apart: [] };
const tailLength = 60;
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

function runStep(lane, command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const prefix = `[${lane}] `;
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let rest = '';
      from.on('data', (chunk) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop();
        for (const line of lines) {
          to.write(prefix + line + '\n');
          tails[lane].push(line);
          if (tails[lane].length > tailLength) tails[lane].shift();
        }
      });
      from.on('end', () => rest && to.write(prefix + rest + '\n'));
    }
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function runLane(lane, steps) {
  const report = [];
  for (const command of steps) {
    const t0 = Date.now();
    const code = await runStep(lane, command);
    report.push(`${command} ${code === 0 ? 'passed' : `FAILED (${code})`} in ${seconds(t0)}`);
    if (code !== 0) return { lane, ok: false, report, ms: Date.now() - started };
  }
  return { lane, ok: true, report, ms: Date.now() - started };
}

const results = await Promise.all(Object.entries(lanes).map(([lane, steps]) => runLane(lane, steps)));
console.log(`\nnpm test lanes (${seconds(started)} in all):`);
for (const r of results) console.log(`  ${r.lane}: ${r.ok ? 'passed' : 'FAILED'} after ${(r.ms / 1000).toFixed(0)} s\n    ${r.report.join('\n    ')}`);
for (const r of results.filter((r) => !r.ok)) {
  console.log(`\nthe last ${tails[r.lane].length} lines of the ${r.lane} lane, which failed:`);
  for (const line of tails[r.lane]) console.log(`  [${r.lane}] ${line}`);
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
