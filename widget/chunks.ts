/**
 * Code the first QR does not need (the English and Spanish strings, the screens after the QR: views/screens.ts) loads on
 * demand, as chunks of the build beside the entry, and under Subresource Integrity like the entry itself. A dynamic
 * `import()` cannot carry an integrity hash, so before importing a chunk the element adds `<link rel="modulepreload"
 * integrity="sha384-…">` for it, with the hash the build wrote into the entry (which the page's own `integrity`
 * attribute covers): the browser fetches the chunk, checks its hash and puts the module in the page's module map, and
 * only after that `load` event does `import()` run, taking the checked module from the map. A chunk that fails its hash
 * (or cannot be fetched, or a browser without modulepreload) is never imported: that `import()` would fetch it again,
 * unchecked. An import map's `integrity` section would do the same from the page, but it must be an inline script (a
 * hash in every merchant's CSP, and Chromium 127+ only), and the page would have to know each chunk's name;
 * modulepreload works wherever module scripts do (Chromium 66+, Firefox 115+, Safari 17+) and the page needs nothing.
 *
 * The lazy chunks import nothing (the build checks it): a chunk that imported the entry would load it a second time
 * whenever the page used the entry's other name (`pix-checkout.js` or `pix-checkout.<hash>.js`).
 */

/** The build (scripts/build-widget.mjs) appends `name file integrity` per chunk, comma-separated; nothing in development. */
const BUILT = 'pix-chunk-integrity:';

interface Chunk {
  file: string;
  integrity: string;
}

const chunks = new Map<string, Chunk>(
  BUILT.slice(BUILT.indexOf(':') + 1)
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const [name = '', file = '', integrity = ''] = entry.split(' ');
      return [name, { file, integrity }];
    }),
);

/** Fetches `href` as a module checked against `integrity`; rejects when the browser refuses or cannot fetch it. */
function preload(href: string, integrity: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const link = document.createElement('link');
    if (!link.relList.supports('modulepreload')) {
      reject(new Error(`<pix-checkout>: this browser cannot check ${href} against its integrity hash (no modulepreload)`));
      return;
    }
    link.rel = 'modulepreload';
    link.href = href;
    link.integrity = integrity;
    link.crossOrigin = 'anonymous';
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener(
      'error',
      () => {
        link.remove();
        reject(new Error(`<pix-checkout>: ${href} could not be fetched or does not match its integrity hash`));
      },
      { once: true },
    );
    (document.head ?? document.documentElement).append(link);
  });
}

/**
 * Imports the chunk `name` with `load` (its `import()`, which the bundler turns into the chunk's file) once the
 * browser has checked it. Unbundled (the widget tests, a bundler of the npm package) there is nothing to check.
 */
export async function loadChunk<T>(name: string, load: () => Promise<T>): Promise<T> {
  const chunk = chunks.get(name);
  if (!chunk) {
    if (chunks.size) throw new Error(`<pix-checkout>: the build holds no chunk named ${name}`);
    return load();
  }
  await preload(new URL(chunk.file, import.meta.url).href, chunk.integrity);
  return load();
}
