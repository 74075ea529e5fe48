import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { TestSmtpServer } from '../test/support/smtp';

export interface Lectern {
  url: string;
  dataDir: string;
  smtp: TestSmtpServer;
  adminPassword: string;
  /** Runs `npm run cli -- …` against this instance's database (PostgreSQL or a stopped PGlite only). */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts the built server (dist/server/main.js) as a real process on a free port with its own data folder. */
export async function startLectern(env: Record<string, string> = {}): Promise<Lectern> {
  const smtp = await new TestSmtpServer().start();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-e2e-'));
  const port = await freePort();
  const adminPassword = 'Admin@E2e123';
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: 'memory://',
      SMTP_URL: smtp.url,
      ADMIN_PASSWORD: adminPassword,
      SEED_DEMO: 'false',
      OPEN_HOURS: 'always',
      LOG_LEVEL: 'warn',
      // A daily backup starting in the middle of a spec would only slow it; backups.spec.ts backs up on demand.
      BACKUP_SCHEDULE: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Lectern exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/time`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Lectern did not start in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    smtp,
    adminPassword,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await smtp.stop();
      await rm(dataDir, { recursive: true, force: true });
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
