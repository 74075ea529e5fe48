import { defineConfig } from '@playwright/test';

/** End-to-end specs drive Debian's Chromium (never a downloaded browser) against the built app. */
export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Two spec files at a time: each starts its own server process, SMTP server and data folder
  // (e2e/lectern.ts), so files share nothing; the tests inside a file stay in order. On two cores
  // this took the tier from ~750 s to 476 s with all 43 passing; more workers only queue for CPU.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // Per-file times and counts to test-results/timings.json (scripts/test-timings.mjs).
  reporter: [['list'], ['./e2e/timings-reporter.ts']],
  // Playwright empties its output folder at the start of a run: its own, so test-results/timings.json
  // (the earlier stages' and tiers' times) and the engine journeys' files stay.
  outputDir: 'test-results/playwright',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
    viewport: { width: 1280, height: 800 },
    actionTimeout: 20_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
