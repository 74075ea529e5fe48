import type { Page } from '@playwright/test';
import { startBuiltServer } from '../test/support/processes';
import { TestSmtpServer } from '../test/support/smtp';

export interface Lectern {
  url: string;
  dataDir: string;
  smtp: TestSmtpServer;
  adminPassword: string;
  /** Runs `npm run cli -- …` against this instance's database (PostgreSQL or a stopped PGlite only). */
  stop(): Promise<void>;
}

/** Starts the built server (dist/server/main.js) as a real process on a free port with its own data folder. */
export async function startLectern(env: Record<string, string> = {}): Promise<Lectern> {
  const smtp = await new TestSmtpServer().start();
  const adminPassword = 'Admin@E2e123';
  const server = await startBuiltServer({
    prefix: 'lectern-e2e-',
    env: {
      SMTP_URL: smtp.url,
      ADMIN_PASSWORD: adminPassword,
      // A daily backup starting in the middle of a spec would only slow it; backups.spec.ts backs up on demand.
      BACKUP_SCHEDULE: 'off',
      ...env,
    },
  });
  return {
    url: server.url,
    dataDir: server.dataDir,
    smtp,
    adminPassword,
    async stop() {
      await server.stop();
      await smtp.stop();
    },
  };
}

/** The local hour window that excludes now, so the server is closed whatever time the test runs. */
export function closedHoursNow(timeZone = 'Asia/Kolkata'): string {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(new Date()),
  );
  return `${(hour + 2) % 24}-${(hour + 4) % 24}`;
}

/** Saves desktop (1280) and mobile (390) screenshots of the current page under screenshots/, and fails on sideways overflow. */
export async function screenshots(
  page: Page,
  name: string,
  options: { hideToasts?: boolean } = {},
): Promise<void> {
  // Playwright applies this style only while capturing, past the page's CSP.
  const style = options.hideToasts ? '.mantine-Notifications-root { display: none !important; }' : undefined;
  const original = page.viewportSize();
  for (const [label, width, height] of [
    ['desktop', 1280, 800],
    ['mobile', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `screenshots/${name}-${label}.png`, fullPage: true, style });
    // Nothing may stick out sideways (a phone would scroll the whole page horizontally).
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    if (overflow > 0) throw new Error(`${name} at ${width} px is ${overflow} px wider than the viewport`);
  }
  if (original) await page.setViewportSize(original);
}
