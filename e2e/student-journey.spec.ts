import { expect, test, type Page } from '@playwright/test';
import { screenshots, startLectern, type Lectern } from './lectern';
import { AdminApi, makeLectureClip, makeThumbnail, type CreatedStudent } from './student-setup';

/** Reads the player canvas: a checksum of its pixels and how many are clearly red (the watermark; the clip is grayscale). */
async function canvasSample(page: Page) {
  return page.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let sum = 0;
    let red = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      sum = (sum * 31 + r + g * 7 + b * 13) % 1_000_000_007;
      if (r > 110 && r - Math.max(g, b) > 50) red++;
    }
    return { sum, red, pixels: data.length / 4 };
  });
}

const video = (page: Page) => page.locator('video');
const currentTime = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime);

/**
 * While playing, the bar hides 3 s after the last mouse move and lets clicks through to the picture;
 * on a slow machine the steps before a click take that long. Move over the player, as a person does
 * (to two points, so the mouse really moves), until the bar is back.
 */
async function revealControls(page: Page) {
  const region = page.getByRole('region', { name: /Video player/ });
  await region.hover({ position: { x: 24, y: 24 } });
  await region.hover();
  await expect(region).not.toHaveAttribute('data-idle', 'true');
}

test.describe('student journey', () => {
  let lectern: Lectern;
  let admin: AdminApi;
  let student: CreatedStudent;
  let courseId: string;
  let firstVideo: string;
  let expiresAt: number;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    lectern = await startLectern();
    admin = await AdminApi.signIn(lectern);
    const clip = await makeLectureClip(20);
    const course = await admin.createCourse({
      name: 'Full Stack Web Development',
      description:
        'HTML, CSS and modern JavaScript, then React on the front end and Node with PostgreSQL on the back end. Weekly projects, code reviews and a capstone.',
      coursecode: 'FSWD',
      thumbnail: await makeThumbnail('0f766e', '1e3a8a'),
    });
    const expired = await admin.createCourse({
      name: 'Data Structures Refresher',
      description: 'Arrays, lists, trees and graphs with the complexity of each operation.',
      coursecode: 'DSR',
      thumbnail: await makeThumbnail('b45309', '7c2d12'),
    });
    const revoked = await admin.createCourse({
      name: 'DevOps Basics',
      description: 'Containers, CI pipelines and deployments.',
      coursecode: 'DEVOPS',
    });
    courseId = course._id;
    student = await admin.addStudent('FS24-017', 'Asha Verma');
    await admin.grantCourse(course._id, student.id, { days: 30 });
    expiresAt = Date.now() + 4_000;
    await admin.grantCourse(expired._id, student.id, { accessexpiration: new Date(expiresAt).toISOString() });
    await admin.grantCourse(revoked._id, student.id, { days: 30 });
    await admin.revokeCourse(revoked._id, student.id, 'Fees pending for term 2');
    firstVideo = await admin.uploadVideo(clip, {
      title: 'Welcome and course tour',
      description:
        'How the course runs: lectures, weekly projects and how to get help.\nKeyboard: Space, Left and Right.',
      courseId: course._id,
      rollnos: [student.rollno],
    });
    await admin.uploadVideo(clip, {
      title: 'Setting up Node and your editor',
      description: 'Install Node 22, set up VS Code and run your first script.',
      courseId: course._id,
      rollnos: [student.rollno],
    });
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  test('first sign-in, reset by mailed code, dashboard, player, resume and logout', async ({ page }) => {
    test.setTimeout(180_000);
    const mailsBefore = lectern.smtp.mails.length;

    await test.step('first sign-in leads to the reset page', async () => {
      await page.goto(lectern.url);
      await page.getByLabel('Username or e-mail').fill(student.username);
      await page.getByLabel('Password', { exact: true }).fill(student.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await expect(page).toHaveURL(/\/reset-password$/);
      await expect(page.getByText('First login detected. Please reset your password.')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Reset Your Password' })).toBeVisible();
      await expect(page.getByText(/^Time left: (60|59|58)s$/)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Resend OTP' })).toBeDisabled();
      await expect(page.getByRole('link', { name: 'Privacy policy' })).toHaveCount(0);
    });

    await test.step('the code from the mail and a new password that follows the rule', async () => {
      await lectern.smtp.waitFor(student.email, mailsBefore);
      const code = lectern.smtp.latestCode(student.email);
      await page.getByLabel('OTP digit 1 of 6').click();
      await page.keyboard.type(code);
      const reset = page.getByRole('button', { name: 'Reset Password' });
      await page.getByRole('textbox', { name: 'New password' }).fill('weakpass');
      await expect(
        page.getByText(
          'Password must have at least 1 uppercase, 1 lowercase, 1 number, 1 special character, and be 8+ chars long.',
        ),
      ).toBeVisible();
      await expect(reset).toBeDisabled();
      await page.getByRole('textbox', { name: 'New password' }).fill('Learn@2026');
      await page.getByRole('textbox', { name: 'Confirm password' }).fill('Learn@2025');
      await expect(page.getByText('Passwords do not match.')).toBeVisible();
      await expect(reset).toBeDisabled();
      await page.getByRole('textbox', { name: 'Confirm password' }).fill('Learn@2026');
      await expect(reset).toBeEnabled();
      await screenshots(page, 'reset-password');
      await reset.click();
      await expect(page).toHaveURL(new RegExp(`${lectern.url}/?$`));
      await expect(page.getByText(/Password reset successful/)).toBeVisible();
    });

    await test.step('sign in with the new password', async () => {
      await page.getByLabel('Username or e-mail').fill(student.email);
      await page.getByLabel('Password', { exact: true }).fill('Learn@2026');
      await page.getByRole('button', { name: 'Login' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByText('Login successful!')).toBeVisible();
    });

    await test.step('dashboard: an active course with progress, expired and revoked ones dimmed', async () => {
      await expect(page.getByRole('heading', { name: 'Courses' })).toBeVisible();
      await expect(page.getByText('Continue your learning journey.')).toBeVisible();
      await page.waitForTimeout(Math.max(0, expiresAt - Date.now() + 200));
      await page.reload();
      const active = page.getByRole('link', { name: /Full Stack Web Development/ });
      await expect(active).toBeVisible();
      await expect(active).toContainText('Batch: 12');
      await expect(active).toContainText('0 / 2 videos completed');
      const expired = page.getByRole('button', { name: /Data Structures Refresher/ });
      await expect(expired).toHaveCSS('opacity', '0.55');
      await expect(page.getByRole('button', { name: /DevOps Basics/ })).toContainText('Revoked');
      // The footer is on every page but /, /adminlogin and /reset-password.
      await expect(page.getByRole('link', { name: 'Privacy policy' })).toBeVisible();
      await screenshots(page, 'dashboard');

      await expired.click();
      const modal = page.getByRole('dialog', { name: 'Access Expired' });
      await expect(modal).toContainText('Course: Data Structures Refresher');
      await expect(modal).toContainText('Reason: No reason provided');
      await expect(modal).toContainText(/This course expired on \d{1,2} \w{3} \d{4}\./);
      await expect(modal).toContainText('Please contact the administrator to regain access.');
      await screenshots(page, 'dashboard-access-expired');
      await modal.getByRole('button', { name: 'Close' }).click();
      await expect(modal).toHaveCount(0);

      await page.getByRole('button', { name: /DevOps Basics/ }).click();
      await expect(page.getByRole('dialog', { name: 'Access Expired' })).toContainText(
        'Reason: Fees pending for term 2',
      );
      await page.getByRole('button', { name: 'Close' }).click();
      await expect(page).toHaveURL(/\/dashboard$/); // the modal did not navigate
    });

    await test.step('the course opens on its intro thumbnail', async () => {
      await page.getByRole('link', { name: /Full Stack Web Development/ }).click();
      await expect(page).toHaveURL(new RegExp(`/course/${courseId}\\?video=${firstVideo}$`));
      await expect(page.getByRole('heading', { name: 'Welcome and course tour' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Course Playlist' })).toBeVisible();
      const current = page
        .getByRole('navigation', { name: 'Course Playlist' })
        .locator('[aria-current="true"]');
      await expect(current).toContainText('Welcome and course tour');
      await expect(
        page.getByRole('button', { name: /^Play Next Setting up Node and your editor/ }),
      ).toBeVisible();
      await screenshots(page, 'course-intro');
    });

    await test.step('the canvas plays the video with the red watermark drawn in', async () => {
      await page.getByRole('button', { name: /^Play Welcome and course tour/ }).click();
      const player = page.getByRole('region', { name: /Video player/ });
      await expect(player).toHaveAttribute('data-state', 'playing');
      await expect(video(page)).toBeHidden(); // only the canvas is ever shown
      const engine = await player.getAttribute('data-engine');
      // hls.js wherever Media Source Extensions exist, even where Chromium plays HLS itself.
      expect(engine).toBe('hls.js');

      const first = await canvasSample(page);
      await page.waitForTimeout(400);
      const second = await canvasSample(page);
      expect(second.sum).not.toBe(first.sum);
      expect(second.red).toBeGreaterThan(second.pixels * 0.002);
      await expect(page.getByRole('img', { name: /watermark FS24-017/ })).toBeVisible();
    });

    await test.step('keyboard, speed and controls', async () => {
      await revealControls(page);
      await page.getByRole('button', { name: 'Pause' }).click();
      await expect(page.getByRole('region', { name: /Video player/ })).toHaveAttribute(
        'data-state',
        'paused',
      );
      const before = await currentTime(page);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => currentTime(page)).toBeCloseTo(before + 5, 1);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => currentTime(page)).toBeCloseTo(before, 1);

      const speed = page.getByRole('button', { name: /Playback speed/ });
      await expect(speed).toHaveText('1x');
      for (const [label, rate] of [
        ['1.5x', 1.5],
        ['2x', 2],
        ['0.5x', 0.5],
        ['1x', 1],
      ] as const) {
        await speed.click();
        await expect(speed).toHaveText(label);
        expect(await video(page).evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(rate);
      }
      await page.getByRole('button', { name: 'Mute' }).click();
      expect(await video(page).evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
      await page.getByRole('button', { name: 'Unmute' }).click();

      // Space toggles playback when the player has focus.
      await page.getByRole('region', { name: /Video player/ }).focus();
      await page.keyboard.press('Space');
      await expect(page.getByRole('region', { name: /Video player/ })).toHaveAttribute(
        'data-state',
        /playing|buffering/,
      );
      await page.waitForTimeout(300);
      await screenshots(page, 'course-playing');
      // Controls hide after 3 s without activity while playing.
      await page.mouse.move(5, 5);
      await expect(page.getByRole('region', { name: /Video player/ })).toHaveAttribute('data-idle', 'true', {
        timeout: 6_000,
      });
    });

    await test.step('pausing saves the position; a reload resumes there', async () => {
      const before = await currentTime(page);
      await page.keyboard.press('ArrowRight'); // seeking moves the position, but is not watching
      // Pause once the seek has landed, so the save carries the new position.
      await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(before + 4.5);
      // The save of the pause, not a periodic save of before the seek still on its way.
      const saved = page.waitForResponse(
        (r) =>
          r.url().endsWith('/api/progress') &&
          r.status() === 200 &&
          (r.request().postDataJSON() as { position: number }).position >= before + 4.5,
      );
      await page.keyboard.press('Space'); // pause: saved at once
      const { progress } = await (await saved).json();
      expect(progress.completed).toBe(false);
      // Watched counts whole seconds played (docs/ANALYTICS.md): the 5 s skipped are not among them.
      expect(progress.watched).toBeLessThan(progress.position - 3);

      await page.reload();
      await expect(page.getByText(/^Resume from 00:\d\d$/)).toBeVisible();
      await page.getByRole('button', { name: /^Play Welcome and course tour: resume from/ }).click();
      await expect(page.getByRole('region', { name: /Video player/ })).toHaveAttribute(
        'data-state',
        'playing',
      );
      // Resumed, not restarted: at or just past the saved position (a busy machine may play on a little
      // between the state change and this read).
      const resumedAt = await currentTime(page);
      expect(resumedAt).toBeGreaterThanOrEqual(progress.position - 1.5);
      expect(resumedAt).toBeLessThan(progress.position + 10);
    });

    await test.step('watching to the end completes the video: a tick in the playlist', async () => {
      // Back to the start and through to the end at double speed: at least 90% really played.
      await video(page).evaluate((v: HTMLVideoElement) => {
        v.currentTime = 0;
      });
      const speed = page.getByRole('button', { name: /Playback speed/ });
      await revealControls(page);
      await speed.click();
      await speed.click(); // 2x
      await expect(page.getByRole('button', { name: 'Replay video' })).toBeVisible({ timeout: 20_000 });
      const playlist = page.getByRole('navigation', { name: 'Course Playlist' });
      await expect(playlist.getByRole('img', { name: 'Completed' })).toHaveCount(1, { timeout: 10_000 });
      await expect(playlist).toContainText('1 / 2 completed');
    });

    await test.step('Play Next starts the following video', async () => {
      await page.getByRole('button', { name: /^Play Next Setting up Node and your editor/ }).click();
      await expect(page.getByRole('heading', { name: 'Setting up Node and your editor' })).toBeVisible();
      await expect(page.getByRole('region', { name: /Video player/ })).toHaveAttribute(
        'data-state',
        'playing',
      );
      await expect(page.getByRole('button', { name: /^Play Next/ })).toHaveCount(0);
    });

    await test.step('the dashboard shows the progress; logout returns to sign-in', async () => {
      await page.getByRole('link', { name: 'Courses', exact: true }).click();
      await expect(page.getByRole('link', { name: /Full Stack Web Development/ })).toContainText(
        '1 / 2 videos completed',
      );
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await expect(page.getByText('Logged out successfully!')).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`${lectern.url}/?$`));
      await expect(page.getByLabel('Username or e-mail')).toBeVisible();
      await page.goto(`${lectern.url}/dashboard`);
      await expect(page).toHaveURL(new RegExp(`${lectern.url}/?$`));
    });
  });
});
