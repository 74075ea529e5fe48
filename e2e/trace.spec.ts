import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CODE_ALPHABET } from '../src/contract/playback';
import { adminShots, adminSignIn, openScreen } from './admin-setup';
import type { Lectern } from './lectern';
import { ocr, signInStudent, startOneVideoClass } from './watch-setup';
import type { CreatedStudent } from './student-setup';

/**
 * How many characters OCR got wrong in its best reading of `code` on the page: every run of 8
 * characters in the text (spaces and line breaks dropped), read as the trace route reads a typed code
 * (O as 0, I and L as 1) and compared with it position by position. The code is drawn as two halves
 * around a dash, which tesseract reads as a dash, "-~", "=", a letter (NCSF-NK1B as NCSFENK1B) or
 * nothing: up to two characters between the halves are skipped. A character outside the code's
 * alphabet (a C read as €) counts as misread.
 */
function misreadCharacters(text: string, code: string): number {
  let best = code.length;
  const half = code.length / 2;
  // Sparse-text OCR puts what it reads on lines of their own, the halves often on two.
  const chars = Array.from(text.toUpperCase().replace(/\s+/g, ''));
  for (let i = 0; i + code.length <= chars.length; i++) {
    for (let between = 0; between <= 2 && i + code.length + between <= chars.length; between++) {
      const reading = [
        ...chars.slice(i, i + half),
        ...chars.slice(i + half + between, i + code.length + between),
      ].map((ch) => (ch === 'O' ? '0' : ch === 'I' || ch === 'L' ? '1' : ch));
      let wrong = 0;
      for (let j = 0; j < code.length; j++) if (reading[j] !== code[j]) wrong++;
      best = Math.min(best, wrong);
    }
  }
  return best;
}

/**
 * The fewest characters misread over up to `tries` screenshots a second apart (the picture changes
 * under the mark); a reading that misses is read again in the code's own symbols, as a person tracing
 * a leak would read it knowing its alphabet.
 */
async function bestReading(page: Page, code: string, tries = 4): Promise<number> {
  let best = code.length;
  for (let i = 0; i < tries && best > 1; i++) {
    if (i) await page.waitForTimeout(1000);
    const shot = await page.screenshot();
    best = Math.min(best, misreadCharacters(await ocr(shot, `leak-${code}-${i}`), code));
    if (best > 1)
      best = Math.min(
        best,
        misreadCharacters(await ocr(shot, `leak-${code}-${i}-code`, { only: `${CODE_ALPHABET}-` }), code),
      );
  }
  return best;
}

