// `npm run lint:contract-compat`: the contract (openapi.yaml) against the last released one
// (docs/api/openapi.released.yaml). Fails on a change that breaks a consumer of a released
// operation: a removed operation, response property or status code, a new required parameter or
// request property, a narrowed type or enum, and the like (Optic's breaking-changes rules, run by
// the @useoptic/optic CLI). New operations, new optional fields and everything under a new version
// prefix (/api/v2/...) pass. docs/api/README.md#versions-and-breaking-changes has the policy.
//
//   node tools/check-contract-compat.mjs                  openapi.yaml against the released snapshot
//   node tools/check-contract-compat.mjs BASE HEAD        any two contracts (the unit test's fixtures)
//   node tools/check-contract-compat.mjs --release        check, then make openapi.yaml the released one
//
// Optic takes about 20 s of CPU on our contract, so a pass is remembered (node_modules/.cache) by
// the bytes of both contracts, the rules and the Optic version; `npm ci` starts without it, and
// --no-cache neither reads nor writes it.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const RELEASED = path.join(root, 'docs/api/openapi.released.yaml');
const CURRENT = path.join(root, 'openapi.yaml');
const CHANGELOG = path.join(root, 'docs/api/changelog.md');
const RULES = path.join(root, 'tools/contract-breaking-changes.yml');
const CACHE_DIR = path.join(root, 'node_modules/.cache/contract-compat');
const rel = (file) => path.relative(process.cwd(), file) || file;

const args = process.argv.slice(2);
const release = args.includes('--release');
const cache = !args.includes('--no-cache');
const files = args.filter((a) => !a.startsWith('--'));
if (files.length !== 0 && files.length !== 2) {
  console.error('usage: check-contract-compat.mjs [--release] [--no-cache] [BASE HEAD]');
  process.exit(2);
}
const [base, head] = files.length === 2 ? files.map((f) => path.resolve(f)) : [RELEASED, CURRENT];
const againstRelease = base === RELEASED;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `METHOD /path` -> operationId of every operation of a contract. */
function operationIds(file) {
  const ids = new Map();
  for (const [route, item] of Object.entries(YAML.parse(fs.readFileSync(file, 'utf8'))?.paths ?? {})) {
    for (const method of METHODS) if (item?.[method]) ids.set(`${method.toUpperCase()} ${route}`, item[method].operationId);
  }
  return ids;
}

function versionOf(file) {
  return String(YAML.parse(fs.readFileSync(file, 'utf8'))?.info?.version ?? '');
}

/** Whether the changelog has a `## <version>` heading. */
function inChangelog(version) {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^## ${escaped}(\\s|$)`, 'm').test(fs.readFileSync(CHANGELOG, 'utf8'));
}

function newer(a, b) {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return false;
}

if (againstRelease) {
  const released = versionOf(RELEASED);
  if (!inChangelog(released)) {
    console.error(`${rel(RELEASED)} is version ${released}, which ${rel(CHANGELOG)} does not describe: add a "## ${released}" section.`);
    process.exit(1);
  }
}

// Generated clients name their methods after the operation ids, so renaming one breaks a consumer's
// code; Optic does not look at them. (A removed operation is Optic's to report.)
const headIds = operationIds(head);
const renamed = [...operationIds(base)].filter(([op, id]) => id && headIds.has(op) && headIds.get(op) !== id);
if (renamed.length) {
  for (const [op, id] of renamed) console.error(`${op}: operationId ${id} became ${headIds.get(op) ?? '(none)'}`);
  console.error(`\n${rel(head)} renames operation ids of ${rel(base)}: generated clients call them by name, so keep them.`);
  process.exit(1);
}

const opticPackage = require.resolve('@useoptic/optic/package.json');
const opticVersion = JSON.parse(fs.readFileSync(opticPackage, 'utf8')).version;
const key = crypto.createHash('sha256');
for (const part of [fs.readFileSync(base), fs.readFileSync(head), fs.readFileSync(RULES), opticVersion]) key.update(part).update('\0');
const passed = path.join(CACHE_DIR, key.digest('hex'));

if (!cache || !fs.existsSync(passed)) {
  const { bin } = JSON.parse(fs.readFileSync(opticPackage, 'utf8'));
  const optic = path.join(path.dirname(opticPackage), typeof bin === 'string' ? bin : bin.optic);
  const run = spawnSync(process.execPath, [optic, 'diff', base, head, '--check', '--standard', RULES], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, OPTIC_TELEMETRY_LEVEL: 'off', NO_COLOR: '1' },
  });
  if (run.status !== 0) {
    process.stderr.write(run.stdout + run.stderr);
    console.error(
      `\n${rel(head)} breaks consumers of the contract in ${rel(base)} (the breaking changes are marked x above).` +
        (againstRelease
          ? ` A released operation keeps its shape: make the change under a new version prefix (/api/v2/...) and keep the old operation for 6 months (docs/api/README.md#versions-and-breaking-changes).`
          : ''),
    );
    process.exit(1);
  }
  if (cache) {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    fs.writeFileSync(passed, `${rel(base)} -> ${rel(head)}: no breaking change (Optic ${opticVersion})\n`);
  }
}
console.log(`${rel(head)}: no breaking change against ${rel(base)}${againstRelease ? ` (released version ${versionOf(base)})` : ''}`);

if (release) {
  const [from, to] = [versionOf(RELEASED), versionOf(CURRENT)];
  if (!newer(to, from)) {
    console.error(`To release, raise info.version in ${rel(CURRENT)} above the released ${from} (now ${to}).`);
    process.exit(1);
  }
  if (!inChangelog(to)) {
    console.error(`To release ${to}, describe it in ${rel(CHANGELOG)} first: a "## ${to}" section.`);
    process.exit(1);
  }
  fs.copyFileSync(CURRENT, RELEASED);
  console.log(`${rel(RELEASED)} is now version ${to}: commit it with the changelog.`);
}
