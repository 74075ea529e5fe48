import { expect, test } from '@playwright/test';
import { TestClient } from '../test/support/http-client';
import { startLectern, type Lectern } from './lectern';
import { activateStudent, AdminApi, makeLectureClip, type CreatedStudent } from './student-setup';

const ROTATION = 2;
/** hls.js buffers at most 30 s ahead, plus the fragment that crosses that line (6 s segments). */
const MAX_AHEAD = ROTATION + 30 + 6;

test.describe('rotating keys in the real player', () => {
  let lectern: Lectern;
  let admin: AdminApi;
  let student: CreatedStudent;
  let courseId: string;
  let videoId: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    lectern = await startLectern({ KEY_ROTATION_SECONDS: String(ROTATION) });
    admin = await AdminApi.signIn(lectern);
    const course = await admin.createCourse({
      name: 'Rotating keys',
      description: 'A long lecture.',
      coursecode: 'ROT',
    });
    courseId = course._id;
    student = await admin.addStudent('ROT-001', 'Ravi Kumar');
    await activateStudent(lectern, student, 'Student@Pass1');
    await admin.grantCourse(courseId, student.id, { days: 30 });
    videoId = await admin.uploadVideo(await makeLectureClip(120), {
      title: 'Long lecture',
      description: 'Two minutes.',
      courseId,
      rollnos: [student.rollno],
    });
  });
  test.afterAll(async () => {
    await lectern?.stop();
  });

  test('a revoke mid-playback refuses the next key and the player stops within the rotation + 30 s of media', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const client = new TestClient(lectern.url);
    expect(
      (await client.post('/api/signin', { username: student.username, password: student.password })).status,
    ).toBe(200);
    await page.context().addCookies([{ name: 'token', value: client.token!, url: lectern.url }]);
    const keys: number[] = [];
    page.on('response', (res) => {
      if (/\/stream\/videos\/[0-9a-f-]{36}\/keys\/\d+$/.test(res.url())) keys.push(res.status());
    });

    await page.goto(`${lectern.url}/course/${courseId}?video=${videoId}`);
    await page.getByRole('button', { name: /^Play Long lecture/ }).click();
    const player = page.getByRole('region', { name: /Video player/ });
    await expect(player).toHaveAttribute('data-state', 'playing');
    const time = () => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);
    await page.locator('video').evaluate((v: HTMLVideoElement) => (v.playbackRate = 2));
    await expect.poll(time, { timeout: 20_000 }).toBeGreaterThan(8);
    expect(keys.length).toBeGreaterThanOrEqual(2); // several periods fetched already
    expect(keys.every((s) => s === 200)).toBe(true);

    await admin.revokeCourse(courseId, student.id, 'Fees pending');
    const revokedAt = await time();
    // The next key is refused at once.
    await expect.poll(() => keys.includes(403), { timeout: 40_000 }).toBe(true);
    // And the picture stops: the playhead never gets further than the keys it already had.
    let last = -1;
    let still = 0;
    let furthest = revokedAt;
    while (still < 4) {
      await page.waitForTimeout(1000);
      const now = await time();
      furthest = Math.max(furthest, now);
      still = Math.abs(now - last) < 0.05 ? still + 1 : 0;
      last = now;
      expect(furthest, `still playing at ${furthest}s, revoked at ${revokedAt}s`).toBeLessThanOrEqual(
        revokedAt + MAX_AHEAD,
      );
    }
    expect(furthest).toBeLessThan(110);
    const stopped = `revoked at ${revokedAt.toFixed(1)} s of media, stopped at ${furthest.toFixed(1)} s`;
    test.info().annotations.push({ type: 'revoke', description: stopped });
    console.log(stopped);
  });
});