test.describe('leak tracing', () => {
  let lectern: Lectern;
  let students: CreatedStudent[];
  let courseId: string;
  let videoId: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    ({ lectern, courseId, videoId, students } = await startOneVideoClass({
      course: { name: 'Web Security', description: 'XSS.', coursecode: 'WSEC' },
      students: [
        ['FS24-401', 'Ishaan Mehta'],
        ['FS24-402', 'Zara Khan'],
      ],
      video: { title: 'Cross-site scripting', description: 'Escaping output.' },
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

  /** A student plays the video in a 1280x720 window; answers the code the server gave and the page. */
  async function watch(
    browser: Browser,
    student: CreatedStudent,
    withCaptions = false,
  ): Promise<{ code: string; page: Page }> {
    const studentWindow = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    windows.push(studentWindow);
    const page = await studentWindow.newPage();
    await signInStudent(page, lectern, student);
    await page.goto(`${lectern.url}/course/${courseId}?video=${videoId}`);
    const answer = page.waitForResponse(
      (r) => r.url().endsWith('/api/playback') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: /^Play Cross-site scripting/ }).click();
    const { code } = (await (await answer).json()) as { code: string };
    const player = page.getByRole('region', { name: /Video player/ });
    await expect(player).toHaveAttribute('data-state', 'playing');
    if (withCaptions) {
      await player.hover(); // the control bar hides after 3 s without the mouse
      await page.getByRole('button', { name: 'Captions off. Change captions' }).click();
      await page.getByRole('menuitem', { name: 'English' }).click();
      await expect(page.getByTestId('player-announcer')).toHaveText('Captions on: English');
      // Reaching the menu may have scrolled the page: the whole player back in the window.
      await page.evaluate(() => window.scrollTo(0, 0));
    }
    await page.waitForTimeout(1500);
    return { code, page };
  }

  test('a screenshot of the page names the session, and the trace names the student', async ({
    browser,
    page,
  }) => {
    test.setTimeout(120_000);
    const first = await watch(browser, students[0]!);
    // Tesseract on a 1280x720 page over a busy picture: the code, at most one character misread
    // (a person reads it exactly; the trace screen takes it with or without the dash, any case).
    expect(await bestReading(first.page, first.code)).toBeLessThanOrEqual(1);

    const second = await watch(browser, students[1]!);
    expect(second.code).not.toBe(first.code);
    expect(await bestReading(second.page, second.code)).toBeLessThanOrEqual(1);

    // The admin types what they read, dash and all, in lower case.
    await adminSignIn(page, lectern);
    await openScreen(page, lectern, '/admintrace', 'Trace a leak');
    await page
      .getByLabel('Session code')
      .fill(`${first.code.slice(0, 4)}-${first.code.slice(4)}`.toLowerCase());
    const started = Date.now();
    await page.getByRole('button', { name: 'Trace' }).click();
    const result = page.getByRole('region', { name: /^Session / });
    await expect(result).toContainText('Ishaan Mehta');
    await expect(result).toContainText('FS24-401');
    await expect(result).toContainText(students[0]!.username);
    await expect(result).toContainText('Cross-site scripting');
    await expect(result).toContainText('Web Security (WSEC)');
    await expect(result).toContainText('127.0.0.1');
    await expect(result).toContainText(/Chrom/);
    expect(Date.now() - started).toBeLessThan(60_000);
    await adminShots(page, 'trace-a-leak');

    await page.getByLabel('Session code').fill(second.code);
    await page.getByRole('button', { name: 'Trace' }).click();
    await expect(page.getByRole('region', { name: /^Session / })).toContainText('Zara Khan');

    await page.getByLabel('Session code').fill('abc');
    await page.getByRole('button', { name: 'Trace' }).click();
    await expect(page.getByText(/A session code is 8 characters/)).toBeVisible();

    // Students cannot trace.
    const asStudent = await second.page.request.get(`${lectern.url}/api/admin/trace/${first.code}`);
    expect(asStudent.status()).toBe(403);
  });
  test('with captions on, the code is never under them: OCR reads it at several moments and the trace names the student', async ({
    browser,
    page,
  }) => {
    test.setTimeout(150_000);
    // Two-line cues for the whole clip, at the bottom (over the band where the code used to sit),
    // in the middle and near the top: wherever the caption box is, the code must be elsewhere.
    await adminSignIn(page, lectern);
    const upload = await page.request.post(`${lectern.url}/api/admin/videos/${videoId}/captions`, {
      headers: { origin: lectern.url },
      multipart: {
        language: 'en',
        label: 'English',
        file: {
          name: 'en.vtt',
          mimeType: 'text/vtt',
          buffer: Buffer.from(
            'WEBVTT\n\n' +
              '00:00:00.000 --> 00:00:07.000\nNEVER TRUST USER INPUT\nESCAPE EVERY VALUE YOU RENDER\n\n' +
              '00:00:07.000 --> 00:00:13.000 line:45%\nNEVER TRUST USER INPUT\nESCAPE EVERY VALUE YOU RENDER\n\n' +
              '00:00:13.000 --> 00:00:20.000 line:15%\nNEVER TRUST USER INPUT\nESCAPE EVERY VALUE YOU RENDER\n',
          ),
        },
      },
    });
    expect(upload.status(), await upload.text()).toBe(200);

    const watched = await watch(browser, students[1]!, true);
    // Paused, so each screenshot shows a chosen moment however slow the machine (the canvas draws
    // the frame, the watermark, the code and the caption while paused, as a leaked still would).
    const video = watched.page.locator('video');
    await video.evaluate((v: HTMLVideoElement) => v.pause());
    await expect(watched.page.getByRole('region', { name: /Video player/ })).toHaveAttribute(
      'data-state',
      'paused',
    );
    // One moment per cue placement: each screenshot shows the caption and the readable code.
    for (const [moment, at] of [
      ['bottom cue', 3],
      ['middle cue', 9],
      ['top cue', 15],
    ] as const) {
      let best = watched.code.length;
      let captionShown = false;
      // Up to eight frames of the cue (all inside it: 0.5 s apart): tesseract may misread the code
      // over a busy picture (a CI run read a plainly legible code with six characters wrong, three
      // times; another, two wrong in six frames). A reading that misses is read again in the code's
      // own symbols, as a person tracing a leak would read it knowing its alphabet.
      for (let i = 0; i < 8 && (best > 1 || !captionShown); i++) {
        await video.evaluate(
          (v: HTMLVideoElement, seconds) =>
            new Promise<void>((resolve) => {
              v.addEventListener('seeked', () => resolve(), { once: true });
              v.currentTime = seconds;
            }),
          at + i * 0.5,
        );
        await watched.page.waitForTimeout(300);
        const shot = await watched.page.screenshot();
        const text = await ocr(shot, `captioned-${at}-${i}`);
        best = Math.min(best, misreadCharacters(text, watched.code));
        captionShown ||= /TRUST|ESCAPE|RENDER/.test(text.toUpperCase());
        if (best > 1)
          best = Math.min(
            best,
            misreadCharacters(
              await ocr(shot, `captioned-${at}-${i}-code`, { only: `${CODE_ALPHABET}-` }),
              watched.code,
            ),
          );
      }
      expect(captionShown, `${moment}: the caption is on the picture`).toBe(true);
      expect(best, `${moment}: the code reads with at most one character wrong`).toBeLessThanOrEqual(1);
      if (at === 9) await watched.page.screenshot({ path: 'screenshots/trace-captioned-player-desktop.png' });
    }

    await openScreen(page, lectern, '/admintrace', 'Trace a leak');
    await page.getByLabel('Session code').fill(watched.code);
    await page.getByRole('button', { name: 'Trace' }).click();
    const result = page.getByRole('region', { name: /^Session / });
    await expect(result).toContainText('Zara Khan');
    await expect(result).toContainText('FS24-402');
  });
});
