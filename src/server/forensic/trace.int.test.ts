import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { downloadCopy, waitUntilMarked, watchingStudent } from '../../../test/support/forensic-fixtures';
import { makeClip, suiteMedia } from '../../../test/support/media-kit';
import { suiteTempDirs } from '../../../test/support/temp-dirs';
import { MARK_SEGMENT_SECONDS } from '../marks/mark';
import { describeTrace, traceFile } from './trace-file';

const run = promisify(execFile);
/** 38 segments: just above the 34 decided segments the code needs to name anyone. */
const SECONDS = 38 * MARK_SEGMENT_SECONDS;

describe('trace:file names the student whose links and keys made a copy', () => {
  const makeTempDir = suiteTempDirs();
  const { media, admin } = suiteMedia({
    engine: 'pglite',
    now: new Date().toISOString(),
    env: { FORENSIC_MARKS: 'on', OPEN_HOURS: 'always' },
  });
  let work: string;
  let videoId: string;
  let url: string;
  let leaker: { code: string; studentId: string; leak: string };

  beforeAll(async () => {
    work = await makeTempDir('lectern-trace-');
    const uploaded = await media.uploadLectureReady(admin, work, SECONDS);
    videoId = uploaded.videoId;
    url = uploaded.body.url;
    await waitUntilMarked(() => media.objectText(`videos/${videoId}/v180/index.m3u8`));

    // Another student watches too: an innocent session the trace must not name.
    const innocent = await watchingStudent(media, videoId);
    const { client, student, code } = await watchingStudent(media, videoId, innocent.courseId);
    // A stream downloader with the student's own cookie: the child playlist, their keys, remuxed.
    const leak = await downloadCopy(`${media.server.url}${url}`, client.token!, path.join(work, 'leak.mp4'));
    leaker = { code, studentId: student.id, leak };
  }, 400_000);

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
