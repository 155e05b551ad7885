// Widget tests in the system Chromium (never a downloaded one), against a fake BFF served by the runner itself.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromiumArgs, findChromium, installHint } from './scripts/find-chromium.mjs';
import { fakeBff } from './test/widget/fake-bff.mjs';

const executablePath = findChromium();
if (!executablePath) {
  console.error(installHint);
  process.exit(1);
}

/**
 * qrcode's encoder (widget/qr.ts imports `qrcode/lib/core/qrcode.js`) ships CommonJS only, and the browser needs ES
 * modules: serve one esbuild bundle of it instead, with dijkstrajs stubbed as in the element's build (vite.config.ts).
 * (A rollup-based CommonJS plugin would pull rollup's per-platform binaries, which `npm ci` can't always fetch.)
 */
function qrcodeAsEsm() {
  const source = 'qrcode/lib/core/qrcode.js';
  const path = '/__qrcode.js';
  let bundled;
  return {
    name: 'qrcode-as-esm',
    resolveImport: ({ source: imported }) => (imported === source ? path : undefined),
    async serve(context) {
      if (context.path !== path) return undefined;
      bundled ??= build({
        stdin: { contents: `export { create } from '${source}';`, resolveDir: fileURLToPath(new URL('.', import.meta.url)) },
        bundle: true,
        format: 'esm',
        platform: 'browser',
        alias: { dijkstrajs: fileURLToPath(new URL('scripts/stubs/dijkstrajs.cjs', import.meta.url)) },
        write: false,
        logLevel: 'silent',
      }).then((result) => result.outputFiles[0].text);
      return { body: await bundled, type: 'js' };
    },
  };
}

export default {
  files: ['test/widget/**/*.test.ts'],
  nodeResolve: { browser: true },
  // One browser page at a time: the machines have two cores, and the polling tests measure real seconds.
  concurrency: 1,
  browsers: [playwrightLauncher({ product: 'chromium', launchOptions: { executablePath, args: chromiumArgs } })],
  middleware: [fakeBff],
  plugins: [
    qrcodeAsEsm(),
    // tsconfig.json carries experimentalDecorators and useDefineForClassFields: false, which Lit's decorators need.
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) }),
  ],
  // Lit's dev build says so on every page; everything else the page logs is worth seeing.
  filterBrowserLogs: ({ args }) => !String(args[0]).includes('Lit is in dev mode'),
  testFramework: { config: { timeout: 20_000 } },
  testsFinishTimeout: 110_000,
};
