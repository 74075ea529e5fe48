import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { recordFiles, recordStage, takeFileCpu, type Counts } from '../../scripts/test-timings.mjs';

/**
 * Writes each test file's time and counts to test-results/timings.json (scripts/test-timings.mjs),
 * and the wall time of the files that run alone (projects with maxWorkers 1) as the stage
 * "vitest serial"; with the CPU seconds a file of the server tiers cost (test/support/per-file-setup.ts).
 */
export default class TimingsReporter implements Reporter {
  private readonly serial = { first: Infinity, last: 0 };

  /** Files that run alone, but not the scale tiers: they run in stages of their own (scripts/test-all.mjs, .ci/run). */
  private runsAlone(module: TestModule): boolean {
    return module.project.config.maxWorkers === 1 && !module.project.name.startsWith('scale');
  }

  onInit(): void {
    takeFileCpu(); // what an interrupted run left
  }

  onTestModuleStart(module: TestModule): void {
    if (this.runsAlone(module)) this.serial.first = Math.min(this.serial.first, Date.now());
  }

  onTestModuleEnd(module: TestModule): void {
    if (this.runsAlone(module)) this.serial.last = Math.max(this.serial.last, Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const cpu = takeFileCpu();
    const files = modules.map((module) => {
      const tests: Counts = { passed: 0, failed: 0, skipped: 0 };
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') tests.passed++;
        else if (state === 'failed') tests.failed++;
        else tests.skipped++;
      }
      const d = module.diagnostic();
      const ms =
        d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
      const file = path.relative(process.cwd(), module.moduleId);
      return {
        tier: module.project.name,
        file,
        seconds: Math.round(ms / 100) / 10,
        ...(cpu.has(file) ? { cpu: cpu.get(file) } : {}),
        tests,
      };
    });
    recordFiles([...new Set(files.map((f) => f.tier))], files);
    if (this.serial.last) recordStage('vitest serial', (this.serial.last - this.serial.first) / 1000);
  }
}
