import { defineConfig } from 'vitest/config';

// Where tests live:
// - unit tests sit beside the module they pin, named after it (`money.ts` → `money.test.ts`, under core/,
//   server/, scripts/ and bench/), and run in Node in the `server` project below;
// - integration and end-to-end tests, which drive several modules or a whole server (HTTP, the emulator, a browser),
//   live under `test/` (`test/server/**` in the `server` project, `test/e2e/**` in the `e2e` project; the element's
//   browser tests, `test/widget/**`, run under web-test-runner). scripts/test-layout.test.ts fails on a file under
//   `test/` that drives none of these.
export default defineConfig({
  test: {
    // Three test files at a time on the two-core machines: the server tests mostly wait on sockets, child processes
    // and databases, so one file per core left the cores idle (the server suite took 16 min with one, 8.5 with three).
    // The e2e project runs one file at a time regardless.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'server',
          // Unit tests beside their module (core/, server/, scripts/, bench/) and the integration tests under test/server.
          include: ['test/server/**/*.test.ts', 'core/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
          // The SSE leak test measures the heap after a full collection.
          execArgv: ['--expose-gc'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One Chromium at a time: the machines have two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
