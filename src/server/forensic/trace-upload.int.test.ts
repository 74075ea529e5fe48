import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { traceRunMessages, type TraceRun } from '../../contract/trace-runs';
import { insertFinalizedVideo, UNKNOWN } from '../../../test/support/course-fixtures';
import { testEngines } from '../../../test/support/databases';
import { downloadCopy, waitUntilMarked, watchingStudent } from '../../../test/support/forensic-fixtures';
import type { TestClient } from '../../../test/support/http-client';
import { makeClip, MediaTestServer } from '../../../test/support/media-kit';
import { suiteTempDirs } from '../../../test/support/temp-dirs';
import { TestServer } from '../../../test/support/test-server';
import { traceRuns, users } from '../db/schema';
import { cancelJobs, enqueueJob } from '../jobs/queue';
import { mediaKeys } from '../storage';
import { MARK_SEGMENT_SECONDS } from '../marks/mark';
import { purgeTraceFilesHandler } from './trace-purge';

const run = promisify(execFile);
/** 38 segments: just above the 34 decided segments the code needs to name anyone. */
const SECONDS = 38 * MARK_SEGMENT_SECONDS;
const METRICS_TOKEN = 'metrics-token-for-the-trace-tests-0123';

/** A multipart upload as the trace screen sends it: the fields first, then the file. */
function traceForm(
  file: { bytes: Uint8Array; name: string } | undefined,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  return form;
}

const upload = (client: TestClient, form: FormData) =>
  client.request<{ message: string; run: TraceRun }>('POST', '/api/admin/trace-runs', { body: form });

const ended = (run: TraceRun) => run.status === 'done' || run.status === 'failed';

