import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          // Unit tests sit next to the code they pin (core/, server/); integration tests stay under test/server.
          include: ['test/server/**/*.test.ts', 'core/**/*.test.ts', 'server/**/*.test.ts'],
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
