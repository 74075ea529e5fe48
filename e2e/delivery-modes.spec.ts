import path from 'node:path';
import { expect, test } from '@playwright/test';
import { nginxLinkSecret } from '../src/server/media/delivery/segment-urls';
import { setBucketCors } from '../src/server/storage/bucket-cors';
import { startNginx } from '../test/support/nginx';
import { createTestBucket, type TestBucket } from '../test/support/stores';
import type { Lectern } from './lectern';
import { signInStudent, startOneVideoClass } from './watch-setup';

/**
 * A lecture plays in Chromium whoever sends the segment bytes: Lectern (`node`), nginx in front of
 * it (`nginx`: the site `npm run cli -- nginx:config` prints, checking secure_link) or the bucket
 * itself (`s3`, presigned links; the page's CSP names the bucket and `media:cors` lets the site read
 * it). Until this spec, `nginx` and `s3` modes had only ever been played by ffmpeg, and a browser
 * refused every `s3` segment (issue 27).
 */
// `node` plays in every other spec (student-journey, key-rotation, captions…).
const MODES = ['nginx', 's3'] as const;
/** nginx must know the key to check links: the site gets the secret derived from this one. */
const SIGNING_KEY = 'e2e-delivery-modes-signing-key-0123456789';

for (const mode of MODES) {
  test(`a lecture plays in the browser with SEGMENT_DELIVERY=${mode}`, async ({ page }) => {
    test.skip(mode === 's3' && !process.env.S3_ENDPOINT && !process.env.CI, 'S3_ENDPOINT is not set');
    test.setTimeout(180_000);
    let lectern: Lectern | undefined;
    let bucket: TestBucket | undefined;
    let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
    try {
      if (mode === 's3') bucket = await createTestBucket();
      const started = await startOneVideoClass({
        course: {
          name: `Delivery ${mode}`,
          description: 'One lecture.',
          coursecode: `DL${mode.toUpperCase()}`,
        },
        students: [['DL24-701', 'Meera Pillai']],
        video: { title: 'Delivered lecture', description: 'Twenty seconds.' },
        env: bucket
          ? { ...bucket.env, SEGMENT_DELIVERY: 's3' }
          : { SEGMENT_DELIVERY: 'nginx', SIGNING_KEY, TRUST_PROXY: '1' },
      });
      lectern = started.lectern;
      // What `npm run cli -- media:cors --origin <site>` does, for this server's address.
      if (bucket) await setBucketCors(bucket.client, bucket.name, [new URL(lectern.url).origin]);
      if (mode === 'nginx')
        nginx = await startNginx({
          kind: 'delivery',
          videosDir: path.join(lectern.dataDir, 'media', 'videos'),
          lectern: new URL(lectern.url).host,
          secret: nginxLinkSecret(Buffer.from(SIGNING_KEY, 'utf8')),
        });
      // The student meets the school where its site is: nginx's address in nginx mode.
      const site = nginx ? { ...lectern, url: nginx.url } : lectern;

      const segments: { url: string; status: number }[] = [];
      page.on('response', (res) => {
        if (/\.ts(\?|$)/.test(new URL(res.url()).pathname + '?'))
          segments.push({ url: res.url(), status: res.status() });
      });
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|CORS/i.test(message.text())) refused.push(message.text());
      });
      await signInStudent(page, site, started.students[0]!);
      await page.goto(`${site.url}/course/${started.courseId}?video=${started.videoId}`);
      await page.getByRole('button', { name: /^Play Delivered lecture/ }).click();
      const player = page.getByRole('region', { name: /Video player/ });
      await expect(player).toHaveAttribute('data-state', 'playing');
      const time = () => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);
      await expect.poll(time, { timeout: 30_000 }).toBeGreaterThan(4);

      expect(refused).toEqual([]);
      expect(segments.length).toBeGreaterThan(0);
      expect(segments.every((s) => s.status === 200 || s.status === 206)).toBe(true);
      const from = new Set(segments.map((s) => new URL(s.url).origin));
      expect([...from]).toEqual([
        mode === 's3' ? new URL(process.env.S3_ENDPOINT!).origin : new URL(site.url).origin,
      ]);
    } finally {
      await nginx?.stop();
      await lectern?.stop();
      await bucket?.drop();
    }
  });
}

test('segments that keep failing end in an error with Try again, not an endless spinner', async ({
  page,
}) => {
  test.setTimeout(180_000);
  let lectern: Lectern | undefined;
  try {
    const started = await startOneVideoClass({
      course: { name: 'Failing segments', description: 'One lecture.', coursecode: 'DLFAIL' },
      students: [['DL24-702', 'Kiran Desai']],
      video: { title: 'Unreachable lecture', description: 'Twenty seconds.' },
    });
    lectern = started.lectern;
    // Every segment request fails as a refused or unreachable origin does (no HTTP answer at all).
    await page.route(/\/stream\/videos\/.*\.ts\?/, (route) => route.abort('failed'));
    await signInStudent(page, lectern, started.students[0]!);
    await page.goto(`${lectern.url}/course/${started.courseId}?video=${started.videoId}`);
    await page.getByRole('button', { name: /^Play Unreachable lecture/ }).click();
    const player = page.getByRole('region', { name: /Video player/ });
    await expect(player.getByRole('alert')).toContainText('This video could not be played.', {
      timeout: 45_000,
    });
    await expect(player).toHaveAttribute('data-state', 'error');

    // The network is back: Try again plays.
    await page.unroute(/\/stream\/videos\/.*\.ts\?/);
    await player.getByRole('button', { name: 'Try again' }).click();
    await page
      .getByRole('button', { name: /Play video/ })
      .click()
      .catch(() => undefined);
    const time = () => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);
    await expect.poll(time, { timeout: 30_000 }).toBeGreaterThan(2);
  } finally {
    await lectern?.stop();
  }
});
