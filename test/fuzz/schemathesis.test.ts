// The contract says what the server does: Schemathesis (the pinned install of
// test/fuzz/schemathesis/install.ts) walks every operation of openapi.yaml against the shared test
// stack's app on loopback, with all its checks: no 5xx, every status, content type, header and body
// as the contract documents them, schema-valid requests accepted, invalid ones refused, auth not
// ignored. Its phases: the schema's examples, the coverage of every keyword (boundaries, missing and
// wrong-typed fields), and a bounded fuzz. Requests carry a salon owner's token (the platform admin's
// on the admin routes) and the salon's slug; Schemathesis also sends them without. The run fails on
// any failure not listed in schemathesis/accepted.ts (each with why), and prints what it did:
// operations, requests, time. SCHEMATHESIS_EXAMPLES=<n> sets the generated cases per operation
// (default below); SCHEMATHESIS_REPORT=<dir> keeps the reports (JUnit, NDJSON) there;
// SCHEMATHESIS_OPS=<regex> walks only the paths it matches.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { stack } from '../support/stack';
import { salonWithRoles } from '../support/salon-roles';
import { OPENAPI_PATH } from '../../api/openapi';
import { schemathesisInstalled, SCHEMATHESIS_CLI, SCHEMATHESIS_VERSION } from './schemathesis/install';
import { tokenFor } from '../support/factories';
import { activateSandbox, platformAdmin } from '../support/billing';
import { call } from '../support/http';
import { isAccepted, type ErrorDetail, type ReportedFailure } from './schemathesis/accepted';

/**
 * Generated cases per operation in the fuzzing phase. The coverage phase before it is not counted
 * by this: it sends every boundary, missing field and wrong type the schema defines, once each,
 * and holds most of the run's worth (and time). A few random cases on top of it find what the
 * boundaries do not, within the couple of minutes the run may add to the suite's stack lane.
 */
const EXAMPLES = Number(process.env.SCHEMATHESIS_EXAMPLES ?? 5);
const SEED = 20261202;

interface RunReport {
  operations: { total: number; tested: number };
  test_cases: { generated: number };
  errors: unknown[];
}

interface Check {
  status: string;
  failure_info?: { failure: { title: string; message: string } };
}

interface Interaction {
  request: { uri: string };
  response?: { status_code: number; content?: { $base64?: string } };
}

/** Every failed check of the run, from its NDJSON events (one ScenarioFinished per scenario). */
function failuresOf(ndjson: string): (ReportedFailure & { message: string })[] {
  const out: (ReportedFailure & { message: string })[] = [];
  for (const line of ndjson.split('\n').filter(Boolean)) {
    const finished = (JSON.parse(line) as { ScenarioFinished?: { recorder: Recorder } }).ScenarioFinished;
    if (!finished) continue;
    const { recorder } = finished;
    for (const [caseId, checks] of Object.entries(recorder.checks ?? {})) {
      for (const check of checks.filter((c) => c.status === 'failure' && c.failure_info)) {
        const interaction = recorder.interactions?.[caseId];
        const body = interaction?.response?.content?.$base64 ? Buffer.from(interaction.response.content.$base64, 'base64').toString('utf8') : '';
        let error: { code?: string; message?: string; details?: ErrorDetail[] } | undefined;
        try {
          error = (JSON.parse(body) as { error?: typeof error }).error;
        } catch {
          error = undefined;
        }
        out.push({
          title: check.failure_info!.failure.title,
          message: check.failure_info!.failure.message,
          operation: recorder.label,
          status: interaction?.response?.status_code ?? null,
          code: error?.code ?? null,
          errorMessage: error?.message ?? null,
          details: Array.isArray(error?.details) ? error.details : [],
          description: recorder.cases?.[caseId]?.value.meta?.phase?.data?.description ?? '',
          uri: interaction?.request.uri ?? '',
        });
      }
    }
  }
  return out;
}

interface Recorder {
  label: string;
  checks?: Record<string, Check[]>;
  interactions?: Record<string, Interaction>;
  cases?: Record<string, { value: { meta?: { phase?: { data?: { description?: string } } } } }>;
}

function toml(value: string): string {
  return JSON.stringify(value);
}

