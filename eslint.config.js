// ESLint flat config. Prettier owns formatting, so no stylistic rule is turned on here; these rules look for bugs.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ELEMENTS = ['widget/**/*.ts', 'console/**/*.ts'];
/** The element's tests, in the browser under mocha: its unit tests beside its modules, its component tests under test/. */
const WIDGET_TESTS = ['widget/**/*.test.ts', 'test/widget/**/*.ts'];
/** The runner's Node middleware for the element tests (the fake BFF), not page code. */
const FAKE_BFF = ['test/widget/fake-bff.mjs', 'test/widget/fake-bff.ts'];
const BROWSER = ['widget/**', 'console/**', 'demo/pages/**', 'demo/public/**', 'test/widget/**'];
const NODE = [
  'server/**',
  'scripts/**',
  'bench/**',
  'test/server/**',
  'test/e2e/**',
  'demo/*.ts',
  ...FAKE_BFF,
  'core/**/*.test.ts',
  // The config files at the root.
  '*.{js,mjs,cjs,ts}',
];
const TESTS = ['test/**', '**/*.test.ts'];
/** What opens a store and so holds the whole of it (server/store/types.ts `Store`): the bench's store builders (tests build theirs too). */
const STORE_BUILDERS = ['bench/lib/console-stores.ts', 'bench/lib/share-instances.ts'];

export default defineConfig([
  globalIgnores(['**/node_modules/', '**/dist/', 'data/', '.data/', 'coverage/', 'docs/screenshots/']),

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_`-prefixed names are deliberate placeholders (unused parameters of a fixed signature, skipped tuple items).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `async` without `await` is deliberate: it fulfils a Promise-returning interface (SQLite store, fakes) and turns throws into rejections.
      '@typescript-eslint/require-await': 'off',
      // `interface GlobalEventHandlersEventMap extends XEventMap {}` is how the typed event maps are merged into the DOM's.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  // tsconfig.json covers .ts only (no allowJs): the .js/.mjs scripts get the rules that need no type information.
  { files: ['**/*.{js,mjs,cjs}'], extends: [tseslint.configs.disableTypeChecked] },

  // core/ runs in the browser and in Node: only the globals both have.
  { files: ['core/**'], languageOptions: { globals: globals['shared-node-browser'] } },
  { files: BROWSER, ignores: FAKE_BFF, languageOptions: { globals: globals.browser } },
  { files: NODE, languageOptions: { globals: globals.node } },
  { files: WIDGET_TESTS, ignores: FAKE_BFF, languageOptions: { globals: globals.mocha } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  // The callbacks given to Playwright's page.evaluate run in the page.
  { files: ['scripts/screenshot.mjs'], languageOptions: { globals: globals.browser } },

  // A consumer of the store takes the ports it uses (server/store/checkout-store.ts and each part's), never the whole
  // `Store`: what it may touch is then written in its signature. Only server/store/ itself and what opens a store name it.
  {
    files: ['server/**', 'demo/**', 'bench/**', 'scripts/**'],
    ignores: ['server/store/**', ...TESTS, ...STORE_BUILDERS],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)server/store(/(types|index))?$|^(\\.\\.?/)+store(/(types|index))?$',
              importNames: ['Store'],
              message:
                'Take the ports this code uses (server/store/checkout-store.ts, back-office.ts, endpoints.ts, ...), not the whole Store.',
            },
          ],
        },
      ],
    },
  },
  {
    files: TESTS,
    rules: {
      // Tests read response bodies as untyped JSON on purpose: the assertion that follows is what checks their shape.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Same reason: a parsed JSON body in a test helper is `any` until the assertion checks it.
      '@typescript-eslint/no-explicit-any': 'off',
      // chai's property assertions (`expect(x).to.be.true`) are expressions by design.
      '@typescript-eslint/no-unused-expressions': 'off',
      // Tests pass bound closures and stub methods around (`cleanups.push(server.close)`); a wrong `this` fails the test itself.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: WIDGET_TESTS,
    rules: {
      // @open-wc/semantic-dom-diff types chai's `equal` as returning a Promise; `expect(x).to.equal(y)` is synchronous.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', name: 'Equal', package: 'chai' }] },
      ],
    },
  },

  // The Lit elements (and the templates the widget tests render): template and custom-element rules.
  {
    files: [...ELEMENTS, ...WIDGET_TESTS],
    extends: [lit.configs['flat/recommended'], wc.configs['flat/recommended']],
  },
  {
    files: ELEMENTS,
    rules: {
      // Lit calls `@event=${this.handler}` listeners with the element as `this`, so passing a method unbound is correct there.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
]);
