import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { displayCode } from '../src/contract/playback';
import { MARK_SEGMENT_SECONDS } from '../src/server/marks/mark';
import { downloadCopy, waitUntilMarked } from '../test/support/forensic-fixtures';
import { TestClient } from '../test/support/http-client';
import { makeLectureClip } from '../test/support/lecture-clip';
import { adminShots, adminSignIn, chooseFile, openScreen } from './admin-setup';
import { scan } from './axe-scan';
import type { Lectern } from './lectern';
import { startOneVideoClass } from './watch-setup';

/**
 * 38 marked segments (1.9 minutes) at 320x180: the shortest lecture whose copy can name anyone (34
 * decided segments), and small, so marking and decoding it take seconds, not minutes.
 */
const SECONDS = 38 * MARK_SEGMENT_SECONDS;
const clips = path.join(tmpdir(), 'lectern-e2e-clips');

/** The lecture-like clip the forensic tests mark, made once per machine. */
async function markableLecture(): Promise<string> {
  await mkdir(clips, { recursive: true });
  const file = path.join(clips, `lecture-${SECONDS}s-180p.mp4`);
  if (await stat(file).catch(() => null)) return file;
  const temp = `${file}.${process.pid}.tmp.mp4`;
  await makeLectureClip(temp, { seconds: SECONDS, width: 320, height: 180 });
  await rename(temp, file);
  return file;
}

/** A Lectern marking its videos, a marked lecture two students opened, and Meera's download of it. */
async function leakedLecture(): Promise<{ lectern: Lectern; leak: string; code: string }> {
  const { lectern, videoId, students } = await startOneVideoClass({
    course: { name: 'Operating Systems', description: 'Processes and memory.', coursecode: 'OS' },
    students: [
      ['FS24-701', 'Meera Iyer'],
      ['FS24-702', 'Kabir Das'],
    ],
    video: { title: 'Virtual memory', description: 'Pages and frames.', file: await markableLecture() },
    env: { FORENSIC_MARKS: 'on' },
  });
  // The ladder replaces the first (remuxed) rendition with the marked one.
  const playlist = path.join(lectern.dataDir, 'media', 'videos', videoId, 'v180', 'index.m3u8');
  await waitUntilMarked(() => readFile(playlist, 'utf8').catch(() => undefined));
  const codes: string[] = [];
  let meera: TestClient | undefined;
  for (const { username, password } of students) {
    const client = new TestClient(lectern.url);
    expect((await client.post('/api/signin', { username, password })).status).toBe(200);
    const opened = await client.post('/api/playback', { videoId });
    expect(opened.status).toBe(200);
    codes.push((opened.body as { code: string }).code);
    meera ??= client;
  }
  const master = `${lectern.url}/stream/videos/${videoId}/master.m3u8`;
  const leak = await downloadCopy(
    master,
    meera!.token!,
    path.join(lectern.dataDir, 'virtual-memory-copy.mp4'),
  );
  return { lectern, leak, code: codes[0]! };
}

test.describe('tracing a downloaded copy', () => {
  let school: Awaited<ReturnType<typeof leakedLecture>> | undefined;
  test.beforeAll(async () => {
    test.setTimeout(360_000);
    school = await leakedLecture();
  });
  test.afterAll(() => school?.lectern.stop());

  test('an admin uploads the copy on Trace a leak and sees the student who downloaded it', async ({
    page,
  }) => {
    const { lectern, leak, code } = school!;
    test.setTimeout(180_000);
    await adminSignIn(page, lectern);
    await openScreen(page, lectern, '/admintrace', 'Trace a leak');
    const card = page.getByRole('region', { name: 'Trace a downloaded copy' });
    await expect(page.getByText('No traces yet.')).toBeVisible();

    await chooseFile(page, card.getByRole('button', { name: 'Leaked video file' }), leak);
    await card.getByRole('combobox', { name: 'Video (optional)' }).click();
    await page.getByRole('option', { name: 'Virtual memory' }).click();
    await card.getByRole('button', { name: 'Trace the copy' }).click();

    const session = card.getByRole('region', { name: `Session ${displayCode(code)}` });
    await expect(session).toContainText('Meera Iyer', { timeout: 120_000 });
    await expect(session).toContainText('FS24-701');
    await expect(session).toContainText(/(\d+) of \d+ segments agree/);
    await expect(card).toContainText('One session named');
    await expect(card).not.toContainText('Kabir Das');
    await expect(
      page.getByRole('row', { name: /virtual-memory-copy\.mp4.*Done.*Meera Iyer \(FS24-701\)/ }),
    ).toBeVisible();
    expect(await scan(page, 'trace a copy, answered')).toEqual([]);
    await adminShots(page, 'trace-copy');
  });
});
