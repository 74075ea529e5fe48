import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { adminShots, adminSignIn, openScreen } from './admin-setup';
import { screenshots, type Lectern } from './lectern';
import type { CreatedStudent } from './student-setup';
import { signInStudent, startOneVideoClass } from './watch-setup';

const run = promisify(execFile);
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';
const TITLE = 'Hooks in depth';

/**
 * 20 s of a dark editor at 1280x720: a shell command for 10 s, then a function with an indented
 * body. The words are made up, so only this clip's screen has them (no captions, no speech).
 */
async function codeLecture(): Promise<string> {
  const dir = path.join(tmpdir(), 'lectern-e2e-clips');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'search-code-20s.mp4');
  // DejaVu Sans Mono's advance is 0.602 em: 19.27 px a column at 32 px (drawtext trims leading spaces).
  const line = (text: string, y: number, when: string, column = 0) =>
    `drawtext=fontfile=${FONT}:text='${text}':x=${Math.round(60 + column * 19.27)}:y=${y}:fontsize=32:fontcolor=white:enable='${when}'`;
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', 'color=c=0x1e1e1e:s=1280x720:d=20:r=25',
    '-f', 'lavfi', '-i', 'sine=frequency=440:duration=20',
    '-vf', [
      line('git rebase -i HEAD~3', 100, 'lt(t,10)'),
      line('function quorblaxWidget() {', 100, 'gte(t,10)'),
      line('return zindleplume(42);', 150, 'gte(t,10)', 4),
      line('}', 200, 'gte(t,10)'),
    ].join(','),
    '-t', '20',
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '50',
    '-c:a', 'aac', '-b:a', '48k', '-shortest', file,
  ]); // prettier-ignore
  return file;
}

const currentTime = (page: Page) => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);

/**
 * Issue 29: a word that was only on screen is found by search, the hit lands at its second, and the
 * Text on screen panel shows the code of that moment with its indentation; the admin sees the
 * indexing progress per source.
 */
test.describe('search inside lectures', () => {
  let lectern: Lectern;
  let student: CreatedStudent;
  let courseId: string;
  let videoId: string;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const started = await startOneVideoClass({
      course: { name: 'React Bootcamp', description: 'Hooks and effects.', coursecode: 'RB' },
      students: [['RB-101', 'Ishita Sen']],
      video: { title: TITLE, description: 'Effects and cleanup.', file: await codeLecture() },
      env: { SEARCH_OCR: 'on' },
    });
    ({ lectern, courseId, videoId } = started);
    [student] = started.students as [CreatedStudent];
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  test('the admin watches the index being built, source by source', async ({ page }) => {
    test.setTimeout(240_000);
    await adminSignIn(page, lectern);
    await openScreen(page, lectern, '/editvideodetails', 'Edit Video Details');
    await page.getByRole('button', { name: `Search index of ${TITLE}` }).click();
    const dialog = page.getByRole('dialog', { name: `Search index: ${TITLE}` });
    const screenText = dialog.getByRole('listitem', { name: 'Text on screen' });
    // The runner queues a packaged video within 30 s; OCR of 20 s then takes a few seconds.
    await expect(screenText).toContainText(/Queued|\d+%|Done/, { timeout: 90_000 });
    await expect(screenText.getByText('Done')).toBeVisible({ timeout: 180_000 });
    await expect(screenText).toContainText(/[1-9]\d* entr/);
    await expect(dialog.getByRole('listitem', { name: 'Speech' })).toContainText(
      'Not indexed: SPEECH_COMMAND is not set',
    );
    await adminShots(page, 'search-admin-index-done');

    // Re-index: the screen text starts over, shown queued then by percentage, until done again.
    await dialog.getByRole('button', { name: 'Re-index' }).click();
    await expect(screenText).toContainText(/Queued|\d+%/);
    await expect(dialog.getByRole('button', { name: 'Re-index' })).toBeDisabled();
    await adminShots(page, 'search-admin-index-progress');
    await expect(screenText.getByText('Done')).toBeVisible({ timeout: 120_000 });
    await expect(dialog.getByRole('button', { name: 'Re-index' })).toBeEnabled();

    // Staff search every course from the back office: the word only on screen, in its lecture.
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await openScreen(page, lectern, '/adminsearch', 'Search lectures');
    await page.getByRole('textbox', { name: 'Search every course' }).fill('zindleplume');
    const hit = page.getByRole('list', { name: 'Search results' }).getByRole('link').first();
    await expect(hit).toContainText('on screen');
    await expect(hit.locator('mark')).toHaveText(/zindleplume/);
    await expect
      .poll(() => hit.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(320);
    await adminShots(page, 'admin-search');
  });

  test('a word only on screen is found, lands at its second, and the Text on screen panel shows the code', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await signInStudent(page, lectern, student);
    await page.goto(`${lectern.url}/course/${courseId}`);
    await page.getByRole('textbox', { name: 'Search this course' }).fill('zindleplume');
    const results = page.getByRole('list', { name: 'Search results' });
    const hit = results.getByRole('link', { name: new RegExp(`${TITLE} · 00:1\\d`) });
    await expect(hit).toBeVisible();
    await expect(hit).toContainText('on screen');
    await expect(hit.locator('mark')).toHaveText(/zindleplume/);
    // The hit's still has loaded (a real JPEG of that moment).
    await expect
      .poll(() => hit.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(320);
    await screenshots(page, 'search-results');

    await hit.click();
    await expect(page).toHaveURL(new RegExp(`video=${videoId}&t=1\\d`));
    // Plays from two seconds before the hit.
    await expect.poll(() => currentTime(page), { timeout: 30_000 }).toBeGreaterThan(7);
    expect(await currentTime(page)).toBeLessThan(14);

    await page.getByRole('tab', { name: 'Text on screen' }).click();
    const text = page.getByLabel('Text read from the screen');
    await expect(text).toContainText('zindleplume', { timeout: 20_000 });
    await page.locator('video').evaluate((v: HTMLVideoElement) => v.pause());
    // Indentation kept: the body is four columns in.
    expect(await text.textContent()).toMatch(/quorblaxWidget\(\) \{\n {4}return zindleplume\(42\);/);
    await expect(page.getByRole('button', { name: 'Copy the text on screen' })).toBeVisible();
    await screenshots(page, 'search-screen-text', { hideToasts: true });

    // Back before the change: the shell command of the first screen.
    await page.locator('video').evaluate((v: HTMLVideoElement) => (v.currentTime = 4));
    await expect(text).toContainText('git rebase -i', { timeout: 10_000 });
  });
});
