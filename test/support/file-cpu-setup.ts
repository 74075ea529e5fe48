/**
 * Runs before each Vitest file (every project's first setup file): what the file cost in CPU goes to
 * test-results/timings.json beside its seconds. A worker runs one file at a time, so the worker's CPU
 * and that of the processes it started and reaped (servers, CLI runs, ffmpeg) across the file are the
 * file's, whatever ran beside it in the other workers; a machine's load changes seconds more than this.
 */
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { processCpu, recordFileCpu } from '../../scripts/test-timings.mjs';

const file = expect.getState().testPath;
const cpuAtStart = processCpu();
afterAll(() => {
  if (file) recordFileCpu(path.relative(process.cwd(), file), processCpu() - cpuAtStart);
});
