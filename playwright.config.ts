import { defineConfig } from '@playwright/test';

/** End-to-end specs drive Debian's Chromium (never a downloaded browser) against the built app. */
export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Three spec files at a time: each starts its own server process, SMTP server and data folder
  // (e2e/lectern.ts), so files share nothing; the tests inside a file stay in order. Two took the tier
  // from ~750 s to 476 s when each file's trace screencast the player; without that filmstrip the
  // tier beside the engines left the machine a quarter idle, and a third file took it from 572 s to
  // 466 s (49 of 49, the same 841 CPU-seconds).
  fullyParallel: false,
  workers: 3,
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
    // A failed test keeps its trace (actions, network, console), a screenshot of the moment it failed
    // and its page's accessibility tree (error-context.md). The trace's filmstrip is off: it
    // screencasts every frame the canvas player draws, and with it two playback specs cost 93
    // CPU-seconds instead of 57 (the tier is CPU-bound). Its DOM snapshots are off too: Chromium
    // serialised the page before and after every action of every test, failed or not, and three
    // specs cost 87 machine CPU-seconds with them, 74 without (104 and 77 in a first pair).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
  },
});
