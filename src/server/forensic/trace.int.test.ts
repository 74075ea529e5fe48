import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip, MediaTestServer } from '../../../test/support/media-kit';
import { suiteTempDirs } from '../../../test/support/temp-dirs';
import { MARK_SEGMENT_SECONDS, VARIANT_B_TAG } from './mark';
import { describeTrace, traceFile } from './trace-file';

const run = promisify(execFile);
/** 38 segments: just above the 34 decided segments the code needs to name anyone. */
const SECONDS = 38 * MARK_SEGMENT_SECONDS;

describe('trace:file names the student whose links and keys made a copy', () => {
  const makeTempDir = suiteTempDirs();
  let media: MediaTestServer;
  let work: string;
  let videoId: string;
  let url: string;
  let leaker: { code: string; studentId: string; leak: string };

  beforeAll(async () => {
    work = await makeTempDir('lectern-trace-');
    media = await MediaTestServer.start({
      engine: 'pglite',
      now: new Date().toISOString(),
      env: { FORENSIC_MARKS: 'on', OPEN_HOURS: 'always' },
    });
    const admin = (await media.server.adminClient()).client;
    const uploaded = await media.uploadLectureReady(admin, work, SECONDS);
    videoId = uploaded.videoId;
    url = uploaded.body.url;
    const deadline = Date.now() + 240_000;
    while (!(await media.objectText(`videos/${videoId}/v180/index.m3u8`))?.includes(VARIANT_B_TAG)) {
      if (Date.now() > deadline) throw new Error('the rendition was not marked within 240 s');
      await new Promise((r) => setTimeout(r, 500));
    }

    let courseId: string | undefined;
    const watch = async () => {
      const { client, student } = await media.server.studentClient();
      courseId = await media.giveAccess(student.id, videoId, courseId ? { courseId } : {});
      const opened = await client.post('/api/playback', { videoId });
      expect(opened.status).toBe(200);
      return { client, student, code: (opened.body as { code: string }).code };
    };
    // Another student watches too: an innocent session the trace must not name.
    await watch();
    const { client, student, code } = await watch();
    // A stream downloader with the student's own cookie: the child playlist, their keys, remuxed.
    const leak = path.join(work, 'leak.mp4');
    await run('nice', [
      '-n', '10', 'ffmpeg', '-v', 'error', '-nostdin', '-headers', `Cookie: token=${client.token}\r\n`,
      '-i', `${media.server.url}${url}`, '-map', '0:v:0', '-c', 'copy', leak,
    ]); // prettier-ignore
    leaker = { code, studentId: student.id, leak };
  }, 400_000);
  afterAll(async () => {
    await media?.close();
  });

  it('names the session and the student from the downloaded file, with or without --video', async () => {
    for (const options of [{}, { videoId }]) {
      const result = await traceFile(media.server.ctx, leaker.leak, options);
      expect(result.kind).toBe('matched');
      if (result.kind !== 'matched') return;
      expect(result.videoId).toBe(videoId);
      expect(result.accused.map((a) => a.code)).toEqual([leaker.code]);
      expect(result.accused[0]!.student.id).toBe(leaker.studentId);
      expect(result.decided).toBeGreaterThanOrEqual(34);
      expect(describeTrace(result)).toContain(`${leaker.code.slice(0, 4)}-${leaker.code.slice(4)}`);
    }
  }, 120_000);

  it('answers bad input clearly and never with a name', async () => {
    const text = path.join(work, 'notes.mp4');
    await writeFile(text, 'not a video at all\n');
    expect((await traceFile(media.server.ctx, text)).kind).toBe('not-a-video');

    const other = await makeClip({ seconds: 20 });
    const unrelated = await traceFile(media.server.ctx, other, { videoId });
    expect(unrelated.kind).toBe('no-match');
    expect(describeTrace(unrelated)).toContain('No session found');

    const short = path.join(work, 'ten-seconds.mp4');
    await run('ffmpeg', ['-v', 'error', '-ss', '60', '-i', leaker.leak, '-t', '10', '-c', 'copy', short]);
    const tenSeconds = await traceFile(media.server.ctx, short);
    expect(tenSeconds.kind).toBe('matched');
    if (tenSeconds.kind === 'matched') expect(tenSeconds.accused).toEqual([]);
    expect(describeTrace(tenSeconds)).toContain('No session found');
  }, 120_000);
});
