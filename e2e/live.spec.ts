import type { ChildProcess } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { liveEncoder } from '../test/support/live-encoder';
import { adminShots, adminSignIn } from './admin-setup';
import { screenshots } from './lectern';
import { signInStudent, startOneVideoClass, type OneVideoClass } from './watch-setup';

/** SRT listens on UDP: a range no other spec of this run takes. */
const BASE = 21_000 + Math.floor(Math.random() * 20_000);
const SHOTS = '/work/ci-logs/shots';

/**
 * ffmpeg as the instructor's encoder over SRT (640x360, 15 fps, 2 s keyframes, a tone): a dark gray
 * picture, so the red of the watermark drawn over it can be counted.
 */
function encoder(srtUrl: string, seconds: number): ChildProcess {
  return liveEncoder(srtUrl, 'color=c=0x15171c:size=640x360:rate=15', seconds);
}

/** Copies the spec's screenshots where the report points (CI keeps them in screenshots/ too). */
async function keepShots(name: string) {
  await mkdir(SHOTS, { recursive: true }).catch(() => undefined);
  for (const label of ['desktop', 'mobile'])
    await copyFile(`screenshots/${name}-${label}.png`, `${SHOTS}/${name}-${label}.png`).catch(
      () => undefined,
    );
}

test.describe.serial('a live class in the real player', () => {
  let school: OneVideoClass;
  let publisher: ChildProcess | undefined;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    school = await startOneVideoClass({
      course: { name: 'Live JavaScript', description: 'Classes streamed live.', coursecode: 'LIV' },
      students: [['LIV-024', 'Kavya Menon']],
      video: { title: 'Before the class', description: 'A recorded lecture.' },
      env: { LIVE_SRT_PORTS: `${BASE}-${BASE + 3}`, LIVE_RECONNECT_SECONDS: '5' },
    });
  });
  test.afterAll(async () => {
    publisher?.kill('SIGKILL');
    await school?.lectern.stop();
  });

  test('the student sees Live now, watches the live with the watermark and a growing playlist', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const { lectern, admin, courseId, students } = school;
    const scheduled = await admin.client.post('/api/admin/live-classes', {
      courseId,
      title: 'Closures, live',
      description: 'We code together.',
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      minutes: 30,
    });
    expect(scheduled.status).toBe(201);
    await admin.client.post('/api/admin/live-classes', {
      courseId,
      title: 'Async and await, live',
      startsAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      minutes: 45,
    });
    const srtUrl = String(scheduled.body.ingest.srtUrl).replace('localhost', '127.0.0.1');
    // The listener opens within a second of the class being due (the ingest looks every 500 ms).
    await page.waitForTimeout(3000);
    publisher = encoder(srtUrl, 150);

    await signInStudent(page, lectern, students[0]!);
    await page.goto(`${lectern.url}/course/${courseId}`);
    const live = page.getByLabel('Live now: Closures, live');
    await expect(live).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('link', { name: 'Add to calendar: Async and await, live' })).toBeVisible();
    await screenshots(page, 'live-course');
    await keepShots('live-course');

    const playlists: number[] = [];
    page.on('response', async (res) => {
      if (!/\/v\d+\/index\.m3u8/.test(res.url()) || res.status() !== 200) return;
      const text = await res.text().catch(() => '');
      expect(text).not.toContain('#EXT-X-ENDLIST');
      playlists.push(text.split('\n').filter((l) => l && !l.startsWith('#')).length);
    });
    await live.getByRole('button', { name: 'Watch live' }).click();
    await expect(page.getByRole('heading', { name: 'Closures, live' })).toBeVisible();
    const player = page.getByRole('region', { name: /Video player/ });
    await expect(player).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
    // hls.js reloads the live playlist as it grows.
    await expect.poll(() => playlists.length, { timeout: 30_000 }).toBeGreaterThan(1);
    await expect.poll(() => Math.max(...playlists) > Math.min(...playlists), { timeout: 30_000 }).toBe(true);
    // The roll number is burnt into the picture, as on a recorded lecture: red pixels on the gray.
    const red = () =>
      page.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        let count = 0;
        for (let i = 0; i < data.length; i += 4)
          if (data[i]! > 110 && data[i]! - Math.max(data[i + 1]!, data[i + 2]!) > 50) count++;
        return count / (data.length / 4);
      });
    await expect.poll(red, { timeout: 20_000 }).toBeGreaterThan(0.002);
    await expect(page.getByRole('img', { name: /watermark LIV-024/ })).toBeVisible();
    // The LIVE badge while the playlist has no end.
    await expect(player.getByRole('status').filter({ hasText: 'LIVE' })).toBeVisible();
    await expect(player).toHaveAttribute('data-live', 'true');
    await screenshots(page, 'live-player');
    await keepShots('live-player');

    // Paused, the viewer falls behind the edge: "Back to live" takes them there.
    await player.focus();
    await page.keyboard.press('Space');
    await expect(player).toHaveAttribute('data-state', 'paused');
    const back = player.getByRole('button', { name: 'Back to live' });
    await expect(back).toBeVisible({ timeout: 30_000 });
    await back.click();
    await expect(back).toBeHidden({ timeout: 10_000 });
    await expect(player).toHaveAttribute('data-state', 'playing', { timeout: 20_000 });

    // The dashboard shows the class live now, with Watch live into it.
    await page.goto(`${lectern.url}/dashboard`);
    const now = page.getByRole('region', { name: 'Live now' });
    await expect(now.getByRole('link', { name: 'Watch live: Closures, live' })).toBeVisible({
      timeout: 30_000,
    });
    await screenshots(page, 'live-dashboard');
    await keepShots('live-dashboard');
  });

  test('staff schedule a class on the back-office screen, see its ingest and who attended', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { lectern } = school;
    await adminSignIn(page, lectern);
    await page.goto(`${lectern.url}/adminlive`);
    await expect(page.getByRole('heading', { name: 'Live classes', level: 1 })).toBeVisible();
    // The class the student watched above, live or over by now.
    await expect(page.getByRole('link', { name: 'Closures, live' })).toBeVisible();

    // Scheduled from the keyboard: the course picked by typing, the start typed into its field.
    // The course list loads beside the classes: the keys go to the option once it is offered (CI, a
    // slow machine: typed before the list came, the keys picked nothing and the form said "Choose
    // the course.").
    const course = page.getByRole('combobox', { name: 'Course' });
    await course.fill('Live Java');
    await expect(page.getByRole('option', { name: /^Live JavaScript/ })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(course).toHaveValue(/^Live JavaScript/);
    await page.getByRole('textbox', { name: 'Title' }).fill('Office hours, live');
    await page.getByRole('textbox', { name: 'Description' }).fill('Bring your questions.');
    const start = await page.evaluate(() => {
      const d = new Date(Date.now() + 3 * 86_400_000);
      const two = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T11:00`;
    });
    await page.getByLabel('Starts at').fill(start);
    await page.getByRole('button', { name: 'Schedule class' }).click();
    const upcoming = page.getByRole('region', { name: /Upcoming/ });
    await expect(upcoming.getByRole('link', { name: 'Office hours, live' })).toBeVisible();
    await adminShots(page, 'live-schedule');

    await upcoming.getByRole('link', { name: 'Office hours, live' }).click();
    await expect(page.getByRole('heading', { name: 'Office hours, live', level: 1 })).toBeVisible();
    const key = page.getByTestId('ingest-Stream key');
    await expect(key).not.toHaveText(/[0-9a-f]{32}/);
    await page.getByRole('button', { name: 'Show the key' }).click();
    await expect(key).toHaveText(/^[0-9a-f]{32}$/);
    const before = await key.innerText();
    await page.getByRole('button', { name: 'New stream key' }).click();
    await page
      .getByRole('dialog', { name: 'Set a new stream key?' })
      .getByRole('button', { name: 'New key' })
      .click();
    await expect(key).not.toHaveText(before);
    // From the top: a page scrolled to the key would draw its sticky header mid-picture.
    await page.evaluate(() => window.scrollTo(0, 0));
    await adminShots(page, 'live-class');

    // The class watched above: the student joined it live.
    await page.goto(`${lectern.url}/adminlive`);
    await page.getByRole('link', { name: 'Closures, live' }).click();
    const attendance = page.getByRole('region', { name: 'Attendance' });
    const kavya = attendance.getByRole('row', { name: /Kavya Menon/ });
    await expect(kavya).toBeVisible();
    await expect(kavya).not.toContainText('No');
    await expect(attendance.getByTestId('attendance-summary')).toContainText('1 of 1 student joined live');
    await adminShots(page, 'live-attendance');
    await keepShots('live-schedule');
    await keepShots('live-class');
    await keepShots('live-attendance');
  });
});
