import { expect, test } from '@playwright/test';
import type { Lectern } from './lectern';
import { signInStudent, startOneVideoClass } from './watch-setup';

/**
 * The figure of issue 14: with the roll number, the moving session mark and captions drawn into
 * every frame, the player keeps the clip's 25 fps for 60 s in Chromium (dropped frames reported).
 */
test('60 s of playback with captions and the session mark keeps the frame rate', async ({ page }) => {
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
    await page.getByRole('button', { name: 'Captions off. Change captions' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    const result = await page.locator('video').evaluate(async (video: HTMLVideoElement) => {
      video.loop = true;
      const before = video.getVideoPlaybackQuality();
      let presented = 0;
      const count = () => {
        presented++;
        video.requestVideoFrameCallback(count);
      };
      video.requestVideoFrameCallback(count);
      await new Promise((r) => setTimeout(r, 60_000));
      const after = video.getVideoPlaybackQuality();
      return {
        presented,
        decoded: after.totalVideoFrames - before.totalVideoFrames,
        dropped: after.droppedVideoFrames - before.droppedVideoFrames,
      };
    });
    console.log(
      `60 s at 25 fps (1500 frames expected): ${result.presented} frames drawn, ${result.decoded} decoded, ${result.dropped} dropped`,
    );
    expect(result.dropped / Math.max(1, result.decoded)).toBeLessThan(0.02);
    expect(result.presented).toBeGreaterThan(1500 * 0.95);
  } finally {
    await lectern?.stop();
  }
});
