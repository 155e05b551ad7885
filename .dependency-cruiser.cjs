// Layer rules, checked by `npm run lint` (depcruise core server widget console demo bench scripts).
// Paths are relative to the repository root. Type-only imports count: a layer may not lean on another's types either.

// Inside server/, from the inside out: lib/ (no domain) → provider/ and store/ → payments/ (the lifecycle, no HTTP) →
// http/ (the middleware the HTTP layers share) → bff/ and backoffice/ (the two HTTP APIs) → node/ (what talks to
// Node's http) → server.ts, main.ts, doctor.ts (composition roots). sandbox/ (the emulator) stands beside them, on
// provider/ and lib/. Each folder's README.md says the same in words.

// Colocated unit tests (*.test.ts under core/ and server/) run in Node under Vitest, next to the code they pin. They
// follow the layer rules of the folder they sit in; only the Node built-in and test/ rules exempt them.
const UNIT_TEST = '\\.test\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'widget-not-to-server-or-demo',
      comment:
        "widget/ is the drop-in <pix-checkout> element that runs in the shopper's browser: it talks to the BFF over HTTP only. " +
        'Shared rules (money, CPF, states, methods) belong in core/; nothing from server/ or demo/.',
      severity: 'error',
      from: { path: '^widget/' },
      to: { path: '^(server|demo)/' },
    },
    {
      name: 'console-core-only',
      comment:
        "console/ is the merchant console's page (Lit elements, served by the product at /admin): it talks to the back office " +
        'over HTTP only, and reads its answers through the contract in core/backoffice/ (the declared views the server ' +
        'builds them against). It imports core/, Lit and itself: nothing of server/, not even a type, nor of demo/ (the ' +
        "sandbox controls are the demo's sandbox portal) or widget/.",
      severity: 'error',
      from: { path: '^console/' },
      to: { path: '^(server|demo|widget)/' },
    },
    {
      name: 'core-not-to-outer-layers',
      comment:
        'core/ is the innermost layer, used alike by the server, the element and the demo: it may import only itself ' +
        '(and npm packages), never widget/, server/ or demo/.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(widget|server|demo)/' },
    },
    {
      name: 'core-not-to-node-builtins',
      comment:
        'core/ also runs in the browser (inside the element and the demo pages): no node: or other Node built-in modules. ' +
        'Its unit tests run in Node and are exempt.',
      severity: 'error',
      from: { path: '^core/', pathNot: UNIT_TEST },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'server-not-to-demo',
      comment:
        'server/ is the product a merchant deploys; demo/ is a composition built on top of it. The product never imports the demo ' +
        '(demo/main.ts plugs its orders and pages in from outside).',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^demo/' },
    },
    {
      name: 'provider-not-to-server-layers',
      comment:
        'server/provider/ is the typed client of the partner API, exported on its own (package.json "./provider"): it must not ' +
        'know the payment lifecycle (server/payments/), the HTTP APIs (server/bff/, server/backoffice/) or the emulator ' +
        '(server/sandbox/), which are all built on it.',
      severity: 'error',
      from: { path: '^server/provider/' },
      to: { path: '^server/(bff|payments|backoffice|sandbox|http|node)/' },
    },
    {
      name: 'payments-not-to-http',
      comment:
        'server/payments/ is the payment lifecycle without HTTP (checkout service, recovery, reconciler, cash-out desk, saga): ' +
        'the BFF and the back office call it, not the other way round. No HTTP framework (hono, @hono/*), nothing from the HTTP ' +
        'layers (server/http/, server/node/, server/bff/, server/backoffice/), the emulator (server/sandbox/) or the files at ' +
        'the root of server/ (config.ts and the composition roots server.ts, main.ts, doctor*.ts, ...: settings are passed ' +
        'in). Refusals are values here (errors.ts); server/http/ writes them out.',
      severity: 'error',
      from: { path: '^server/payments/' },
      to: {
        path: ['(^|/)node_modules/(hono|@hono/[^/]+)/', '^server/(http|node|bff|backoffice|sandbox)/', '^server/[^/]+\\.ts$'],
      },
    },
    {
      name: 'store-not-to-upper-layers',
      comment:
        'server/store/ is persistence (SQLite and PostgreSQL behind one interface, and the status hub): it executes the plans ' +
        'of the checkout state machine in core/ and may import core/, server/lib/ and itself. It never imports the lifecycle ' +
        '(server/payments/), the HTTP APIs (server/bff/, server/backoffice/), the emulator (server/sandbox/) or the files at ' +
        'the root of server/ (config.ts and the composition roots: settings are passed in) that are built on it.',
      severity: 'error',
      from: { path: '^server/store/' },
      to: {
        path: ['^server/(payments|http|node|bff|backoffice|sandbox)/', '^server/[^/]+\\.ts$'],
      },
    },
    {
      name: 'http-not-to-apis',
      comment:
        'server/http/ is the middleware the HTTP layers share (security headers, origins and CORS, client address, rate and ' +
        'stream limits, the JSON body, the error envelope): the BFF, the back office and the demo put it in front of their ' +
        'routes. It knows no route and no API of its own: nothing from server/bff/, server/backoffice/, server/node/, the ' +
        'emulator, the store, the provider client, the accounts or the merchant webhooks, nor the files at the root of ' +
        'server/; of the payment lifecycle only the refusals it writes out (server/payments/errors.ts).',
      severity: 'error',
      from: { path: '^server/http/' },
      to: {
        path: [
          '^server/(bff|backoffice|node|sandbox|store|provider|accounts|merchant-webhooks)/',
          '^server/payments/(?!errors\\.ts$)',
          '^server/[^/]+\\.ts$',
        ],
      },
    },
    {
      name: 'node-not-to-apis',
      comment:
        "server/node/ holds what talks to Node's http directly: the listener, the fast webhook route, the raw body writer. " +
        'It runs what the composition root hands it (the app, the webhook receiver) and reaches routes only through what ' +
        'it registers on each request (server/http/raw-body.ts): nothing from the APIs (server/bff/, server/backoffice/), ' +
        'the emulator, the store, the provider client, the accounts, the merchant webhooks or the files at the root of server/.',
      severity: 'error',
      from: { path: '^server/node/' },
      to: {
        path: ['^server/(bff|backoffice|sandbox|store|provider|accounts|merchant-webhooks)/', '^server/[^/]+\\.ts$'],
      },
    },
    {
      name: 'sandbox-not-to-product',
      comment:
        "server/sandbox/ is the emulator of the provider's partner API, mounted only by the demo: it stands on core/, " +
        'server/lib/ (the JSON safety scans among them) and the provider schemas (server/provider/), and knows nothing of ' +
        'the product built on them: no payment lifecycle, store, HTTP layer of ours, accounts or merchant webhooks, nor ' +
        'the files at the root of server/.',
      severity: 'error',
      from: { path: '^server/sandbox/' },
      to: {
        path: ['^server/(payments|store|http|node|bff|backoffice|accounts|merchant-webhooks)/', '^server/[^/]+\\.ts$'],
      },
    },
    {
      name: 'bff-not-to-backoffice-or-sandbox',
      comment:
        "server/bff/ is the shoppers' HTTP API. It does not know the merchant's API (server/backoffice/), the emulator " +
        "(server/sandbox/) nor Node's transport (server/node/): the composition root (server/server.ts) mounts the APIs " +
        'side by side and hands the listener what it runs, and the sandbox is reached over HTTP through server/provider/ ' +
        'like the real partner.',
      severity: 'error',
      from: { path: '^server/bff/' },
      to: { path: '^server/(backoffice|sandbox|node)/' },
    },
    {
      name: 'backoffice-not-to-sandbox-or-shopper-api',
      comment:
        "server/backoffice/ is the merchant's HTTP API, built on server/payments/ and server/store/, behind the same middleware " +
        "as the shoppers' (server/http/). Nothing of the shoppers' API (server/bff/) or of Node's transport (server/node/), " +
        'and the emulator (server/sandbox/) is reached only through server/provider/.',
      severity: 'error',
      from: { path: '^server/backoffice/' },
      to: { path: '^server/(sandbox|bff|node)/' },
    },
    {
      name: 'merchant-webhooks-not-to-http-or-lifecycle',
      comment:
        "server/merchant-webhooks/ delivers the merchant's events the store already committed, as signed webhooks: it may " +
        'use core/, server/lib/ and server/store/, never the HTTP layers (http, node, bff, backoffice), the payment ' +
        'lifecycle (payments) or the emulator.',
      severity: 'error',
      from: { path: '^server/merchant-webhooks/' },
      to: { path: '^server/(http|node|bff|backoffice|payments|sandbox)/' },
    },
    {
      name: 'accounts-not-to-http-or-sandbox',
      comment:
        "server/accounts/ holds the console's users, password hashes, sessions, sign-in brake and audit recorder, without " +
        'HTTP: the back office (server/backoffice/) and the CLI (server/admin-cli.ts) call it. It never imports the HTTP APIs ' +
        '(server/http/, server/node/, server/bff/, server/backoffice/), the emulator (server/sandbox/), an HTTP framework or ' +
        'the files at the root of server/.',
      severity: 'error',
      from: { path: '^server/accounts/' },
      to: { path: ['^server/(http|node|bff|backoffice|sandbox)/', '(^|/)node_modules/(hono|@hono/[^/]+)/', '^server/[^/]+\\.ts$'] },
    },
    {
      name: 'lib-not-to-domain',
      comment:
        'server/lib/ holds helpers with no domain (clock, limits, HTTP client, secrets, node-body, JSON safety, WAL ' +
        'checkpointer, QR encoder): every server folder may use them, so they import none of the other server folders, nor ' +
        'the .ts files at the root of server/ (config, composition roots), nor the shared domain in core/. A helper that ' +
        'needs one of those belongs in that folder.',
      severity: 'error',
      from: { path: '^server/lib/' },
      to: {
        path: [
          '^server/(payments|http|node|bff|backoffice|store|provider|sandbox|accounts|merchant-webhooks)/',
          '^server/[^/]+\\.ts$',
          '^core/',
        ],
      },
    },
    {
      name: 'not-to-test',
      comment:
        'Test helpers and fixtures under test/ are not part of the product: nothing outside test/ may import them. ' +
        'Exempt: colocated *.test.ts unit tests, and bench/ (the benchmarks drive the same in-process server harness as the tests).',
      severity: 'error',
      from: { pathNot: ['^test/', '^bench/', UNIT_TEST] },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      comment:
        'This import is part of a cycle. Cycles make module initialisation order matter and keep layers from being separated: ' +
        'move what both sides need into a module of its own (or into core/). A cycle through type-only imports is ' +
        'erased by the compiler, so it is allowed.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'This import cannot be resolved to a file: a typo, a moved module, or an npm package missing from package.json.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Static assets (demo/public) and build output are no modules of ours.
    exclude: { path: '^(dist|coverage|data|demo/public)/' },
    // Keep `import type` edges: the layer rules above are about types as well as values.
    tsPreCompilationDeps: true,
    // Resolves like tsc does (moduleResolution Bundler): extensionless imports and `.js`-suffixed imports of .ts files.
    tsConfig: { fileName: 'tsconfig.json' },
    // npm packages resolve through their package.json "exports" (hono/cors, vite, @hono/node-server/serve-static, ...).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
