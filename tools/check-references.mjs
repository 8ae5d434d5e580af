// `npm run lint:references`: the repository must make sense on a clone with nothing beside it.
// Fails on any reference to a document that does not ship with the repository (a path into the
// folder beside the checkout, numbered sections of an outside spec, architecture page or brief),
// on Markdown links to files that do not exist, and on citations of `docs/...md#anchor` whose file
// or heading does not exist. The rules the code relies on live in docs/ (see docs/design.md).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const self = path.relative(root, fileURLToPath(import.meta.url));

// Never scanned: installed, built or generated files.
const SKIP_DIRS = new Set(['node_modules', 'dist', '.data', '.git', 'coverage', '.temporal', '.schemathesis']);
const SKIP_FILES = new Set([self, 'package-lock.json']);
const TEXT = /\.(ts|mts|cts|js|mjs|cjs|md|ya?ml|json|sql|html|css|sh|txt)$|^(Dockerfile|\.dependency-cruiser\.cjs)$/;

/** Each pattern names a document that is not in the repository. */
const OUTSIDE = [
  { re: /\bspec(?:(?:'s)?\s+section)?\s+§?\s*\d+(?:\.\d+)*/gi, what: 'a numbered section of the outside spec' },
  { re: /\bspec\s+section\b/gi, what: 'a section of the outside spec' },
  { re: /\b(?:section|§)\s*\d+\.\d+/gi, what: 'a numbered section of an outside document' },
  { re: /ARCHITECTURE\.md/g, what: 'the outside architecture page' },
  { re: /\bbrief\s+(?:section\s+|§\s*)?\d+(?:\.\d+)*/gi, what: 'a section of an outside brief' },
  { re: /\/work\/shared\b/g, what: 'a path outside the repository' },
];

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const rel = path.relative(root, full).split(path.sep).join('/');
    if (entry.isDirectory()) {
      if (SKIP_DIRS.has(entry.name)) continue;
      walk(full, out);
    } else if (entry.isFile() && TEXT.test(entry.name) && !SKIP_FILES.has(rel)) {
      out.push(rel);
    }
  }
  return out;
}

/** GitHub's anchor of a Markdown heading. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map();
function anchorsOf(file) {
  if (!anchorCache.has(file)) {
    const seen = new Map();
    const anchors = new Set();
    let fenced = false;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (/^\s*```/.test(line)) fenced = !fenced;
      const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (!m) continue;
      const base = slug(m[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    anchorCache.set(file, anchors);
  }
  return anchorCache.get(file);
}

/** Why `target` (a path, maybe with #anchor, resolved against `fromDir`) is broken, or null. */
function brokenTarget(fromDir, target) {
  const [file, anchor] = target.split('#');
  const resolved = file ? path.resolve(fromDir, decodeURI(file)) : null;
  if (resolved && path.relative(root, resolved).startsWith('..')) return 'points outside the repository';
  if (resolved && !fs.existsSync(resolved)) return 'no such file in the repository';
  const doc = resolved ?? null;
  if (anchor && doc && doc.endsWith('.md') && !anchorsOf(doc).has(anchor)) return `no heading #${anchor} in ${path.relative(root, doc)}`;
  return null;
}

const problems = [];
for (const rel of walk(root, [])) {
  const text = fs.readFileSync(path.join(root, rel), 'utf8');
  const dir = path.dirname(path.join(root, rel));
  text.split('\n').forEach((line, i) => {
    const at = `${rel}:${i + 1}`;
    for (const { re, what } of OUTSIDE) {
      for (const m of line.matchAll(re)) problems.push(`${at}: "${m[0]}" cites ${what}; cite docs/ instead`);
    }
    // the folder beside the checkout (../shared/...; workflows/shared/ inside it is fine)
    for (const m of line.matchAll(/(?<![\w.])(?:\.\.\/)+shared\b[\w/.-]*/g)) {
      const resolved = path.resolve(dir, m[0]);
      const inside = !path.relative(root, resolved).startsWith('..');
      const exists = ['', '.ts', '.js', '.mjs'].some((ext) => fs.existsSync(resolved + ext));
      if (!inside || !exists) problems.push(`${at}: "${m[0]}" points outside the repository`);
    }
    // citations of the project's own docs: the file and the heading must exist
    for (const m of line.matchAll(/(?<![\w/.-])docs\/[\w/-]+\.md(?:#[\w-]+)?/g)) {
      const why = brokenTarget(root, m[0]);
      if (why) problems.push(`${at}: "${m[0]}" ${why}`);
    }
    // any other citation of a heading (a page outside docs/, with its anchor): named by its
    // path from the repository root, so a reader finds it from any file, and the heading must exist
    if (!rel.endsWith('.md')) {
      for (const m of line.matchAll(/(?<![\w/.-])(?!docs\/)[\w/.-]*\.md#[\w-]+/g)) {
        const why = brokenTarget(root, m[0]);
        if (why) problems.push(`${at}: "${m[0]}" ${why} (cite a heading by its file's path from the repository root)`);
      }
    }
    if (rel.endsWith('.md')) {
      for (const m of line.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1];
        if (/^(https?:|mailto:)/.test(target)) continue;
        const why = target.startsWith('#') ? brokenTarget(dir, `${path.basename(rel)}${target}`) : brokenTarget(dir, target);
        if (why) problems.push(`${at}: link "${target}" ${why}`);
      }
    }
  });
}

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} reference(s) to documents the repository does not hold. Write the rule into docs/ and cite that.`);
  process.exit(1);
}