/** Polls the runs together until each is done or failed; answers them, every state seen, and whether two ran at once. */
async function settled(client: TestClient, runIds: string[], timeoutMs = 240_000) {
  const seen = new Map<string, TraceRun[]>(runIds.map((id) => [id, []]));
  let together = false;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now: TraceRun[] = [];
    for (const id of runIds) {
      const res = await client.get<{ run: TraceRun }>(`/api/admin/trace-runs/${id}`);
      expect(res.status).toBe(200);
      now.push(res.body.run);
      seen.get(id)!.push(res.body.run);
    }
    together ||= now.filter((r) => r.status === 'running').length > 1;
    if (now.every(ended)) return { runs: now, seen: runIds.map((id) => seen.get(id)!), together };
    if (Date.now() > deadline)
      throw new Error(`traces still under way: ${JSON.stringify(now.map((r) => r.status))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A school with one marked lecture (38 segments) watched by two students, one of whom downloaded it
 * with their own links and keys: the leak, and what the trace must say about it.
 */
async function leakedLecture(work: string) {
  const media = await MediaTestServer.start({
    engine: 'pglite',
    now: new Date().toISOString(),
    env: { FORENSIC_MARKS: 'on', OPEN_HOURS: 'always', METRICS_TOKEN },
  });
  const admin = (await media.server.adminClient()).client;
  const uploaded = await media.uploadLectureReady(admin, work, SECONDS);
  const videoId = uploaded.videoId;
  await waitUntilMarked(() => media.objectText(`videos/${videoId}/v180/index.m3u8`));

  const innocent = await watchingStudent(media, videoId);
  const { client, student, code } = await watchingStudent(media, videoId, innocent.courseId);
  const file = await downloadCopy(
    `${media.server.url}${uploaded.body.url}`,
    client.token!,
    path.join(work, 'leak.mp4'),
  );
  const [row] = await media.server.ctx.db
    .select({ name: users.name })
    .from(users)
    .where(eq(users.id, student.id));
  return {
    media,
    admin,
    videoId,
    innocent: { code: innocent.code },
    leaker: {
      code,
      studentId: student.id,
      name: row!.name,
      rollno: student.rollno,
      leak: await readFile(file),
    },
  };
}

describe('tracing a leaked copy uploaded on the trace screen', () => {
  const makeTempDir = suiteTempDirs();
  let work: string;
  let media: MediaTestServer, admin: TestClient, videoId: string;
  let leaker: Awaited<ReturnType<typeof leakedLecture>>['leaker'], innocent: { code: string };

  beforeAll(async () => {
    work = await makeTempDir('lectern-trace-upload-');
    ({ media, admin, videoId, leaker, innocent } = await leakedLecture(work));
  }, 400_000);
  afterAll(async () => {
    await media?.close();
  });

  /** What an upload must leave behind when it is refused: no run, no stored copy, nothing in scratch. */
  async function leftovers() {
    const [{ n }] = (await media.server.ctx.db.select({ n: count() }).from(traceRuns)) as [{ n: number }];
    const scratch = await readdir(media.server.ctx.media.scratch.root).catch(() => [] as string[]);
    return {
      runs: n,
      copies: await media.objects('trace-uploads/'),
      scratch: scratch.filter((f) => f.startsWith('.spool-') || f.startsWith('trace-')),
    };
  }

  it('names the student from a copy uploaded through the route, one trace at a time, then deletes the copies', async () => {
    const first = await upload(admin, traceForm({ bytes: leaker.leak, name: 'leaked lecture.mp4' }));
    expect(first.status).toBe(202);
    expect(first.body.message).toBe(traceRunMessages.queued);
    expect(first.body.run).toMatchObject({ status: 'queued', fileName: 'leaked lecture.mp4', video: null });
    expect(first.body.run.sizeBytes).toBe(leaker.leak.length);
    media.server.clock.advance(1000);
    // The second names the video, sent before the file (so it is checked before the copy is read).
    const second = await upload(admin, traceForm({ bytes: leaker.leak, name: 'copy.mp4' }, { videoId }));
    expect(second.status).toBe(202);
    expect(second.body.run.video).toEqual({ id: videoId, title: expect.any(String) });

    // Both polled together: the lane limit runs one trace at a time.
    const { runs, seen, together } = await settled(admin, [first.body.run.id, second.body.run.id]);
    expect(together).toBe(false);
    for (const [i, run] of runs.entries()) {
      expect(run.status, run.error ?? '').toBe('done');
      expect(run.progress).toBe(1);
      const running = seen[i]!.filter((s) => s.status === 'running');
      expect(running.length).toBeGreaterThan(0);
      const fractions = running.map((s) => s.progress);
      expect(fractions).toEqual([...fractions].sort((x, y) => x - y));
      expect(run.result?.kind).toBe('matched');
      if (run.result?.kind !== 'matched') continue;
      expect(run.result.videoId).toBe(videoId);
      expect(run.result.reason).toBeNull();
      expect(run.result.accused.map((x) => x.code)).toEqual([leaker.code]);
      expect(run.result.accused.map((x) => x.code)).not.toContain(innocent.code);
      const [named] = run.result.accused;
      expect(named!.student).toMatchObject({
        id: leaker.studentId,
        name: leaker.name,
        rollno: leaker.rollno,
      });
      expect(named!.agreements).toBeGreaterThanOrEqual(run.result.threshold!);
      expect(named!.decided).toBeGreaterThanOrEqual(34);
    }

    // The copies are gone; the list shows both, newest first, with the marked video to pick.
    expect(await media.objects('trace-uploads/')).toEqual([]);
    const list = await admin.get('/api/admin/trace-runs');
    expect(list.status).toBe(200);
    expect(list.body.runs.map((r: TraceRun) => r.id)).toEqual([second.body.run.id, first.body.run.id]);
    expect(list.body.markedVideos.map((v: { id: string }) => v.id)).toEqual([videoId]);
    expect(list.body.marksOn).toBe(true);

    // The job went through the runner, so the job metrics count it. The run is done before its job
    // is: the runner marks the job once the handler returns, a moment after the run's answer.
    const scrape = async () =>
      (await media.server.client().get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` }))
        .body as string;
    await expect
      .poll(scrape, { timeout: 15_000 })
      .toMatch(/^lectern_jobs\{type="forensic\.trace",state="done"\} 2$/m);
  }, 400_000);

  it('a copy of another video names nobody, and says why', async () => {
    const other = await readFile(await makeClip({ seconds: 105 }));
    const sent = await upload(admin, traceForm({ bytes: other, name: 'other.mp4' }));
    expect(sent.status).toBe(202);
    const {
      runs: [run],
    } = await settled(admin, [sent.body.run.id]);
    expect(run!.status).toBe('done');
    expect(run!.result).toEqual({
      kind: 'no-match',
      videoId: null,
      reason: 'This file matches none of the marked videos.',
    });
    expect(await media.objects('trace-uploads/')).toEqual([]);
  }, 180_000);

  it('refuses what cannot be traced with a clear 4xx and keeps nothing of it', async () => {
    const before = await leftovers();
    const unmarked = await insertFinalizedVideo(media.server, { status: 'ready' });
    const short = path.join(work, 'ten-seconds.mp4');
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      path.join(work, 'leak.mp4'),
      '-t',
      '10',
      '-c',
      'copy',
      short,
    ]);
    const leak = { bytes: leaker.leak, name: 'leak.mp4' };
    const cases: [string, FormData, number, string][] = [
      ['no file', traceForm(undefined, { videoId }), 400, traceRunMessages.fileMissing],
      ['an empty file', traceForm({ bytes: new Uint8Array(), name: 'empty.mp4' }), 400, traceRunMessages.fileEmpty],
      ['not a video', traceForm({ bytes: Buffer.from('not a video at all\n'), name: 'notes.mp4' }), 400, traceRunMessages.notAVideo],
      ['ten seconds', traceForm({ bytes: await readFile(short), name: 'short.mp4' }), 400, traceRunMessages.tooShort(10, 102)],
      ['a videoId that is no id', traceForm(leak, { videoId: 'lecture-1' }), 404, traceRunMessages.videoNotFound],
      ['an unknown video', traceForm(leak, { videoId: UNKNOWN }), 404, traceRunMessages.videoNotFound],
      ['a video without marks', traceForm(leak, { videoId: unmarked.id }), 400, traceRunMessages.videoNotMarked],
      // The field after the file: checked once the copy is in.
      ['an unknown video after the file', (() => {
        const form = traceForm(leak);
        form.append('videoId', UNKNOWN);
        return form;
      })(), 404, traceRunMessages.videoNotFound],
    ]; // prettier-ignore
    for (const [name, form, status, message] of cases) {
      const res = await upload(admin, form);
      expect([name, res.status, res.body.message]).toEqual([name, status, message]);
    }
    expect(await leftovers()).toEqual(before);
  }, 120_000);

  it('refuses a body that says it is larger than 2 GB before reading it', async () => {
    const url = new URL('/api/admin/trace-runs', media.server.url);
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(url, {
        method: 'POST',
        headers: {
          cookie: `token=${admin.token}`,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(3 * 1024 ** 3),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode!, body });
          req.destroy(); // the rest of the "3 GB" is never sent
        });
      });
      req.on('error', reject);
      req.write('--x\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\n\r\n');
    });
    expect(status.status).toBe(413);
    expect(JSON.parse(status.body).message).toBe(traceRunMessages.tooLarge);
  });

  it('the hourly purge deletes a copy a crash left for a day, keeps one a run waits for, and fails a run whose job is gone', async () => {
    const { db, media: stores, logger } = media.server.ctx;
    const purge = () =>
      purgeTraceFilesHandler(media.server.ctx)(
        {},
        { jobId: 'purge', attempt: 1, signal: new AbortController().signal, log: logger },
      );
    const stray = randomUUID();
    const [waiting] = await db
      .insert(traceRuns)
      .values({ fileName: 'waiting.mp4', sizeBytes: 4 })
      .returning();
    // Its job is due in a week: queued, so the run still waits for its copy.
    const jobId = await enqueueJob(
      db,
      'forensic.trace',
      { runId: waiting!.id },
      { runAt: new Date(Date.now() + 7 * 86_400_000) },
    );
    await db.update(traceRuns).set({ jobId }).where(eq(traceRuns.id, waiting!.id));
    for (const id of [stray, waiting!.id])
      await stores.local.put(mediaKeys.traceUpload(id), Buffer.from('left'));
    const [orphan] = await db
      .insert(traceRuns)
      .values({ fileName: 'orphan.mp4', sizeBytes: 4, status: 'running' })
      .returning();

    await purge();
    expect((await media.objects('trace-uploads/')).length).toBe(2); // not a day old yet
    const orphaned = (await admin.get(`/api/admin/trace-runs/${orphan!.id}`)).body.run as TraceRun;
    expect(orphaned).toMatchObject({
      status: 'failed',
      error: 'The trace job ended without finishing: upload the copy again.',
    });

    // A day later (store times are wall-clock times).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 25 * 3600_000);
      await purge();
    } finally {
      vi.useRealTimers();
    }
    expect(await media.objects('trace-uploads/')).toEqual([mediaKeys.traceUpload(waiting!.id)]);
    await cancelJobs(db, 'forensic.trace', { runId: waiting!.id }, new Date());
    await stores.local.delete(mediaKeys.traceUpload(waiting!.id));
  });

  it('keeps the runs from students and anonymous callers', async () => {
    const { client: student } = await media.server.studentClient();
    expect((await student.get('/api/admin/trace-runs')).status).toBe(403);
    expect((await upload(student, traceForm({ bytes: leaker.leak, name: 'leak.mp4' }))).status).toBe(403);
    expect((await media.server.client().get('/api/admin/trace-runs')).status).toBe(401);
  });
});

describe.each(testEngines())('the upload before any video is marked (%s)', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({ engine, env: { OPEN_HOURS: 'always' } });
  });
  afterAll(() => server?.close());

  it('says so, and the list offers nothing to pick', async () => {
    const { client } = await server.adminClient();
    const clip = await readFile(await makeClip({ seconds: 2 }));
    const res = await upload(client, traceForm({ bytes: clip, name: 'leak.mp4' }));
    expect([res.status, res.body.message]).toEqual([400, traceRunMessages.noMarkedVideo]);
    const list = await client.get('/api/admin/trace-runs');
    expect(list.body).toEqual({ runs: [], markedVideos: [], marksOn: false, maxBytes: 2 * 1024 ** 3 });
    expect((await client.get(`/api/admin/trace-runs/${UNKNOWN}`)).status).toBe(404);
    expect((await client.get('/api/admin/trace-runs/not-an-id')).status).toBe(404);
  });
});
