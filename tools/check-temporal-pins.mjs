// npm run lint: docker-compose.yml runs the Temporal server and UI that
// devstack/official-temporal/versions.json pins (the one place the versions are written; the
// official CLI, the Java test server and the Go-built server of the tests read it from there), and
// its temporal-namespace step registers the platform's search attributes
// (domain/workflow-signals/search-attributes.rules.ts, its `Name: 'Type'` lines).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pins = JSON.parse(fs.readFileSync(path.join(root, 'devstack/official-temporal/versions.json'), 'utf8'));
const compose = fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
const expected = { server: pins.server, 'admin-tools': pins.server, ui: pins.ui };
const problems = [];
const seen = new Set();
for (const [, name, tag] of compose.matchAll(/^\s*image:\s*temporalio\/([\w-]+):(\S+)\s*$/gm)) {
  seen.add(name);
  if (!(name in expected)) problems.push(`docker-compose.yml runs temporalio/${name}:${tag}; only temporalio/server, admin-tools and ui are pinned`);
  else if (tag !== expected[name]) problems.push(`docker-compose.yml runs temporalio/${name}:${tag}, but versions.json pins ${expected[name]}`);
}
for (const name of Object.keys(expected)) if (!seen.has(name)) problems.push(`docker-compose.yml runs no temporalio/${name} image`);
const rules = fs.readFileSync(path.join(root, 'domain/workflow-signals/search-attributes.rules.ts'), 'utf8');
const block = /PLATFORM_SEARCH_ATTRIBUTES = \{([^}]*)\}/.exec(rules)?.[1] ?? '';
const PLATFORM_SEARCH_ATTRIBUTES = Object.fromEntries([...block.matchAll(/^\s*(\w+): '(\w+)',/gm)].map(([, name, type]) => [name, type]));
if (!Object.keys(PLATFORM_SEARCH_ATTRIBUTES).length) problems.push('search-attributes.rules.ts: no search attribute found in PLATFORM_SEARCH_ATTRIBUTES');
const registered = Object.fromEntries(
  [...compose.matchAll(/search-attribute create --namespace default --name (\w+) --type (\w+)/g)].map(([, name, type]) => [name, type]),
);
for (const [name, type] of Object.entries(PLATFORM_SEARCH_ATTRIBUTES))
  if (registered[name] !== type) problems.push(`docker-compose.yml's temporal-namespace does not create the search attribute ${name} (${type})`);
for (const name of Object.keys(registered))
  if (!(name in PLATFORM_SEARCH_ATTRIBUTES))
    problems.push(`docker-compose.yml creates the search attribute ${name}, which search-attributes.rules.ts does not name`);
if (problems.length) {
  for (const p of problems) console.error(`check-temporal-pins: ${p}`);
  process.exit(1);
}
