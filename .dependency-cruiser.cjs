// Layer rules, checked by `npm run lint` (depcruise core server widget demo bench scripts).
// Paths are relative to the repository root. Type-only imports count: a layer may not lean on another's types either.

// Colocated unit tests (*.test.ts under core/ and server/) run in Node under Vitest, next to the code they pin.
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
      name: 'provider-not-to-checkout-or-sandbox',
      comment:
        'server/provider/ is the typed client of the partner API, exported on its own (package.json "./provider"): it must not ' +
        'know the BFF (server/bff/, server/payments/, server/backoffice/) or the emulator (server/sandbox/) that are built on it.',
      severity: 'error',
      from: { path: '^server/provider/' },
      to: { path: '^server/(bff|payments|backoffice|sandbox)/' },
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
