// The element's lazily loaded chunks (widget/chunks.ts), for scripts/build-widget.mjs: what the bundler made of them,
// a check that none imports anything, and their integrity hashes written into the entry.
import { createHash } from 'node:crypto';

/** The placeholder widget/chunks.ts holds; the build appends `name file integrity` per chunk after it. */
export const INTEGRITY_MARK = 'pix-chunk-integrity:';

export const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/**
 * A Vite plugin that records the chunks the bundler emits into `found` ({ name, file } of each chunk that is not the
 * entry) and stops the build when one imports another file: a lazy chunk that imported the entry would load it a
 * second time whenever the page used the entry's other name (`pix-checkout.js` or `pix-checkout.<hash>.js`).
 */
export function chunkList(found) {
  return {
    name: 'pix-checkout-chunks',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk' || output.isEntry) continue;
        const imports = [...output.imports, ...output.dynamicImports];
        if (imports.length)
          throw new Error(`widget chunk ${output.fileName} imports ${imports.join(', ')}: a lazy chunk must import nothing`);
        found.push({ name: output.name, file: output.fileName });
      }
    },
  };
}

/**
 * The entry's code with each chunk's name, file and integrity (`chunks`: { name, file, integrity }) after the
 * placeholder, which must be there exactly once.
 */
export function withChunkIntegrity(entry, chunks) {
  const parts = entry.split(INTEGRITY_MARK);
  if (parts.length !== 2)
    throw new Error(`the widget entry holds "${INTEGRITY_MARK}" ${parts.length - 1} times, not once (widget/chunks.ts)`);
  const list = chunks.map(({ name, file, integrity }) => `${name} ${file} ${integrity}`).join(',');
  if (!/^[\w ,./+=-]*$/.test(list)) throw new Error(`widget chunk names must stay inside a string literal: ${list}`);
  return parts.join(INTEGRITY_MARK + list);
}
