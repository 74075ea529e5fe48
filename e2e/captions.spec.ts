import { expect, test, type Page } from '@playwright/test';
import { adminShots, adminSignIn, chooseFile, openScreen, writeTempFile } from './admin-setup';
import { screenshots, type Lectern } from './lectern';
import { ocr, signInStudent as signIn, startOneVideoClass } from './watch-setup';
import type { CreatedStudent } from './student-setup';

const SRT = `1
00:00:01,000 --> 00:00:07,000
WELCOME TO CLOSURES

2
00:00:08,000 --> 00:00:15,000
FUNCTIONS REMEMBER SCOPE

3
00:00:16,000 --> 00:00:19,000
Practice with the exercises
`;

const VTT = `WEBVTT

00:00:01.000 --> 00:00:07.000
BIENVENUE

00:00:08.000 --> 00:00:15.000 line:10%
LES FONCTIONS
`;

const video = (page: Page) => page.locator('video');
const currentTime = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime);

test.describe('captions and transcript', () => {
  let lectern: Lectern;
  let viewer: CreatedStudent;
  let outsider: CreatedStudent;
  let courseId: string;
  let videoId: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const started = await startOneVideoClass({
      course: { name: 'JavaScript Deep Dive', description: 'Closures.', coursecode: 'JSDD' },
      students: [
        ['FS24-301', 'Kavya Nair'],
        ['FS24-302', 'Rohan Das'],
      ],
      video: { title: 'Closures explained', description: 'Functions that remember.' },
      watchers: ['FS24-301'],
    });
    ({ lectern, courseId, videoId } = started);
    [viewer, outsider] = started.students as [CreatedStudent, CreatedStudent];
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  test('an admin attaches .srt and .vtt captions on /editvideodetails; a bad file names its line', async ({
    page,
  }) => {
    await adminSignIn(page, lectern);
    await openScreen(page, lectern, '/editvideodetails', 'Edit Video Details');
    await page.getByRole('button', { name: 'Captions of Closures explained' }).click();
    const dialog = page.getByRole('dialog', { name: 'Captions: Closures explained' });
    await expect(dialog.getByText('No captions yet.')).toBeVisible();

    /** Fills the form (language and label when given), picks a file holding `text` and uploads. */
    const uploadIn = async (name: string, text: string, language?: string, label?: string) => {
      if (language) await dialog.getByLabel('Language (BCP 47)').fill(language);
      if (label) await dialog.getByLabel('Label').fill(label);
      const trigger = dialog.getByRole('button', { name: 'Caption file (.vtt or .srt)' });
      await chooseFile(page, trigger, await writeTempFile(name, text));
      await dialog.getByRole('button', { name: 'Upload captions' }).click();
    };

    await uploadIn('bad.srt', '1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03 --> 00:00:04,000\nx\n');
    await expect(dialog.getByRole('alert')).toHaveText(/^Line 6: expected a cue timing/);

    await uploadIn('en.srt', SRT);
    await expect(dialog.getByRole('row', { name: /en English 3/ })).toBeVisible();
    await expect(dialog.getByRole('alert')).toHaveCount(0);

    await uploadIn('fr.vtt', VTT, 'fr', 'Français');
    await expect(dialog.getByRole('row', { name: /fr Français 2/ })).toBeVisible();
    await adminShots(page, 'captions-modal');

    // A language that was a mistake goes again.
    await uploadIn('de.vtt', VTT, 'de', 'Deutsch');
    await expect(dialog.getByRole('row', { name: /de Deutsch 2/ })).toBeVisible();
    // Delete asks once more in the row; Cancel leaves the track alone.
    await dialog.getByRole('button', { name: 'Delete Deutsch captions' }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog.getByRole('row', { name: /de Deutsch 2/ })).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete Deutsch captions' }).click();
    await dialog.getByRole('button', { name: 'Confirm: delete Deutsch captions' }).click();
    await expect(dialog.getByRole('row', { name: /Deutsch/ })).toHaveCount(0);
  });

  test('the student watches with captions drawn in the canvas and navigates by transcript and keyboard', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, lectern, viewer);
    await page.goto(`${lectern.url}/course/${courseId}?video=${videoId}`);
    await page.getByRole('button', { name: /^Play Closures explained/ }).click();
    const player = page.getByRole('region', { name: /Video player/ });
    await expect(player).toHaveAttribute('data-state', /playing|buffering/);

    // Paused from here on, so what the canvas shows depends only on the seeks below.
    await player.focus();
    await page.keyboard.press('k');
    await expect(player).toHaveAttribute('data-state', 'paused');
    await expect(page.getByTestId('player-announcer')).toHaveText('Paused');
    const transcript = page.getByRole('region', { name: /Transcript/ });
    await expect(transcript.getByRole('button')).toHaveCount(3);

    await test.step('captions on from the CC menu, remembered for the student', async () => {
      await page.getByRole('button', { name: 'Captions off. Change captions' }).click();
      await page.getByRole('menuitem', { name: 'English' }).click();
      await expect(page.getByRole('button', { name: 'Captions: English. Change captions' })).toBeVisible();
      await expect(page.getByTestId('player-announcer')).toHaveText('Captions on: English');
      expect(
        await page.evaluate(() =>
          Object.entries(localStorage).filter(([k]) => k.startsWith('lectern:captions')),
        ),
      ).toEqual([[`lectern:captions:${viewer.rollno}`, 'en']]);
    });

    await test.step('a transcript click seeks to the cue and the canvas shows its text', async () => {
      await transcript.getByRole('button', { name: /FUNCTIONS REMEMBER SCOPE/ }).click();
      await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(8);
      await expect(player).toHaveAttribute('data-state', 'paused');
      const at = await currentTime(page);
      expect(at).toBeGreaterThanOrEqual(8);
      expect(at).toBeLessThan(9.5);
      await expect(transcript.locator('[aria-current="true"]')).toContainText('FUNCTIONS REMEMBER SCOPE');
      // The canvas repaints once the seeked frame is decoded, which can trail the transcript's
      // highlight on a busy machine: read it again until the cue is there (or 15 s have passed).
      // Only the caption's white letters are read (see ocr); two of the three words must be.
      await expect(async () => {
        const text = await ocr(await page.locator('canvas').screenshot(), 'cue', { whiteTextOnly: true });
        const words = ['FUNCTIONS', 'REMEMBER', 'SCOPE'].filter((w) => text.toUpperCase().includes(w));
        expect(words.length, `OCR read: ${text.trim()}`).toBeGreaterThanOrEqual(2);
      }).toPass({ timeout: 15_000, intervals: [250, 500, 1000] });
    });

    await test.step('the transcript seeks within half a second of the cue start', async () => {
      await transcript.getByRole('button', { name: /Practice with the exercises/ }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(async () => Math.abs((await currentTime(page)) - 16)).toBeLessThan(0.5);
    });

    await test.step('search filters and marks matches', async () => {
      await transcript.getByLabel('Search the transcript').fill('scope');
      await expect(transcript.getByRole('button')).toHaveCount(1);
      await expect(transcript.locator('mark')).toHaveText('SCOPE');
      // With the transcript open the picture keeps its width: at least 800 px at 1280.
      const canvas = page.locator('canvas');
      expect(page.viewportSize()?.width).toBe(1280);
      expect((await canvas.boundingBox())!.width).toBeGreaterThanOrEqual(800);
      await screenshots(page, 'course-transcript');
      // A 390 px phone: the picture fills the width and the transcript below it still works.
      await page.setViewportSize({ width: 390, height: 844 });
      expect((await canvas.boundingBox())!.width).toBeGreaterThanOrEqual(350);
      const phoneLine = transcript.getByRole('button', { name: /FUNCTIONS REMEMBER SCOPE/ });
      await phoneLine.scrollIntoViewIfNeeded();
      expect((await phoneLine.boundingBox())!.width).toBeGreaterThanOrEqual(300);
      await page.setViewportSize({ width: 1280, height: 800 });
      await transcript.getByLabel('Search the transcript').fill('');
    });

    await test.step('keyboard alone: C, M, K and arrows', async () => {
      await player.focus();
      await page.keyboard.press('c');
      await expect(page.getByTestId('player-announcer')).toHaveText('Captions off');
      // Paused: the canvas repaints on the toggle, read until it has (see the cue step above).
      const canvasReads = async (pattern: RegExp, label: string) =>
        pattern.test(
          (
            await ocr(await page.locator('canvas').screenshot(), label, { whiteTextOnly: true })
          ).toLowerCase(),
        );
      await expect.poll(() => canvasReads(/practice|exercises/, 'off'), { timeout: 15_000 }).toBe(false);
      await page.keyboard.press('c');
      await expect(page.getByTestId('player-announcer')).toHaveText('Captions on: English');
      await expect.poll(() => canvasReads(/practice|exercises/, 'on'), { timeout: 15_000 }).toBe(true);
      await page.keyboard.press('m');
      await expect(page.getByTestId('player-announcer')).toHaveText('Muted');
      expect(await video(page).evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
      const before = await currentTime(page);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => currentTime(page)).toBeLessThan(before - 4);
      await page.keyboard.press('k');
      await expect(page.getByTestId('player-announcer')).toHaveText('Playing');
    });

    await test.step('the choice is remembered on the next visit', async () => {
      await page.reload();
      await page.getByRole('button', { name: /^Play Closures explained/ }).click();
      await expect(page.getByRole('button', { name: 'Captions: English. Change captions' })).toBeVisible();
    });
  });

  test('a student without access to the video cannot fetch its captions', async ({ page }) => {
    await signIn(page, lectern, outsider);
    const list = await page.request.get(`${lectern.url}/api/videos/${videoId}/captions`);
    expect(list.status()).toBe(403);
    const file = await page.request.get(`${lectern.url}/api/videos/${videoId}/captions/en`);
    expect(file.status()).toBe(403);
    expect(await file.text()).not.toContain('SCOPE');
  });
});
