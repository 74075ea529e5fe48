import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { adminShots, adminSignIn } from './admin-setup';
import type { Lectern } from './lectern';
import type { CreatedStudent } from './student-setup';
import { signInStudent, startOneVideoClass } from './watch-setup';

const TOKEN = 'e2e-metrics-token-0123456789abcdef';

/** One series of Prometheus text, or undefined. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test.describe('playback health', () => {
  let lectern: Lectern;
  let students: CreatedStudent[];
  let courseId: string;
  let videoId: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    ({ lectern, courseId, videoId, students } = await startOneVideoClass({
      course: { name: 'Networking Basics', description: 'Packets.', coursecode: 'NET1' },
      students: [
        ['FS24-501', 'Meera Pillai'],
        ['FS24-502', 'Kabir Shah'],
      ],
      video: { title: 'How TCP starts', description: 'The handshake.' },
      env: { METRICS_TOKEN: TOKEN },
    }));
  });
  // The students' windows close with their test: a window left open plays on in the worker's browser.
  const windows: BrowserContext[] = [];
  test.afterEach(async () => {
    await Promise.all(windows.splice(0).map((w) => w.close()));
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  async function studentPage(browser: Browser, student: CreatedStudent): Promise<Page> {
    const studentWindow = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    windows.push(studentWindow);
    const page = await studentWindow.newPage();
    await signInStudent(page, lectern, student);
    await page.goto(`${lectern.url}/course/${courseId}?video=${videoId}`);
    return page;
  }

  /** The progress save whose body carries health matching `match`. */
  const healthSave = (page: Page, match: (health: Record<string, unknown>) => boolean) =>
    page.waitForRequest(
      (r) => {
        if (!r.url().endsWith('/api/progress') || r.method() !== 'POST') return false;
        const health = (r.postDataJSON() as { health?: Record<string, unknown> }).health;
        return !!health && match(health);
      },
      { timeout: 90_000 },
    );

  test('players report startup, and errors; the dashboard panel shows the last 24 h', async ({
    browser,
    page,
  }) => {
    test.setTimeout(240_000);
    await adminSignIn(page, lectern);
    const panel = page.getByRole('region', { name: 'Playback health (24 h)' });
    await expect(panel).toContainText('No playback in the last 24 hours.');
    await adminShots(page, 'playback-health-empty');

    // One student watches: the first save after the first frame carries the startup time.
    const watching = await studentPage(browser, students[0]!);
    const startup = healthSave(watching, (h) => typeof h.startupMs === 'number');
    await watching.getByRole('button', { name: /^Play How TCP starts/ }).click();
    await expect(watching.getByRole('region', { name: /Video player/ })).toHaveAttribute(
      'data-state',
      'playing',
    );
    const reported = (await startup).postDataJSON().health as { startupMs: number };
    expect(reported.startupMs).toBeGreaterThan(0);
    expect(reported.startupMs).toBeLessThan(30_000);
    // A pause sends the played time not yet reported.
    await watching.waitForTimeout(2_000);
    const paused = healthSave(watching, (h) => (h.playedMs as number) > 0);
    await watching.keyboard.press('k');
    expect(((await paused).postDataJSON().health as { playedMs: number }).playedMs).toBeGreaterThan(1_000);

    // A proxy on the other's network refuses the stream: the player gives up, and says so at once.
    const failing = await studentPage(browser, students[1]!);
    await failing.route('**/master.m3u8', (route) =>
      route.fulfill({ status: 403, contentType: 'text/html', body: '<h1>Blocked by the school proxy</h1>' }),
    );
    const error = healthSave(failing, (h) => typeof h.error === 'string');
    await failing.getByRole('button', { name: /^Play How TCP starts/ }).click();
    expect(((await error).postDataJSON().health as { error: string }).error).toMatch(/^[\w.:-]+$/);
    await expect(failing.getByRole('alert')).toBeVisible();

    await page.reload();
    await expect(panel.getByText('Startup p50')).toBeVisible();
    await expect(panel).toContainText('Error rate');
    await expect(panel).toContainText('50.0 %'); // one of two playbacks failed
    await expect(panel).toContainText('Chrome: 2 playbacks, 1 error');
    await adminShots(page, 'playback-health');

    const metrics = await (
      await page.request.get(`${lectern.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
    expect(sample(metrics, 'lectern_playback_startup_seconds_count')).toBe(1);
    expect(sample(metrics, 'lectern_playback_errors_total{browser="chrome"}')).toBe(1);
    expect((await page.request.get(`${lectern.url}/metrics`)).status()).toBe(403);
  });
});
