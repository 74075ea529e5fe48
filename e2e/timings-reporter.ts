import path from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { recordFiles, type FileTiming } from '../scripts/test-timings.mjs';

/** Writes each spec file's time and counts to test-results/timings.json (scripts/test-timings.mjs). */
export default class TimingsReporter implements Reporter {
  private readonly files = new Map<string, FileTiming>();

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = path.relative(process.cwd(), test.location.file);
    const entry = this.files.get(file) ?? {
      tier: 'e2e',
      file,
      seconds: 0,
      tests: { passed: 0, failed: 0, skipped: 0 },
    };
    entry.seconds = Math.round((entry.seconds + result.duration / 1000) * 10) / 10;
    if (result.status === 'passed') entry.tests.passed++;
    else if (result.status === 'skipped') entry.tests.skipped++;
    else entry.tests.failed++;
    this.files.set(file, entry);
  }

  onEnd(): void {
    recordFiles(['e2e'], [...this.files.values()]);
  }
}
