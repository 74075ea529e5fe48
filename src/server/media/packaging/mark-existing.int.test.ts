import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRendition, get } from '../../../../test/support/delivery';
import { downloadCopy, waitUntilMarked } from '../../../../test/support/forensic-fixtures';
import { MediaTestServer } from '../../../../test/support/media-kit';
import { runCli } from '../../../../test/support/processes';
import { suiteTempDirs } from '../../../../test/support/temp-dirs';
import { loadConfig } from '../../config';
import { MARK_SEGMENT_SECONDS, VARIANT_FILE_PATTERN } from '../../marks/mark';
import { traceFile } from '../../forensic/trace-file';
import { jobHandlers, jobLanes } from '../../wiring/job-registry';
import { JobRunner } from '../../jobs/runner';
import { openRuntime, type Runtime } from '../../runtime';

/** 38 marked segments: enough for a trace (34 decided) of the whole copy. */
const SECONDS = 38 * MARK_SEGMENT_SECONDS;

/**
 * `media:mark` on a school that turns FORENSIC_MARKS on after videos were packaged: the web node keeps
 * serving (its own settings), the command queues the work, a worker started with marks on re-encodes
 * each rendition marked from the tallest one (the upload is gone), and a student's copy is traced.
 * PostgreSQL: the CLI and the second worker share the first server's database.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('media:mark marks videos packaged unmarked', () => {
  const makeTempDir = suiteTempDirs();
  let media: MediaTestServer;
  let marker: { runtime: Runtime; runner: JobRunner } | undefined;
  let env: Record<string, string>;
  let videoId: string;
  let url: string;

  beforeAll(async () => {
    const work = await makeTempDir('lectern-mark-');
    media = await MediaTestServer.start({
      engine: 'postgres',
      now: new Date().toISOString(),
      env: { OPEN_HOURS: 'always' },
    });
    const config = media.server.ctx.config;
    env = { DATABASE_URL: config.databaseUrl!, DATA_DIR: config.dataDir, OPEN_HOURS: 'always' };
    const admin = (await media.server.adminClient()).client;
    const uploaded = await media.uploadLectureReady(admin, work, SECONDS);
    videoId = uploaded.videoId;
    url = uploaded.body.url;
    // The ladder of an unmarked school removes the upload once every rung is there.
    const deadline = Date.now() + 120_000;
    while ((await media.objects(`sources/${videoId}`)).length) {
      if (Date.now() > deadline) throw new Error('the upload was not removed within 120 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 300_000);
  afterAll(async () => {
    await marker?.runner.stop();
    await marker?.runtime.close();
    await media?.close();
  });

  /** A GET's status, its body read to the end (an unread body would hold the server's close). */
  async function statusOf(link: URL, token: string | undefined) {
    const res = await get(link, token);
    await res.arrayBuffer();
    return res.status;
  }

  async function viewer() {
    const { client, student } = await media.server.studentClient();
    await media.giveAccess(student.id, videoId);
    const opened = await client.post('/api/playback', { videoId });
    expect(opened.status).toBe(200);
    return { client, student, code: (opened.body as { code: string }).code };
  }

  it('refuses without FORENSIC_MARKS=on, then queues the video and a marking worker marks it', async () => {
    const off = await runCli(['media:mark'], env);
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('FORENSIC_MARKS=on');

    // A student watching before: the links of their playlist keep working while the rendition is replaced.
    const before = await viewer();
    const old = await firstRendition(media.server.url, url, before.client.token!);
    const oldSegment = new URL(old.segments[0]!);
    expect(await statusOf(oldSegment, before.client.token)).toBe(200);

    // The school's workers stop to restart with the setting; the command queues meanwhile.
    await media.runner.stop();
    const queued = await runCli(['media:mark'], { ...env, FORENSIC_MARKS: 'on' });
    expect(queued.code).toBe(0);
    expect(queued.stdout).toContain('1 video not fully marked; queued 1 video.');
    const again = await runCli(['media:mark', '--video', videoId], { ...env, FORENSIC_MARKS: 'on' });
    expect(again.stdout).toContain('1 video not fully marked; queued 0 videos (1 already queued)');

    // Back with FORENSIC_MARKS=on: this worker marks.
    const runtime = await openRuntime(
      loadConfig({
        ...env,
        FORENSIC_MARKS: 'on',
        LOG_LEVEL: 'silent',
        SMTP_URL: media.server.ctx.config.smtpUrl!,
      }),
    );
    marker = {
      runtime,
      runner: new JobRunner(runtime.ctx, jobHandlers(runtime.ctx), {
        pollMs: 100,
        ...jobLanes,
      }),
    };
    await marker.runner.start();
    await waitUntilMarked(() => media.objectText(`videos/${videoId}/v180/index.m3u8`));
    expect(await statusOf(oldSegment, before.client.token)).toBe(200);

    const done = await runCli(['media:mark'], { ...env, FORENSIC_MARKS: 'on' });
    expect(done.stdout).toContain('0 videos not fully marked; queued 0 videos.');
  }, 400_000);

  it('names the student whose copy of the newly marked video leaked', async () => {
    await viewer(); // an innocent session
    const leaker = await viewer();
    const { segments } = await firstRendition(media.server.url, url, leaker.client.token!);
    for (const segment of segments)
      expect(path.posix.basename(new URL(segment).pathname)).toMatch(VARIANT_FILE_PATTERN);

    const leak = await downloadCopy(
      `${media.server.url}${url}`,
      leaker.client.token!,
      path.join(media.server.dataDir, 'leak.mp4'),
    );
    const result = await traceFile(media.server.ctx, leak, { videoId });
    expect(result.kind).toBe('matched');
    if (result.kind !== 'matched') return;
    expect(result.accused.map((a) => a.student.id)).toEqual([leaker.student.id]);
  }, 180_000);
});
