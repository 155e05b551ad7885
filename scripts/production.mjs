// What every browser build (the element, the console, the demo's pages) merges into its Vite config, so that it ships
// Lit's production build whatever NODE_ENV says. Vite resolves package exports with the `development` condition
// unless NODE_ENV is `production` (its `development|production` placeholder), and lit-html and @lit/reactive-element
// map that condition to their development build: larger, slower, and a "Lit is in dev mode" warning in every
// shopper's console. vitest sets NODE_ENV=test, so without this `npm test` built that.

/** Vite's client conditions with `production` in place of `development|production`. */
export const productionBuild = {
  mode: 'production',
  resolve: { conditions: ['module', 'browser', 'production'] },
  // A library build leaves `process.env.NODE_ENV` as written; in a browser that is a ReferenceError.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
};

/** Text only Lit's development build holds (its console warning). */
export const LIT_DEV_MODE = 'Lit is in dev mode';

/**
 * Throws when `code` (a built bundle, named `what`) holds Lit's development build: a build that resolved it anyway
 * stops rather than ships it.
 */
export function assertProduction(code, what) {
  if (String(code).includes(LIT_DEV_MODE)) {
    throw new Error(`${what} holds Lit's development build ("${LIT_DEV_MODE}"): see scripts/production.mjs`);
  }
}
