// Widget tests in the system Chromium (never a downloaded one), against a fake BFF served by the runner itself.
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromiumArgs, findChromium, installHint } from './scripts/find-chromium.mjs';
import { fakeBff } from './test/widget/fake-bff.mjs';

const executablePath = findChromium();
if (!executablePath) {
  console.error(installHint);
  process.exit(1);
}

export default {
  // The element's unit tests sit beside its modules (widget/*.test.ts); its component tests, against the fake BFF, under test/widget.
  files: ['widget/**/*.test.ts', 'test/widget/**/*.test.ts'],
  nodeResolve: { browser: true },
  // One browser page at a time: the machines have two cores, and the polling tests measure real seconds.
  concurrency: 1,
  browsers: [playwrightLauncher({ product: 'chromium', launchOptions: { executablePath, args: chromiumArgs } })],
  middleware: [fakeBff],
  plugins: [
    // tsconfig.json carries experimentalDecorators and useDefineForClassFields: false, which Lit's decorators need.
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) }),
  ],
  // Lit's dev build says so on every page; everything else the page logs is worth seeing.
  filterBrowserLogs: ({ args }) => !String(args[0]).includes('Lit is in dev mode'),
  testFramework: { config: { timeout: 20_000 } },
  testsFinishTimeout: 110_000,
};
