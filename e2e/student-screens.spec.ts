import { expect, test, type Page } from '@playwright/test';
import { screenshots, startLectern, type Lectern } from './lectern';
import { activateStudent, AdminApi, makeLectureClip, type CreatedStudent } from './student-setup';

async function signIn(page: Page, lectern: Lectern, student: CreatedStudent) {
  const res = await page.request.post(`${lectern.url}/api/signin`, {
    data: { username: student.username, password: student.password },
  });
  expect(res.ok()).toBe(true);
}

/** Holds every request to `path` until `release` is called (to see loading states). */
async function holdRequests(page: Page, path: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${path}`, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test.describe('student screens', () => {
  let lectern: Lectern;
  let admin: AdminApi;
  let newcomer: CreatedStudent;
  let viewer: CreatedStudent;
  let emptyCourse: string;
  let videoCourse: string;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    lectern = await startLectern();
    admin = await AdminApi.signIn(lectern);
    newcomer = await admin.addStudent('FS24-101', 'Meera Iyer');
    viewer = await admin.addStudent('FS24-102', 'Arjun Rao');
    await activateStudent(lectern, viewer, 'Viewer@2026');
    emptyCourse = (
      await admin.createCourse({
        name: 'Career Prep',
        description: 'Resumes and interviews.',
        coursecode: 'CAREER',
      })
    )._id;
    videoCourse = (
      await admin.createCourse({
        name: 'JavaScript Basics',
        description: 'Values, functions, objects.',
        coursecode: 'JS',
      })
    )._id;
    await admin.grantCourse(emptyCourse, viewer.id, { days: 10 });
    await admin.grantCourse(videoCourse, viewer.id, { days: 10 });
    await admin.uploadVideo(await makeLectureClip(20), {
      title: 'Values and types',
      description: 'Numbers, strings and booleans.',
      courseId: videoCourse,
      rollnos: [viewer.rollno],
    });
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  test('forgot password: the code by mail without a session, then sign-in to an empty dashboard', async ({
    page,
  }) => {
    await page.goto(lectern.url);
    await screenshots(page, 'login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/reset-password\?forgot=1$/);
    await expect(page.getByRole('heading', { name: 'Reset Your Password' })).toBeVisible();
    await screenshots(page, 'reset-forgot');
    const before = lectern.smtp.mails.length;
    await page.getByLabel('Username or e-mail').fill(newcomer.email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(
      page.getByText('If that account exists, a one-time code has been sent to its e-mail.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resend OTP' })).toBeDisabled();
    await lectern.smtp.waitFor(newcomer.email, before);
    await page.getByLabel('OTP digit 1 of 6').click();
    await page.keyboard.type(lectern.smtp.latestCode(newcomer.email));
    await page.getByRole('textbox', { name: 'New password' }).fill('Fresh@Start9');
    await page.getByRole('textbox', { name: 'Confirm password' }).fill('Fresh@Start9');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page).toHaveURL(new RegExp(`${lectern.url}/?$`));

    await page.getByLabel('Username or e-mail').fill(newcomer.username);
    await page.getByLabel('Password', { exact: true }).fill('Fresh@Start9');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('No courses enrolled yet.')).toBeVisible();
    await screenshots(page, 'dashboard-empty');
  });

  test('a failed sign-in says why and stays on the page', async ({ page }) => {
    await page.goto(lectern.url);
    await page.getByLabel('Username or e-mail').fill(viewer.username);
    await page.getByLabel('Password', { exact: true }).fill('Wrong@Pass1');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('Invalid username or password.')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${lectern.url}/?$`));
  });

  test('loading and empty states of the dashboard and the course page', async ({ page }) => {
    await signIn(page, lectern, viewer);
    const releaseCourses = await holdRequests(page, '/api/courses');
    // The sign-in page sends a signed-in student on to the dashboard, which then asks for its list
    // (opened by its own address, the dashboard comes with the list in its HTML: first-answers.ts).
    await page.goto(lectern.url);
    await expect(page.getByTestId('card-skeleton')).toHaveCount(2);
    await screenshots(page, 'dashboard-loading');
    releaseCourses();
    await expect(page.getByRole('link', { name: /JavaScript Basics/ })).toContainText(
      '0 / 1 videos completed',
    );
    await expect(page.getByRole('link', { name: /Career Prep/ })).toContainText('No videos yet');

    const releaseVideos = await holdRequests(page, '/api/videos');
    await page.getByRole('link', { name: /Career Prep/ }).click();
    await expect(page.getByTestId('playlist-skeleton')).toHaveCount(4);
    await screenshots(page, 'course-loading');
    releaseVideos();
    await expect(page.getByText('No videos found or accessible for this account')).toBeVisible();
    await screenshots(page, 'course-empty');
  });

  test('the player loads hls.js on demand, even where the browser plays HLS itself, and draws watermarked frames', async ({
    page,
  }) => {
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await signIn(page, lectern, viewer);
    await page.goto(`${lectern.url}/course/${videoCourse}`);
    await expect(page.getByRole('heading', { name: 'Values and types' })).toBeVisible();
    expect(scripts.some((s) => /hls\.light/.test(s))).toBe(false); // not before it is needed
    await page.getByRole('button', { name: /^Play Values and types/ }).click();
    const player = page.getByRole('region', { name: /Video player/ });
    await expect(player).toHaveAttribute('data-state', 'playing');
    await expect(player).toHaveAttribute('data-engine', 'hls.js');
    expect(scripts.some((s) => /hls\.light/.test(s))).toBe(true);
    const sample = () =>
      page.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        let sum = 0;
        let red = 0;
        for (let i = 0; i < data.length; i += 4) {
          sum = (sum * 31 + data[i]! + data[i + 1]! * 7 + data[i + 2]! * 13) % 1_000_000_007;
          if (data[i]! > 110 && data[i]! - Math.max(data[i + 1]!, data[i + 2]!) > 50) red++;
        }
        return { sum, red };
      });
    const first = await sample();
    await page.waitForTimeout(400);
    const second = await sample();
    expect(second.sum).not.toBe(first.sum);
    expect(second.red).toBeGreaterThan(500);
    await expect(page.getByRole('img', { name: /watermark FS24-102/ })).toBeVisible();
  });
});
