import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Test tiers (docs/ARCHITECTURE.md): `unit` and `web` are fast and self-contained; `integration`
 * runs the real app over HTTP on PGlite and PostgreSQL (`*.int.test.ts` beside the module, and the
 * authorization matrix and fuzzer in test/security); `faults` kills and starves real processes;
 * `scale` is the evening rush and the multi-node test (`npm run test:scale`, not part of `npm test`).
 */
export default defineConfig({
  test: {
    // Two test files at a time: most of an integration file's time is waiting on the processes it
    // starts (servers, ffmpeg, PostgreSQL), and each file has its own databases, ports and buckets.
    // The hostile and fault tiers run alone afterwards (maxWorkers 1): they time slow senders and
    // kill processes, and a neighbour's load would blur what they measure.
    maxWorkers: 2,
    // Time limits catch a test that hangs, not a slow one: a loaded two-core CI machine runs some
    // tests at a third of their quiet speed, so every limit is several times the slowest test's
    // time there (speed targets live in benchmarks, not in test limits).
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/contract/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.int.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['src/web/test-setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['src/**/*.int.test.ts', 'test/security/**/*.test.ts'],
          exclude: ['test/security/**/hostile-*.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // Hostile input over real sockets (npm run test:hostile): malformed bytes, headers and
          // escapes, bodies that stop, slow senders, bursts at every limit.
          name: 'hostile',
          environment: 'node',
          maxWorkers: 1,
          include: ['test/security/**/hostile-*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'faults',
          environment: 'node',
          maxWorkers: 1,
          include: ['test/faults/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'scale',
          environment: 'node',
          include: ['test/scale/**/*.scale.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
