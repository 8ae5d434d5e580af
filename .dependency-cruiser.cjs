// The layers of CONTRIBUTING.md ("The layers"), checked by `npm run lint` (so by `npm test`):
//   api -> domain -> db;  activities -> domain / integrations / db;  workflows -> domain rules + activity types;
//   nothing imports api/ except bin/ (and the tests); production entry points import nothing from devserver/.
// Type-only imports count too (tsPreCompilationDeps): a type import is still a dependency of the design.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import circles hide which module owns what.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'db-imports-nothing-above-it',
      severity: 'error',
      comment: 'db/ (knex, migrations, Objection models) is the bottom layer: it may not know the domain, the HTTP edge, Temporal code or the integrations.',
      from: { path: '^db/' },
      to: { path: '^(api|domain|activities|workflows|integrations|bin|devserver|seeds)/' },
    },
    {
      name: 'workflows-import-only-rules-and-activity-types',
      severity: 'error',
      comment: 'Workflows are deterministic: pure domain rules (*.rules.ts), other workflow files, activity types and the workflow SDK only.',
      from: { path: '^workflows/' },
      to: {
        pathNot: [
          '^workflows/',
          '^domain/.+\\.rules\\.ts$',
          '^activities/[^/]+\\.types\\.ts$',
          '^node_modules/@temporalio/workflow/',
        ],
      },
    },
    {
      name: 'only-bin-imports-api',
      severity: 'error',
      comment:
        'api/ is the HTTP edge: only the process entry points (bin/), the tests and the benchmarks start it. ' +
        'devserver/platform.ts is the one exception: it composes the api for npm start and the tests, as bin/ does in production.',
      from: { pathNot: ['^(api|bin|test|bench)/', '^devserver/platform\\.ts$'] },
      to: { path: '^api/' },
    },
    {
      name: 'domain-imports-nothing-above-it',
      severity: 'error',
      comment: 'The domain does not know HTTP, Temporal workflows or activities, the entry points or the dev stack; integrations implement its ports.',
      from: { path: '^domain/' },
      to: { path: '^(api|activities|workflows|bin|devserver|seeds)/' },
    },
    {
      name: 'objection-stays-in-db-and-repositories',
      severity: 'error',
      comment: 'Objection models live in db/ and are used only by domain/<area>/<area>.repository.ts, which return plain objects.',
      from: { pathNot: ['^db/', '\\.repository\\.ts$', '^test/'] },
      to: { path: ['^db/models/', '^node_modules/objection/'] },
    },
    {
      name: 'web-is-browser-code',
      severity: 'error',
      comment: 'web/ is the booking page bundle (docs/rules/booking-page.md): it reaches the platform through the generated API client only, never by importing server code.',
      from: { path: '^web/' },
      to: { path: '^(api|domain|db|activities|workflows|integrations|bin|devserver|config)/' },
    },
    {
      name: 'web-shared-is-pure',
      severity: 'error',
      comment: 'web/shared/ is imported by the server-rendered pages and by the bundle alike: pure modules that import nothing but each other.',
      from: { path: '^web/shared/' },
      to: { pathNot: ['^web/shared/'] },
    },
    {
      name: 'server-imports-only-web-shared',
      severity: 'error',
      comment: 'The server uses the shared texts and formatting of the customer pages (web/shared), never the browser code itself.',
      from: { path: '^(api|domain|db|activities|workflows|integrations|bin|devserver|config)/' },
      to: { path: '^web/', pathNot: '^web/shared/' },
    },
    {
      name: 'production-entry-points-import-no-devserver',
      severity: 'error',
      comment: 'bin/api, bin/worker and bin/migrate run in production (docker-compose.yml): nothing of the embedded dev stack, directly or through another module.',
      from: { path: '^bin/(api|worker|migrate)\\.ts$' },
      to: { path: '^devserver/', reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Node built-ins resolve as core modules; npm packages as node_modules/<name>/...
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.json', '.d.ts'] },
  },
};
