import { defineConfig } from 'vite';
import { minifyTemplatesPlugin } from './scripts/minify-templates.js';
import { productionBuild } from './scripts/production.mjs';

// Library build of the drop-in element: one minified ES module with lit inside, so a page needs only
// `<script type="module" src="/widget/pix-checkout.js">`, and beside it the chunks it loads on demand (the languages
// other than Portuguese, the screens after the first QR: widget/chunks.ts), each named by its content hash. Always
// Lit's production build, whatever NODE_ENV is (scripts/production.mjs).
export default defineConfig({
  ...productionBuild,
  publicDir: false,
  plugins: [minifyTemplatesPlugin()],
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    lib: {
      entry: 'widget/pix-checkout.ts',
      formats: ['es'],
      fileName: () => 'pix-checkout.js',
    },
    rolldownOptions: {
      // Vite keeps whitespace and tree-shaking annotations in ES library builds (for downstream bundlers); these files
      // are served as-is, so minify all and drop every comment (19 `/* @__PURE__ */` otherwise).
      output: { chunkFileNames: 'pix-checkout-[name].[hash].js', minify: true, comments: false },
    },
  },
});
