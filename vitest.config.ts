import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Test tiers (docs/ARCHITECTURE.md): `unit` and `web` are fast and self-contained; `integration`
 * runs the real app over HTTP on PGlite and PostgreSQL (`*.int.test.ts` beside the module, and the
 * authorization matrix and fuzzer in test/security); `faults` kills and starves real processes;
 * `scale-cluster` (the multi-node tests: `npm run test:clusters`, which `npm test` runs beside the
 * browser tiers) and `scale-rush` (the evening rush: `npm run test:rush`, alone after `npm test` in
 * .ci/run) are `npm run test:scale` together, not part of `npm run test:vitest`.
 */
/**
 * Starts the long test files first, whatever their project (vitest's own order runs project by
 * project, and longest first only from a local cache a clean clone lacks), so that the workers
 * finish together instead of one running a two-minute file alone at the end; then the short files
 * project by project. A worker runs the files of one project only (its environment and setup), so
 * short files of five projects in turn, as a plain longest-first order left the last six minutes,
 * started a new worker every file or two, each importing the app again: 50 workers of 5-10 CPU-seconds
 * each in one run. The times come from test/file-times.json (`node scripts/test-timings.mjs save`
 * after a full run); a file not listed yet counts as a long one, so a new slow file never ends up last.
 */
class LongestFirst extends BaseSequencer {
  private readonly known = JSON.parse(readFileSync('test/file-times.json', 'utf8')) as Record<string, number>;

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (spec: TestSpecification) =>
      this.known[`${spec.project.name}:${path.relative(process.cwd(), spec.moduleId)}`] ?? 60;
    /** Long enough to start among the first, whatever its project. */
    const long = (spec: TestSpecification) => (seconds(spec) >= LONG_FILE_SECONDS ? 1 : 0);
    // The short files' projects, the one with the most short time first.
    const shortTime = new Map<string, number>();
    for (const spec of files)
      if (!long(spec))
        shortTime.set(spec.project.name, (shortTime.get(spec.project.name) ?? 0) + seconds(spec));
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        long(b) - long(a) ||
        (long(a)
          ? seconds(b) - seconds(a)
          : (shortTime.get(b.project.name) ?? 0) - (shortTime.get(a.project.name) ?? 0) ||
            a.project.name.localeCompare(b.project.name) ||
            seconds(b) - seconds(a)),
    );
  }
}

/** A file this long (seconds, test/file-times.json) starts in the longest-first part of the run. */
const LONG_FILE_SECONDS = 20;

/** Every project's first setup file: each file's CPU seconds beside its time (test-results/timings.json). */
const FILE_CPU = 'test/support/file-cpu-setup.ts';

/** Fault files that assert how fast answers come while a dependency is away. */
const FAULTS_TIMED = ['test/faults/disk-full.test.ts', 'test/faults/postgres-restart.test.ts'];
/** The evening rush (`npm run test:rush`): 300 viewers whose answers' times it judges. */
const RUSH = 'test/scale/rush.scale.ts';

export default defineConfig({
  test: {
    // Three test files at a time on two cores: an integration file waits on the processes it starts
    // (servers, ffmpeg, PostgreSQL) and on bodies that stop, and each file has its own databases,
    // ports and buckets. With two the machine was 84% busy and the tier took 774 s; with three, 94%
    // and 648 s (clean clones, docs/TESTING.md). The hostile and fault files join them; only the two
    // that time their answers against a limit while a dependency is away (faults-timed) run alone
    // afterwards, where a neighbour's load cannot blur what they measure.
    maxWorkers: 3,
    // The server-side tiers share each worker's modules from file to file (isolate: false): a file
    // that imports the app (Fastify, drizzle, PGlite, the AWS SDK, the credential libraries) spent
    // more time importing it than testing (vitest's "import" was 327 of 461 s for ten integration
    // files, 68 of 174 s shared). Each file still makes its own databases, servers, ports and
    // buckets; nothing in these tiers mocks a module, and the few that spy on console restore it.
    // The jsdom tier keeps its fresh environment per file.
    // The longest files first, across projects (test/file-times.json), so that the workers finish
    // together.
    sequence: { sequencer: LongestFirst },
    // Per-file times and counts to test-results/timings.json (scripts/test-timings.mjs).
    reporters: ['default', './test/support/timings-reporter.ts'],
    // Time limits catch a test that hangs, not a slow one: a loaded two-core CI machine runs some
    // tests at a third of their quiet speed, so every limit is several times the slowest test's
    // time there (speed targets live in benchmarks, not in test limits).
    projects: [
      {
        test: {
          name: 'unit',
          isolate: false,
          setupFiles: [FILE_CPU, 'test/support/per-file-setup.ts'],
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
          // One jsdom window and one import of Mantine per worker, not per file (a file's setup cost
          // more than its tests); src/web/test-setup.ts gives each file a fresh page.
          isolate: false,
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: [FILE_CPU, 'src/web/test-setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          isolate: false,
          setupFiles: [FILE_CPU, 'test/support/per-file-setup.ts'],
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
          isolate: false,
          setupFiles: [FILE_CPU, 'test/support/per-file-setup.ts'],
          environment: 'node',
          include: ['test/security/**/hostile-*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'faults',
          isolate: false,
          setupFiles: [FILE_CPU, 'test/support/per-file-setup.ts'],
          environment: 'node',
          include: ['test/faults/**/*.test.ts'],
          exclude: FAULTS_TIMED,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // Answers timed against a limit while the disk is full or PostgreSQL restarts: alone.
          name: 'faults-timed',
          environment: 'node',
          setupFiles: [FILE_CPU],
          maxWorkers: 1,
          include: FAULTS_TIMED,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // The two clusters (scale-out, rolling restart) side by side: each has its own database,
          // bucket, data folders, ports and nginx, and their Redis keys are per account and per
          // client address (a success gives its sign-in places back), so neither counts the other's.
          // Neither times an answer: they check what fails, not how fast.
          name: 'scale-cluster',
          environment: 'node',
          setupFiles: [FILE_CPU],
          include: ['test/scale/**/*.scale.ts'],
          exclude: [RUSH],
          maxWorkers: 2,
          // Its own group (vitest runs projects of different worker counts in turn): after the
          // other tiers when `vitest run` is given every project.
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          // The evening rush judges its answers' times: alone, after the clusters (a project of one
          // worker runs in vitest's last, sequential group).
          name: 'scale-rush',
          environment: 'node',
          setupFiles: [FILE_CPU],
          include: [RUSH],
          maxWorkers: 1,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
