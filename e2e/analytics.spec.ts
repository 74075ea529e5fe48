import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { TestClient } from '../test/support/http-client';
import { adminSignIn } from './admin-setup';
import { screenshots, startLectern, type Lectern } from './lectern';
import { activateStudent, AdminApi, makeLectureClip, type CreatedStudent } from './student-setup';

const video = (page: Page) => page.locator('video');
const currentTime = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime);

interface Bucket {
  start: number;
  viewers: number;
}

/** Saves the player's progress by the next save it makes (pause, a timer or leaving). */
const nextSave = (page: Page) =>
  page.waitForResponse((r) => r.url().endsWith('/api/progress') && r.request().method() === 'POST');

test.describe('learning analytics', () => {
  let lectern: Lectern;
  let admin: AdminApi;
  let student: CreatedStudent;
  let courseId: string;
  let videoIds: string[];

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    lectern = await startLectern();
    admin = await AdminApi.signIn(lectern);
    const clip = await makeLectureClip(90);
    const course = await admin.createCourse({
      name: 'Backend with Node',
      description: 'HTTP, databases and deployment.',
      coursecode: 'BACK',
    });
    courseId = course._id;
    student = await admin.addStudent('BN24-001', 'Asha Verma');
    const others = [
      await admin.addStudent('BN24-002', 'Ben Okafor'),
      await admin.addStudent('BN24-003', '=HYPERLINK("x")'),
      await admin.addStudent('BN24-004', 'Chitra Nair'),
    ];
    for (const s of [student, ...others]) await admin.grantCourse(courseId, s.id, { days: 30 });
    const rollnos = [student, ...others].map((s) => s.rollno);
    videoIds = [];
    for (const title of ['Routing and handlers', 'Talking to PostgreSQL', 'Deploying']) {
      videoIds.push(await admin.uploadVideo(clip, { title, description: `${title}.`, courseId, rollnos }));
    }
    await activateStudent(lectern, student, 'Learn@2026');
    // Two classmates watched the start of some videos (a first save may carry 30 s); one watched nothing.
    for (const [i, classmate] of others.slice(0, 2).entries()) {
      await activateStudent(lectern, classmate, 'Learn@2026');
      const client = new TestClient(lectern.url);
      await client.post('/api/signin', { username: classmate.username, password: 'Learn@2026' });
      for (const id of videoIds.slice(0, 2 - i)) {
        const res = await client.post('/api/progress', {
          videoId: id,
          position: 25,
          watched: 0,
          ranges: [[0, 25]],
          rate: 1,
        });
        expect(res.status).toBe(200);
      }
    }
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  const retention = async () =>
    (await admin.client.get(`/api/admin/analytics/videos/${videoIds[0]}`)).body as {
      buckets: Bucket[];
      completed: number;
    };
  const asha = async () =>
    (await admin.client.get(`/api/admin/analytics/students/${student.id}`)).body.courses[0].videos[0];

  test('what a student really plays is what the admin sees, per 5 seconds', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(lectern.url);
    await page.getByLabel('Username or e-mail').fill(student.username);
    await page.getByLabel('Password', { exact: true }).fill('Learn@2026');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.getByRole('link', { name: /Backend with Node/ }).click();
    await page.getByRole('button', { name: /^Play Routing and handlers/ }).click();
    const player = page.getByRole('region', { name: /Video player/ });
    await expect(player).toHaveAttribute('data-state', 'playing');

    await test.step('30 s at 1x, a seek forward, 10 s more', async () => {
      await expect
        .poll(() => currentTime(page), { timeout: 60_000, intervals: [500] })
        .toBeGreaterThanOrEqual(30);
      await video(page).evaluate((v: HTMLVideoElement) => (v.currentTime = 60));
      await expect
        .poll(() => currentTime(page), { timeout: 30_000, intervals: [500] })
        .toBeGreaterThanOrEqual(70);
      const saved = nextSave(page);
      await page.keyboard.press('Space'); // pause: the player saves at once
      await saved;
      await expect(player).toHaveAttribute('data-state', 'paused');
    });

    await test.step('the admin API shows exactly those buckets watched, the rest at zero', async () => {
      const { buckets } = await retention();
      expect(buckets).toHaveLength(18);
      // Classmates: Ben and the =HYPERLINK student each watched 0..25 of this video.
      const others = (b: Bucket) => (b.start < 25 ? 2 : 0);
      for (const b of buckets) {
        const mine = b.viewers - others(b);
        const played = (b.start >= 0 && b.start < 30) || (b.start >= 60 && b.start < 70);
        // Within one bucket: the edges of a played stretch may or may not count.
        const edge = [30, 55, 70].includes(b.start);
        if (edge) expect([0, 1], `bucket ${b.start}`).toContain(mine);
        else expect(mine, `bucket ${b.start}`).toBe(played ? 1 : 0);
      }
      const mine = await asha();
      expect(mine.watchedSeconds).toBeGreaterThanOrEqual(38);
      expect(mine.watchedSeconds).toBeLessThanOrEqual(45);
      await expect(
        page
          .getByRole('navigation', { name: 'Course Playlist' })
          .getByRole('progressbar', { name: /% watched/ }),
      ).toHaveCount(1);
    });

    await test.step('seeking to the end and saving does not complete the video', async () => {
      const saved = nextSave(page);
      await video(page).evaluate((v: HTMLVideoElement) => {
        v.currentTime = v.duration - 1;
        void v.play();
      });
      await saved; // the 'ended' save
      const mine = await asha();
      expect(mine.completed).toBe(false);
      expect(mine.watchedSeconds).toBeLessThanOrEqual(46);
      expect((await retention()).completed).toBe(0);
      await expect(page.getByRole('img', { name: 'Completed' })).toHaveCount(0);
    });

    await test.step('a forged save claiming minutes after seconds is refused and changes nothing', async () => {
      const before = { curve: await retention(), mine: await asha() };
      await page.waitForTimeout(10_000);
      const answers = await page.evaluate(async (videoId) => {
        const send = async (ranges: number[][]) => {
          const res = await fetch('/api/progress', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ videoId, position: 90, watched: 600, ranges, rate: 2 }),
          });
          return [res.status, (await res.json()).message];
        };
        return [await send([[0, 90]]), await send([[0, 600]])];
      }, videoIds[0]!);
      expect(answers.map((a) => a[0])).toEqual([400, 400]);
      expect(answers[0]![1]).toMatch(/more playing than the time since the previous save allows/);
      expect(await retention()).toEqual(before.curve);
      expect(await asha()).toEqual(before.mine);
    });
  });

  test('an admin finds who is behind, where a video loses people and what a student watched', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await adminSignIn(page, lectern);

    await test.step('analytics from the navigation, then the course grid', async () => {
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Analytics' }).click();
      await expect(page.getByRole('heading', { name: 'Learning analytics' })).toBeVisible();
      await screenshots(page, 'admin-analytics-home');
      await page.getByRole('link', { name: /Backend with Node/ }).click();
      await expect(
        page.getByRole('heading', { name: 'Backend with Node — learning analytics' }),
      ).toBeVisible();
      const grid = page.getByRole('table', { name: 'Students by video watched' });
      await expect(grid.getByRole('rowheader')).toHaveCount(4);
      await expect(page.getByText(/^At risk \(\d\)$/)).toBeVisible();
      await screenshots(page, 'admin-analytics-course');
    });

    await test.step('sorted by watched, most first; then only those at risk', async () => {
      const grid = page.getByRole('table', { name: 'Students by video watched' });
      await page.getByRole('button', { name: 'Watched' }).click();
      await expect(grid.getByRole('columnheader', { name: 'Watched' })).toHaveAttribute(
        'aria-sort',
        'descending',
      );
      await expect(grid.getByRole('rowheader').first()).toContainText('Ben Okafor'); // 50 s of 270
      await expect(grid.getByRole('rowheader').last()).toContainText('Chitra Nair');
      await page.getByText(/^At risk \(\d\)$/).click();
      await expect(page).toHaveURL(/filter=at-risk/);
      await expect(grid.getByRole('rowheader').filter({ hasText: 'Chitra Nair' })).toHaveCount(1);
      await expect(grid.getByRole('rowheader').filter({ hasText: 'Ben Okafor' })).toHaveCount(0);
      await screenshots(page, 'admin-analytics-course-at-risk');
      await page.getByText(/^All students \(4\)$/).click();
    });

    await test.step('the grid downloads as CSV: students x videos rows', async () => {
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download CSV' }).click();
      const file = await (await download).path();
      const rows: Record<string, string>[] = parse(await readFile(file!), { bom: true, columns: true });
      expect(rows).toHaveLength(4 * 3);
      expect(rows.filter((r) => r.student_name === `'=HYPERLINK("x")`)).toHaveLength(3);
    });

    await test.step('a video: where it loses people', async () => {
      await page.getByRole('link', { name: 'Video 1: Routing and handlers, retention' }).click();
      await expect(page.getByRole('heading', { name: 'Routing and handlers' })).toBeVisible();
      await expect(page.getByTestId('retention-chart').locator('svg').first()).toBeVisible();
      await expect(page.getByText(/stop watching at/)).toBeVisible();
      await page.getByRole('button', { name: 'Show retention as a table' }).click();
      await expect(page.getByRole('cell', { name: '00:00' })).toBeVisible();
      await screenshots(page, 'admin-analytics-video');
    });

    await test.step('a video nobody watched yet', async () => {
      await page.goto(`${lectern.url}/adminanalytics/video/${videoIds[2]}`);
      await expect(page.getByText('Nobody has watched this video yet.')).toBeVisible();
      await screenshots(page, 'admin-analytics-video-empty');
    });

    await test.step('a student: courses, videos and the last 30 days', async () => {
      await page.goto(`${lectern.url}/adminanalytics/course/${courseId}`);
      await page.getByRole('link', { name: 'Asha Verma' }).click();
      await expect(page.getByRole('heading', { name: 'Asha Verma' })).toBeVisible();
      await expect(page.getByTestId('days-chart').locator('svg').first()).toBeVisible();
      await expect(page.getByRole('region', { name: 'Backend with Node' })).toContainText(
        '1. Routing and handlers',
      );
      await screenshots(page, 'admin-analytics-student');
    });
  });
});
