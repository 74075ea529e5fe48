import { expect, test } from '@playwright/test';
import type { Lectern } from './lectern';
import { signInStudent, startOneVideoClass } from './watch-setup';

/**
 * The figure of issue 14, as far as a test can hold it: with the roll number and the moving session
 * mark drawn into every frame, the player keeps drawing the 25 fps clip with captions off and on,
 * 20 s each, and prints decoded and dropped frames of both halves. Dropped frames themselves are not
 * asserted: Debian's Chromium 156 on two software-rendering cores drops 6-15 % of frames in either
 * half, from run to run (12.3 % off / 6.9 % on in one run, 7.7 % / 14.9 % in the next), so a
 * threshold would only measure the machine.
 */
test('the player keeps drawing frames with captions over the watermark and the session mark', async ({
  page,
}) => {
  test.setTimeout(240_000);
  let lectern: Lectern | undefined;
  try {
    const started = await startOneVideoClass({
      course: { name: 'Frame Rate', description: 'Sixty seconds.', coursecode: 'FPS' },
      students: [['FS24-601', 'Dev Anand']],
      video: { title: 'Long take', description: 'Loops for a minute.' },
    });
    lectern = started.lectern;
    const form = new FormData();
    form.set('language', 'en');
    form.set('label', 'English');
    form.set('file', new Blob(['WEBVTT\n\n00:00.000 --> 00:19.900\nA caption on every frame\n']), 'en.vtt');
    await started.admin.client.request('POST', `/api/admin/videos/${started.videoId}/captions`, {
      body: form,
    });
    await page.setViewportSize({ width: 1280, height: 720 });
    await signInStudent(page, lectern, started.students[0]!);
    await page.goto(`${lectern.url}/course/${started.courseId}?video=${started.videoId}`);
    await page.getByRole('button', { name: /^Play Long take/ }).click();
    const measure = (seconds: number) =>
      page.locator('video').evaluate(async (video: HTMLVideoElement, ms: number) => {
        video.loop = true;
        const before = video.getVideoPlaybackQuality();
        let presented = 0;
        let counting = true;
        const count = () => {
          presented++;
          if (counting) video.requestVideoFrameCallback(count);
        };
        video.requestVideoFrameCallback(count);
        await new Promise((r) => setTimeout(r, ms));
        counting = false;
        const after = video.getVideoPlaybackQuality();
        return {
          presented,
          decoded: after.totalVideoFrames - before.totalVideoFrames,
          dropped: after.droppedVideoFrames - before.droppedVideoFrames,
        };
      }, seconds * 1000);
    const player = page.getByRole('region', { name: /Video player/ });
    await expect(player).toHaveAttribute('data-state', 'playing');
    const plain = await measure(20);
    // The bar has hidden by now: the keyboard turns captions on, as a student would.
    await player.focus();
    await page.keyboard.press('c');
    await expect(page.getByTestId('player-announcer')).toHaveText('Captions on: English');
    const captioned = await measure(20);
    const share = (r: typeof plain) => r.dropped / Math.max(1, r.decoded);
    for (const [name, r] of [
      ['without captions', plain],
      ['with captions', captioned],
    ] as const)
      console.log(
        `${name}, 20 s at 25 fps (500 frames expected): ${r.presented} drawn, ${r.decoded} decoded, ${r.dropped} dropped (${(100 * share(r)).toFixed(1)} %)`,
      );
    // The picture keeps moving in both halves: more than half of the clip's frames drawn (a stalled
    // player, or an overlay that halved the frame rate, fails). 70 % measured the machine: with the
    // run held to 1.4 of its 2 cores, Chromium drew 323 of 500 without captions and 381 with them.
    expect(plain.presented).toBeGreaterThan(500 * 0.5);
    expect(captioned.presented).toBeGreaterThan(500 * 0.5);
    // Captions that halve the frame rate fail on any machine: with them, more than half the frames
    // drawn without them (the halves differ by up to a fifth from load alone, either way).
    expect(captioned.presented).toBeGreaterThan(plain.presented * 0.5);
  } finally {
    await lectern?.stop();
  }
});
