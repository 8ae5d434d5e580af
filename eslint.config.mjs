// Lint rules the architecture relies on (CONTRIBUTING.md): no floating promises anywhere, queries
// only in repositories and db/, time from the injected clock in domain/, and workflows fenced from
// Node built-ins and from code that does I/O, so they stay deterministic. The project's own rules
// are in lint/salon-rules.mjs.
import tseslint from 'typescript-eslint';
import salon from './lint/salon-rules.mjs';

const nodeBuiltins = ['fs', 'path', 'os', 'crypto', 'http', 'https', 'net', 'child_process', 'worker_threads', 'dns', 'stream', 'zlib', 'timers'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', '.temporal/**'] },
  // Files may carry directives for rules this config does not turn on.
  { linterOptions: { reportUnusedDisableDirectives: 'off' } },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin, salon },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  // No globally bound models. Every Objection query gets the pool or the
  // transaction (Model.query(db)); test/ may use the test stack's binding.
  {
    files: ['api/**/*.ts', 'domain/**/*.ts', 'db/**/*.ts', 'activities/**/*.ts', 'integrations/**/*.ts', 'bin/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='query'][arguments.length=0]", message: 'Pass the database handle: Model.query(db).' },
        {
          selector: 'CallExpression[callee.object.name=/Model$/][callee.property.name=/^(knex|transaction|bindKnex)$/]',
          message: 'No globally bound models: services open their transaction with db.transaction().',
        },
      ],
    },
  },
  {
    // One data-access style (CONTRIBUTING.md#data-access): every query (a model's query(), the knex
    // builder, raw SQL) lives in a domain/<area>/*.repository.ts or in db/. Everywhere else a Db
    // handle may only open a transaction, be passed on, or (the pool) be destroyed.
    files: [
      'api/**/*.ts',
      'domain/**/*.ts',
      'activities/**/*.ts',
      'integrations/**/*.ts',
      'bin/**/*.ts',
      'devstack/**/*.ts',
      'config/**/*.ts',
      'workflows/**/*.ts',
    ],
    ignores: ['**/*.repository.ts'],
    rules: { 'salon/queries-in-repositories': 'error' },
  },
  {
    // Time (CONTRIBUTING.md#time): domain code reads the injected clock (deps.now, nowOf) or takes
    // `now` as a parameter; no argument-less new Date() and no Date.now(). The one exception is
    // domain/time/clock.ts's systemClock, marked where it stands.
    files: ['domain/**/*.ts'],
    rules: { 'salon/injected-clock': 'error' },
  },
  {
    // The dev stack works on typed Temporal and provider messages, not `any`.
    files: ['devstack/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins
            .flatMap((name) => [name, `node:${name}`])
            .map((name) => ({ name, message: 'Workflows must be deterministic: no Node built-ins.' })),
          patterns: [
            { group: ['**/db/**', '**/api/**', '**/integrations/**', 'knex', 'objection', 'pg'], message: 'Workflows do no I/O: call an activity instead.' },
            { group: ['**/activities/*', '!**/activities/*.types'], message: 'Workflows import activity types only (activities/*.types).' },
            { group: ['**/domain/**/*.service', '**/domain/**/*.repository'], message: 'Workflows import pure domain rules only.' },
          ],
        },
      ],
    },
  },
  {
    // A skipped or focused test is not a passing one: every test runs on every machine, every day.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.type='ThisExpression'][callee.property.name='skip']",
          message: 'No skipped tests: make the test independent of the clock or machine instead.',
        },
        {
          selector: 'CallExpression[callee.object.name=/^(it|describe|context|specify)$/][callee.property.name=/^(skip|only)$/]',
          message: 'No skipped or focused tests.',
        },
        { selector: 'CallExpression[callee.name=/^(xit|xdescribe)$/]', message: 'No skipped tests.' },
      ],
    },
  },
);