async function run(cli: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cli, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

describe('the contract, fuzzed by Schemathesis', function () {
  this.timeout(20 * 60_000);
  const ops = process.env.SCHEMATHESIS_OPS;
  // The run fuzzes the platform admin's routes too: it activates, rotates and deletes billing
  // configurations and switches the booking page served. What runs after it in the lane finds the
  // platform as it was: the sandbox configuration active, the platform settings as before.
  let bookingUiVersion: string | undefined;
  after(async () => {
    await activateSandbox();
    if (bookingUiVersion) {
      const res = await call('patch', '/superadmin/platform-settings', (await platformAdmin()).token, { bookingUiVersion });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  });

  it('when Schemathesis walks every operation with all its checks then it finds nothing outside the accepted exceptions', async () => {
    // installed by npm test's install step, never here: nothing is downloaded while the suite runs
    expect(schemathesisInstalled(), `Schemathesis ${SCHEMATHESIS_VERSION} is not installed: run npm run schemathesis:install`).to.equal(true);
    const { baseUrl } = await stack();
    const salon = await salonWithRoles();
    bookingUiVersion = (await call('get', '/superadmin/platform-settings', (await platformAdmin()).token)).body.data.bookingUiVersion;
    const signingOut = await tokenFor(salon.owner);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-schemathesis-'));
    const reportDir = process.env.SCHEMATHESIS_REPORT ?? path.join(dir, 'report');
    fs.writeFileSync(
      path.join(dir, 'schemathesis.toml'),
      [
        `seed = ${SEED}`,
        // two requests at once: the app and its database work while Schemathesis generates the next
        // case, and the machine has two cores
        `workers = 2`,
        // a date-time with the contract's year range (1900-2200) is a pattern over a format, which
        // Hypothesis meets by drawing and filtering: bodies with several of them (POST /bookings)
        // trip its "too much filtered" health check, which would end that operation's cases rather
        // than test them
        `suppress-health-check = ["filter_too_much"]`,
        `request-timeout = 10`,
        `[headers]`,
        `Authorization = ${toml(`Bearer ${salon.owner.token}`)}`,
        `[generation]`,
        `max-examples = ${EXAMPLES}`,
        // each failure is reported as found: shrinking it to its smallest form costs many requests,
        // and SCHEMATHESIS_OPS reruns one operation to look closer
        `no-shrink = true`,
        `[parameters]`,
        `"path.slug" = ${toml(salon.tenant.slug)}`,
        `"path.tenantSlug" = ${toml(salon.tenant.slug)}`,
        `[[operations]]`,
        `include-path-regex = "^/(superadmin|admin/superadmin)/"`,
        `headers = { Authorization = ${toml(`Bearer ${salon.admin.token}`)} }`,
        // Signing out ends the session of the token it is sent with: it gets a session of its own,
        // so the one every other operation uses lives through the run.
        `[[operations]]`,
        `include-path-regex = "^/auth/(customer/)?logout$"`,
        `headers = { Authorization = ${toml(`Bearer ${signingOut}`)} }`,
        // The front desk's long poll waits up to `wait` seconds when nothing changed: every case
        // would sit out its wait (test/api/desk/schedule-changes.test.ts tests the waiting).
        `[[operations]]`,
        `include-path = "/schedule/changes"`,
        `parameters = { "query.wait" = 0 }`,
      ].join('\n'),
    );
    const started = Date.now();
    // the app runs in this process: its CPU time is what serving the run cost, whatever the load
    const appCpu = process.cpuUsage();
    const { output } = await run(
      SCHEMATHESIS_CLI,
      [
        '--config-file',
        path.join(dir, 'schemathesis.toml'),
        'run',
        OPENAPI_PATH,
        '--url',
        `${baseUrl}/api`,
        '--checks',
        'all',
        '--phases',
        'examples,coverage,fuzzing',
        ...(ops ? ['--include-path-regex', ops] : []),
        '--no-color',
        '--report',
        'json,junit,ndjson',
        '--report-dir',
        reportDir,
      ],
      dir,
    );
    const seconds = (Date.now() - started) / 1000;
    const { user, system } = process.cpuUsage(appCpu);
    // the newest report of each kind (a kept SCHEMATHESIS_REPORT folder holds earlier runs too)
    const files = fs.existsSync(reportDir) ? fs.readdirSync(reportDir).sort().reverse() : [];
    const json = files.find((f) => f.startsWith('json') && f.endsWith('.json'));
    const ndjson = files.find((f) => f.endsWith('.ndjson'));
    expect(json && ndjson, `Schemathesis ${SCHEMATHESIS_VERSION} wrote no report:\n${output.slice(-4000)}`).to.be.a('string');
    const report = JSON.parse(fs.readFileSync(path.join(reportDir, json!), 'utf8')) as RunReport;
    const failures = failuresOf(fs.readFileSync(path.join(reportDir, ndjson!), 'utf8'));
    const accepted = failures.filter(isAccepted);
    console.log(
      `      schemathesis ${SCHEMATHESIS_VERSION}: ${report.operations.tested} of ${report.operations.total} operations, ${report.test_cases.generated} generated cases (${EXAMPLES} per operation in the fuzzing phase), ${seconds.toFixed(0)} s at load average ${os.loadavg()[0].toFixed(1)} (the app's CPU ${((user + system) / 1e6).toFixed(0)} s); ${accepted.length} accepted failures`,
    );
    const unexpected = [
      ...new Set(
        failures
          .filter((f) => !isAccepted(f))
          .map(
            (f) =>
              `${f.title}: ${f.operation} -> ${f.status} ${f.code ?? ''} ${f.errorMessage ?? ''} ${JSON.stringify(f.details)} (${f.description}; ${f.message.replace(/\n/g, ' | ')}) ${f.uri}`,
          ),
      ),
    ];
    expect(
      { errors: report.errors, unexpected },
      `Schemathesis errors (output below) or failures outside test/fuzz/schemathesis/accepted.ts (its reports: ${reportDir}):\n${unexpected.join('\n')}\n${report.errors.length ? output.slice(-6000) : ''}`,
    ).to.deep.equal({ errors: [], unexpected: [] });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
