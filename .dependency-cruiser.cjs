// The layers of CONTRIBUTING.md ("The layers"), checked by `npm run lint` (so by `npm test`). From the
// top: the entry points (bin/) and the embedded dev stack (devstack/); the composition root
// (composition/); the HTTP edge (api/), the workflows (workflows/) and their side effects
// (activities/); the adapters (integrations/), which implement the domain's ports; the domain
// (domain/); and at the bottom db/ and config/. Imports run down, never up or in a circle.
// Type-only imports count too (tsPreCompilationDeps): a type import is still a dependency of the design.

// The order of domain areas (CONTRIBUTING.md, "The order of domain areas"), from the bottom up: an
// area imports the areas before it in this list, never one after it. What a lower area needs from an
// upper one is a port it declares (BookingHooks, TenantHooks, ResourceHooks, UploadHooks) that the
// composition root fills (composition/domain-hooks.ts). The files at domain/'s root (errors.ts,
// defined-fields.ts) count as areas. `series` has its place before it has its folder.
const DOMAIN_AREAS = [
  // foundations
  'errors',
  'defined-fields',
  'time',
  'phone',
  'language',
  'money',
  'crypto',
  'workflow-signals',
  'health',
  'platform',
  // accounts and the salon
  'users',
  'tax',
  'upload',
  'tenant',
  'billing',
  // what is booked and who books it
  'catalogue',
  'resource',
  'availability',
  'customer',
  'booking',
  'series',
  'rebooking',
  // what reacts to bookings
  'payments',
  'loyalty',
  'waitlist',
  'notifications',
  // signing in, and the areas that compose the others
  'auth',
  'customer-account',
  'personal-data',
  'impersonation',
  'public',
  'desk',
  'demo',
];
const areaPath = (areas) => `^domain/(${areas.join('|')})(/|\\.ts$)`;
const domainOrder = [
  ...DOMAIN_AREAS.slice(0, -1).map((area, i) => ({
    name: `domain-order-${area}`,
    severity: 'error',
    comment:
      `domain/${area} imports only the areas before it in the order of domain areas (CONTRIBUTING.md#the-order-of-domain-areas). ` +
      'What it needs from an area after it is a port it declares (an interface the composition root fills, composition/domain-hooks.ts), not an import.',
    from: { path: areaPath([area]) },
    to: { path: areaPath(DOMAIN_AREAS.slice(i + 1)) },
  })),
  ...[
    { from: { path: '^domain/', pathNot: areaPath(DOMAIN_AREAS) }, to: { path: '.' } },
    { from: { path: '^domain/' }, to: { path: '^domain/', pathNot: areaPath(DOMAIN_AREAS) } },
  ].map((rule) => ({
    name: 'domain-area-has-its-place',
    severity: 'error',
    comment: 'Every folder (and root file) of domain/ has its place in DOMAIN_AREAS above and in CONTRIBUTING.md#the-order-of-domain-areas.',
    ...rule,
  })),
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...domainOrder,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import circles hide which module owns what.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'config-imports-nothing-of-the-platform',
      severity: 'error',
      comment: 'config/ reads the environment; every layer may read it, so it reads no layer.',
      from: { path: '^config/' },
      to: { path: '^(api|domain|activities|workflows|integrations|composition|db|bin|devstack)/' },
    },
    {
      name: 'db-imports-nothing-above-it',
      severity: 'error',
      comment: 'db/ (knex, migrations, Objection models) is the bottom layer: it may not know the domain, the HTTP edge, Temporal code or the integrations.',
      from: { path: '^db/' },
      to: { path: '^(api|domain|activities|workflows|integrations|composition|bin|devstack|seeds)/' },
    },
    {
      name: 'domain-imports-nothing-above-it',
      severity: 'error',
      comment:
        'The domain owns its ports (EntitySignaller, Mailer, ObjectStorage, PaymentProvider...); integrations/ implement them. It knows no HTTP, Temporal code, adapter, composition or dev stack.',
      from: { path: '^domain/' },
      to: { path: '^(api|activities|workflows|integrations|composition|bin|devstack|seeds)/' },
    },
    {
      name: 'integrations-implement-domain-ports',
      severity: 'error',
      comment: 'Adapters import the domain (its ports and types), db/ and config/, never the layers that use them.',
      from: { path: '^integrations/' },
      to: { path: '^(api|activities|workflows|composition|bin|devstack)/' },
    },
    {
      name: 'activities-import-no-edge',
      severity: 'error',
      comment: 'Activities do the side effects of workflows over the domain and the adapters; they know no HTTP edge, workflow code, composition or dev stack.',
      from: { path: '^activities/' },
      to: { path: '^(api|workflows|composition|bin|devstack)/' },
    },
    {
      name: 'workflows-import-only-rules-and-activity-types',
      severity: 'error',
      comment: 'Workflows are deterministic: pure domain rules (*.rules.ts), other workflow files, activity types and the workflow SDK only.',
      from: { path: '^workflows/' },
      to: {
        pathNot: ['^workflows/', '^domain/.+\\.rules\\.ts$', '^activities/[^/]+\\.types\\.ts$', '^node_modules/@temporalio/workflow/'],
      },
    },
    {
      name: 'rules-stay-pure',
      severity: 'error',
      comment:
        'A *.rules.ts file is pure (CONTRIBUTING.md#files-and-their-roles): no Node built-in, no database layer, no repository, service or adapter (their types excepted), so a workflow may import it.',
      from: { path: '^domain/.+\\.rules\\.ts$' },
      to: { dependencyTypesNot: ['type-only'], path: ['^db/', '^integrations/', '\\.repository\\.ts$', '\\.service\\.ts$'] },
    },
    {
      name: 'rules-use-no-node-built-ins',
      severity: 'error',
      comment: 'A *.rules.ts file runs inside a workflow too: no Node built-in (crypto, fs, ...): an id or a hash comes from its caller.',
      from: { path: '^domain/.+\\.rules\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'api-reaches-adapters-through-its-deps',
      severity: 'error',
      comment:
        'api/ gets its adapters from AppDeps (the composition root fills them in); it imports the domain, db/ and config/, and the logger, nothing else below or beside it.',
      from: { path: '^api/' },
      to: { path: '^(activities|workflows|composition|bin|devstack)/|^integrations/(?!logger\\.ts$)' },
    },
    {
      name: 'only-the-composition-root-builds-the-api',
      severity: 'error',
      comment: 'api/ is the HTTP edge: the composition root, the entry points, the tests and the benchmarks start it; nothing below them imports it.',
      from: { pathNot: ['^(api|composition|bin|test|bench)/'] },
      to: { path: '^api/' },
    },
    {
      name: 'composition-knows-no-entry-point-or-dev-stack',
      severity: 'error',
      comment: 'The composition root is what production runs: it imports no entry point and nothing of the embedded dev stack.',
      from: { path: '^composition/' },
      to: { path: '^(bin|devstack)/' },
    },
    {
      name: 'nothing-imports-an-entry-point',
      severity: 'error',
      comment: 'bin/ holds process entry points: what they share lives in composition/ (or bin/process.ts for the entry points themselves).',
      from: { pathNot: '^bin/' },
      to: { path: '^bin/' },
    },
    {
      name: 'objection-stays-in-db-and-repositories',
      severity: 'error',
      comment: 'Objection models live in db/ and are used only by domain/<area>/*.repository.ts, which return plain objects (CONTRIBUTING.md#data-access).',
      from: { pathNot: ['^db/', '\\.repository\\.ts$', '^test/'] },
      to: { path: ['^db/models/', '^node_modules/objection/'] },
    },
    {
      name: 'knex-stays-in-db',
      severity: 'error',
      comment:
        "One data-access style (CONTRIBUTING.md#data-access): knex is db/'s. Everything above it takes the one Db type (db/db-handle.ts: Db, Transaction, DbPool) " +
        'and queries through a repository; the tests may use knex directly to set up and assert rows.',
      from: { pathNot: ['^db/', '^test/'] },
      to: { path: '^node_modules/knex/' },
    },
    {
      name: 'web-is-browser-code',
      severity: 'error',
      comment:
        'web/ is the booking page bundle (docs/rules/booking-page.md): it reaches the platform through the generated API client only, never by importing server code.',
      from: { path: '^web/' },
      to: { path: '^(api|domain|db|activities|workflows|integrations|bin|composition|devstack|config)/' },
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
      from: { path: '^(api|domain|db|activities|workflows|integrations|bin|composition|devstack|config)/' },
      to: { path: '^web/', pathNot: '^web/shared/' },
    },
    {
      name: 'only-the-customer-pages-use-web-shared',
      severity: 'error',
      comment:
        'Of the server, only the customer pages the api renders (api/pages/) share texts and formatting with the booking page (web/shared/); CONTRIBUTING.md#the-layers.',
      from: { path: '^(api|domain|db|activities|workflows|integrations|bin|composition|devstack|config)/', pathNot: '^api/pages/' },
      to: { path: '^web/shared/' },
    },
    {
      name: 'production-entry-points-import-no-devstack',
      severity: 'error',
      comment:
        'bin/api, bin/worker and bin/migrate run in production (docker-compose.yml): nothing of the embedded dev stack, directly or through another module.',
      from: { path: '^bin/(api|worker|migrate)\\.ts$' },
      to: { path: '^devstack/', reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: '^(dist|node_modules|\\.data|\\.temporal)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Node built-ins resolve as core modules; npm packages as node_modules/<name>/...
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.json', '.d.ts'],
    },
  },
};
