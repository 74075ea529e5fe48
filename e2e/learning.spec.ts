import { expect, test, type Page } from '@playwright/test';
import { adminShots, adminSignIn, openScreen } from './admin-setup';
import { screenshots, type Lectern } from './lectern';
import type { CreatedStudent } from './student-setup';
import { signInStudent, startOneVideoClass } from './watch-setup';

const video = (page: Page) => page.locator('video');

/**
 * Issue 30: a student notes and asks at a moment, a classmate adds "me too", staff answer from the
 * queue, the asker is mailed and reads the answer at the moment.
 */
test.describe('notes and questions', () => {
  let lectern: Lectern;
  let asker: CreatedStudent;
  let classmate: CreatedStudent;
  let courseId: string;
  let videoId: string;
  let instructor: { username: string; password: string };

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const started = await startOneVideoClass({
      course: { name: 'Algorithms Bootcamp', description: 'Recursion and loops.', coursecode: 'ALGO' },
      students: [
        ['AL-101', 'Meera Iyer'],
        ['AL-102', 'Arjun Rao'],
      ],
      video: { title: 'Recursion, step by step', description: 'Base cases first.' },
    });
    ({ lectern, courseId, videoId } = started);
    instructor = await started.admin.createInstructor('ta-meera', 'Teach@E2e123', [courseId]);
    [asker, classmate] = started.students as [CreatedStudent, CreatedStudent];
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  test('notes at a moment (key N pauses), a question with code, me too, the answer of the course instructor, the mail', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    await signInStudent(page, lectern, asker);
    await page.goto(`${lectern.url}/course/${courseId}?video=${videoId}`);
    await page.getByRole('button', { name: /^Play Recursion, step by step/ }).click();
    const player = page.getByRole('region', { name: /Video player/ });
    await expect(player).toHaveAttribute('data-state', /playing|buffering/);
    await video(page).evaluate((v: HTMLVideoElement) => (v.currentTime = 5));

    await test.step('N opens a note at the moment and pauses the player', async () => {
      await page.keyboard.press('n');
      await expect(player).toHaveAttribute('data-state', 'paused');
      const field = page.getByRole('textbox', { name: 'Note text' });
      await expect(field).toBeFocused();
      await field.fill('Base case: `n == 0` <b>not bold</b>');
      await page.getByRole('button', { name: 'Save note' }).click();
      const notes = page.getByRole('list', { name: 'Your notes' });
      await expect(notes.getByRole('listitem')).toHaveCount(1);
      await expect(notes).toContainText('<b>not bold</b>');
      await expect(notes.getByRole('button', { name: /^Go to 0:0\d$/ })).toBeVisible();
    });

    await test.step('a click on the note seeks there', async () => {
      // Paused away from the note (a playing clip of 20 s could reach its end on a busy machine).
      await video(page).evaluate((v: HTMLVideoElement) => {
        v.pause();
        v.currentTime = 12;
      });
      await page
        .getByRole('list', { name: 'Your notes' })
        .getByRole('button', { name: /^Go to/ })
        .click();
      await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => v.currentTime)).toBeLessThan(6);
    });

    await test.step('a question at this moment, with a code block', async () => {
      await page.getByRole('tab', { name: 'Questions' }).click();
      await page.getByRole('button', { name: 'Ask about this moment' }).click();
      await page.getByRole('textbox', { name: 'Question title' }).fill('Why does the recursion stop?');
      await page
        .getByRole('textbox', { name: 'Question details' })
        .fill('Here:\n```\nfunction f(n) { return n && f(n - 1); }\n```');
      await page.getByRole('button', { name: 'Post question' }).click();
      await expect(page.getByRole('list', { name: 'Questions on this lecture' })).toContainText(
        'Why does the recursion stop?',
      );
    });
    await test.step('the note and the question are markers on the seek bar; a marker seeks there', async () => {
      // Paused: the controls stay shown.
      await video(page).evaluate((v: HTMLVideoElement) => {
        v.pause();
        v.currentTime = 15;
      });
      await player.hover();
      const markers = player.getByRole('group', { name: 'Moments marked on the timeline' });
      const note = markers.getByRole('button', { name: /^Note at 00:0\d$/ });
      const question = markers.getByRole('button', {
        name: /^Question at 00:0\d: Why does the recursion stop\?$/,
      });
      await expect(note).toHaveAttribute('data-kind', 'note');
      await expect(question).toHaveAttribute('data-kind', 'question');
      await question.click();
      await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => v.currentTime)).toBeLessThan(8);
      await player.hover();
      await screenshots(page, 'learning-player-markers', { hideToasts: true });
    });
    await page.getByRole('tab', { name: 'Notes' }).click();
    await screenshots(page, 'learning-player-notes', { hideToasts: true });
    await page.getByRole('tab', { name: 'Questions' }).click();
    await screenshots(page, 'learning-player-questions', { hideToasts: true });

    await test.step('a classmate sees it and adds me too', async () => {
      const context = await browser.newContext();
      const other = await context.newPage();
      await signInStudent(other, lectern, classmate);
      await other.goto(`${lectern.url}/course/${courseId}?video=${videoId}`);
      await other.getByRole('button', { name: /^Play Recursion/ }).click();
      await other.getByRole('tab', { name: 'Questions' }).click();
      await other.getByRole('button', { name: 'Me too (0)' }).click();
      await expect(other.getByRole('button', { name: 'Me too (1)' })).toBeVisible();
      // Notes stay private.
      await other.getByRole('tab', { name: 'Notes' }).click();
      await expect(other.getByText('No notes on this lecture yet.')).toBeVisible();
      await context.close();
    });

    const mailsBefore = lectern.smtp.mails.length;
    await test.step("the course's instructor answers from the queue", async () => {
      const context = await browser.newContext();
      const admin = await context.newPage();
      await adminSignIn(admin, lectern, instructor);
      await expect(admin.getByRole('heading', { name: 'Instructor Dashboard' })).toBeVisible();
      await openScreen(admin, lectern, '/adminquestions', 'Questions');
      await expect(admin.getByText('1 me too')).toBeVisible();
      await admin
        .getByRole('textbox', { name: 'Answer to Why does the recursion stop?' })
        .fill('When `n` reaches 0, `n && …` is 0: the base case.');
      await admin.getByRole('button', { name: 'Answer', exact: true }).click();
      await expect(admin.getByText('1 answered')).toBeVisible();
      // The frame the server took of the moment (never the student's canvas). It is a low-priority
      // job that waits behind the lecture's own (search, thumbnails) on a busy machine, so the
      // instructor looks again, as a person reloads a list that came before it.
      const frame = admin.getByRole('img', { name: /^The lecture at 0:0\d, where the question was asked$/ });
      await expect(async () => {
        if (!(await frame.isVisible())) {
          await admin.reload();
          await expect(frame).toBeVisible({ timeout: 5_000 });
        }
      }).toPass({ timeout: 120_000, intervals: [1_000, 3_000] });
      await expect.poll(() => frame.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
      await adminShots(admin, 'learning-queue');
      await test.step('the retention chart shows where questions were asked', async () => {
        await openScreen(admin, lectern, `/adminanalytics/video/${videoId}`, 'Recursion, step by step');
        await expect(admin.getByText(/Questions \(per 10 s\)/)).toBeVisible();
        await admin.getByRole('button', { name: 'Show questions as a table' }).click();
        const table = admin.getByRole('table').filter({ hasText: 'Questions asked' });
        await expect(table.getByRole('row')).toHaveCount(2);
        await admin.mouse.move(0, 0); // no tooltip over the chart
        await adminShots(admin, 'learning-analytics-questions');
      });
      await context.close();
    });

    await test.step('the asker is mailed and reads the answer', async () => {
      const mail = await lectern.smtp.waitFor(asker.email, mailsBefore);
      expect(mail.subject).toContain('your question was answered');
      await page.reload();
      await page.getByRole('button', { name: /^Play Recursion/ }).click();
      await page.getByRole('tab', { name: /Questions/ }).click();
      await expect(page.getByText('1 new')).toBeVisible();
      // The question in the list (its marker on the seek bar bears the title too).
      await page
        .getByRole('list', { name: 'Questions on this lecture' })
        .getByRole('button', { name: /Why does the recursion stop\?/ })
        .click();
      await expect(page.getByText('the base case.', { exact: false })).toBeVisible();
      await expect(
        page.getByRole('img', { name: /^The lecture at 0:0\d, where the question/ }),
      ).toBeVisible();
      await expect(page.getByText('1 new')).toHaveCount(0);
      await screenshots(page, 'learning-answered', { hideToasts: true });
    });

    await test.step('My notes for the course, with the Markdown export', async () => {
      await page.goto(`${lectern.url}/course/${courseId}/notes`);
      await expect(page.getByRole('heading', { name: 'My notes' })).toBeVisible();
      await expect(page.getByText('Recursion, step by step')).toBeVisible();
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Export as Markdown' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('algorithms-bootcamp-notes.md');
      await screenshots(page, 'learning-my-notes');
    });
  });
});
