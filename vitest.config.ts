import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Three projects: the server (and tracker logic) in Node against a real database, the PWA's
// logic in jsdom with fake-indexeddb, and end-to-end journeys in real Chromium.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: [
            'tests/integration/**/*.test.ts',
            'tests/unit/server/**/*.test.ts',
            'tests/unit/tracker/**/*.test.ts',
            'tests/unit/bench/**/*.test.ts',
            'tests/unit/tooling/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['tests/helpers/require-postgres.ts'],
          // The files share a worker's loaded modules: each starts its own server on its own
          // database, and importing the server afresh for each file was half the project's CPU.
          // (The PWA's unit tests mock modules, and keep a fresh import per file.)
          isolate: false,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/src/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/helpers/setup-dom.ts'],
          // A screen rendered in jsdom beside the browser tests on 2 cores can take longer than
          // vitest's 5 s to settle (the dashboard's skeleton, error and retry timed out in CI).
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          // A screen under a loaded machine (CI runs beside other work) may take seconds to
          // answer: a poll waits up to 10 s for the condition before failing, not vitest's 1 s.
          expect: { poll: { timeout: 10_000 } },
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
