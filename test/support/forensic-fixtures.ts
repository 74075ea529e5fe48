import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { VARIANT_B_TAG } from '../../src/server/marks/mark';
import type { MediaTestServer } from './media-kit';

const run = promisify(execFile);

/**
 * Waits until the ladder has marked a video: `playlist` reads its smallest rendition's playlist
 * (from the store under test, or a data folder), which then lists a B variant for every segment.
 */
export async function waitUntilMarked(
  playlist: () => Promise<string | undefined>,
  timeoutMs = 240_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await playlist())?.includes(VARIANT_B_TAG)) {
    if (Date.now() > deadline) throw new Error(`the rendition was not marked within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * A leaked copy as a stream downloader makes it: ffmpeg with the student's own session cookie reads
 * the master playlist at `masterUrl` (their child playlist, links and keys) and remuxes the video to `file`.
 */
export async function downloadCopy(masterUrl: string, token: string, file: string): Promise<string> {
  await run('nice', [
    '-n', '10', 'ffmpeg', '-v', 'error', '-nostdin', '-headers', `Cookie: token=${token}\r\n`,
    '-i', masterUrl, '-map', '0:v:0', '-c', 'copy', file,
  ]); // prettier-ignore
  return file;
}

/**
 * A new student given access to `videoId` (in `courseId`, else a new course) who opened a playback
 * session as the player does: their client, their row and the session's code.
 */
export async function watchingStudent(media: MediaTestServer, videoId: string, courseId?: string) {
  const { client, student } = await media.server.studentClient();
  const course = await media.giveAccess(student.id, videoId, courseId ? { courseId } : {});
  const opened = await client.post('/api/playback', { videoId });
  if (opened.status !== 200) throw new Error(`POST /api/playback: ${opened.status}`);
  return { client, student, courseId: course, code: (opened.body as { code: string }).code };
}
