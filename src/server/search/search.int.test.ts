import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEARCH_HITS, type SearchHit } from '../../contract/search';
import { rowsOf } from '../db/raw';
import { enrollments, jobs, searchEntries, searchIndexState, videos } from '../db/schema';
import type { JobRunContext } from '../jobs/types';
import { createMediaTools } from '../storage/ffmpeg';
import { mediaKeys } from '../storage';
import { testEngines } from '../../../test/support/databases';
import type { TestClient } from '../../../test/support/http-client';
import { suiteAdmin, suiteServer, type TestServer } from '../../../test/support/test-server';
import { watchedCourse } from '../../../test/support/watch-fixtures';
import { checkTesseract } from './ocr';
import { indexFromCli } from './cli-command';
import { searchIndexHandler } from './index-job';

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';

/** Runs ffmpeg quietly (errors only), overwriting its output. */
const ffmpeg = (args: string[]) => promisify(execFile)('ffmpeg', ['-v', 'error', '-y', ...args]);

/**
 * 24 s of a dark editor: a function with an indented body for 12 s, then a shell command. The words
 * are made up, so only this clip's screen can have them.
 */
async function codeClip(dir: string): Promise<string> {
  const file = path.join(dir, 'code.mp4');
  // DejaVu Sans Mono's advance is 0.602 em: 19.27 px a column at 32 px (drawtext trims leading spaces).
  const line = (text: string, y: number, when: string, column = 0) =>
    `drawtext=fontfile=${FONT}:text='${text}':x=${Math.round(60 + column * 19.27)}:y=${y}:fontsize=32:fontcolor=white:enable='${when}'`;
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=0x1e1e1e:s=1280x720:d=24:r=25',
    '-vf',
    [
      line('function quorblaxWidget() {', 100, 'lt(t,12)'),
      line('return zindleplume(42);', 150, 'lt(t,12)', 4),
      line('}', 200, 'lt(t,12)'),
      line('git rebase -i HEAD~3', 100, 'gte(t,12)'),
    ].join(','),
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  return file;
}

const runContext = (server: TestServer): JobRunContext => ({
  jobId: '00000000-0000-0000-0000-000000000000',
  attempt: 1,
  signal: new AbortController().signal,
  log: server.ctx.logger,
});

function captions(admin: TestClient, videoId: string, language: string, vtt: string) {
  const form = new FormData();
  form.set('language', language);
  form.set('label', language);
  form.set('file', new Blob([vtt]), 'captions.vtt');
  return admin.request('POST', `/api/admin/videos/${videoId}/captions`, { body: form });
}

const search = async (client: TestClient, q: string, courseId?: string) => {
  const res = await client.get(
    `/api/search?${new URLSearchParams({ q, ...(courseId ? { courseId } : {}) }).toString()}`,
  );
  return res;
};
const hitsOf = async (client: TestClient, q: string, courseId?: string): Promise<SearchHit[]> => {
  const res = await search(client, q, courseId);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.hits as SearchHit[];
};

describe.each(testEngines())('search (%s)', (engine) => {
  const server = suiteServer({ engine, env: { OPEN_HOURS: 'always' } });
  const admin = suiteAdmin(server);

  it('finds caption cues at their second, re-indexes a replaced or deleted track, and nothing once revoked', async () => {
    const { client, student } = await server.studentClient();
    const { videoIds, courseId } = await watchedCourse(server, [student], [60, 60]);
    const other = await watchedCourse(server, [student], [60]);
    const [first, second] = videoIds as [string, string];
    const vtt =
      'WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nToday: the useEffect cleanup\n\n' +
      '00:00:07.500 --> 00:00:09.000\nrun git rebase -i on your branch, then __init__ and O(n log n)\n\n' +
      '00:00:12.000 --> 00:00:14.000\nstop the timer with clearInterval(id)\n';
    expect((await captions(admin, first, 'en', vtt)).status).toBe(200);
    expect(
      (
        await captions(
          admin,
          other.videoIds[0]!,
          'en',
          'WEBVTT\n\n00:00:02.000 --> 00:00:04.000\nuseEffect again\n',
        )
      ).status,
    ).toBe(200);

    const hits = await hitsOf(client, 'useEffect');
    expect(hits.map((h) => [h.videoId, h.t, h.source])).toEqual(
      expect.arrayContaining([
        [first, 1, 'captions'],
        [other.videoIds[0], 2, 'captions'],
      ]),
    );
    expect(hits[0]!.snippet).toContainEqual({ text: 'useEffect', match: true });
    expect(hits.find((h) => h.videoId === first)).toMatchObject({
      courseId,
      title: 'Lecture 1',
      frameUrl: `/api/videos/${first}/frame?t=1`,
    });
    // This course only.
    expect((await hitsOf(client, 'useEffect', courseId)).map((h) => h.videoId)).toEqual([first]);
    // Prefixes, phrases and identifiers.
    const prefixed = await hitsOf(client, 'useEff');
    expect(prefixed.map((h) => [h.videoId, h.t]).sort()).toEqual(
      [
        [first, 1],
        [other.videoIds[0], 2],
      ].sort(),
    );
    expect(prefixed.find((h) => h.videoId === first)!.snippet).toEqual([
      { text: 'Today: the ', match: false },
      { text: 'useEff', match: true },
      { text: 'ect cleanup', match: false },
    ]);
    for (const q of ['git rebase -i', '"git rebase"', '__init__', 'O(n log n)', 'cleanup'])
      expect(
        (await hitsOf(client, q)).map((h) => [h.videoId, h.t]),
        q,
      ).toContainEqual([first, q === 'cleanup' ? 1 : 7.5]);
    expect(await hitsOf(client, '"rebase git"')).toEqual([]);
    // A part of a word (no word starts with it): found by the literal text once words find too little.
    expect((await hitsOf(client, 'Interval')).map((h) => [h.videoId, h.t])).toEqual([[first, 12]]);

    // Replaced: the old words go, the new ones are found at once; deleted: nothing.
    await captions(admin, first, 'en', 'WEBVTT\n\n00:00:04.000 --> 00:00:05.000\nmemoization with useMemo\n');
    expect((await hitsOf(client, 'cleanup')).length).toBe(0);
    expect((await hitsOf(client, 'usememo')).map((h) => [h.videoId, h.t])).toEqual([[first, 4]]);
    expect((await admin.request('DELETE', `/api/admin/videos/${first}/captions/en`)).status).toBe(200);
    expect(await hitsOf(client, 'usememo')).toEqual([]);
    void second;

    // Staff find everything; the student nothing once their access is revoked (checked at query time).
    const adminHits = await admin.get('/api/admin/search?q=useEffect');
    expect(adminHits.body.hits.map((h: SearchHit) => h.videoId)).toContain(other.videoIds[0]);
    await server.ctx.db
      .update(enrollments)
      .set({ accessRevoked: true })
      .where(and(eq(enrollments.studentId, student.id), eq(enrollments.courseId, other.courseId)));
    expect(await hitsOf(client, 'useEffect')).toEqual([]);
    // A student never enrolled finds nothing either.
    const stranger = (await server.studentClient()).client;
    expect(await hitsOf(stranger, 'useEffect')).toEqual([]);
  });

  it('answers odd input with 400 or no hits, never 500', async () => {
    const { client, student } = await server.studentClient();
    const { videoIds } = await watchedCourse(server, [student], [60]);
    await captions(
      admin,
      videoIds[0]!,
      'en',
      "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nIt's a & b! \\ c:* d\n",
    );
    const odd = [
      "'",
      '&',
      ':*',
      '!',
      '\\',
      '   ',
      '"',
      '""',
      '(',
      ')',
      '<->',
      '|',
      'a:*|b',
      "a' & !b",
      '%',
      '_',
      'x'.repeat(2_000),
      'ü'.repeat(200),
      '\u0000',
      '--',
      'select 1;',
    ];
    for (const q of odd) {
      const res = await search(client, q);
      expect([200, 400], `${JSON.stringify(q)} → ${res.status}`).toContain(res.status);
      if (res.status === 200) expect(Array.isArray(res.body.hits)).toBe(true);
    }
    expect((await search(client, '')).status).toBe(400);
    expect((await search(client, '   ')).status).toBe(400);
    expect((await search(client, 'x'.repeat(2_000))).status).toBe(400);
    expect((await hitsOf(client, "It's")).length).toBe(1);
    expect(await hitsOf(client, 'hello', 'not-a-uuid')).toEqual([]);
    expect((await client.get('/api/search?q=a&q=b')).status).toBeLessThan(500);
  });

  it('caps answers at 50 hits, best first', async () => {
    const { client, student } = await server.studentClient();
    const { videoIds } = await watchedCourse(
      server,
      [student],
      Array.from({ length: 12 }, () => 120),
    );
    const cues = Array.from(
      { length: 10 },
      (_, i) =>
        `00:00:${String(i * 5 + 1).padStart(2, '0')}.000 --> 00:00:${String(i * 5 + 3).padStart(2, '0')}.000\nwombatize step ${i}\n`,
    );
    for (const id of videoIds) await captions(admin, id, 'en', `WEBVTT\n\n${cues.join('\n')}`);
    const hits = await hitsOf(client, 'wombatize');
    expect(hits.length).toBe(MAX_SEARCH_HITS);
  });

  it('keeps search_terms in step with the entries, whatever wrote them (the triggers of migration 0020)', async () => {
    const { student } = await server.studentClient();
    const { videoIds } = await watchedCourse(server, [student], [60, 60]);
    const vtt =
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nalpha beta\n\n00:00:03.000 --> 00:00:04.000\nbeta gamma\n';
    for (const id of videoIds) expect((await captions(admin, id, 'en', vtt)).status).toBe(200);
    // An update (as the screen job lengthens a reading), a track replaced, a video deleted.
    await server.ctx.db
      .update(searchEntries)
      .set({ text: 'delta beta' })
      .where(and(eq(searchEntries.videoId, videoIds[0]!), eq(searchEntries.startSeconds, 1)));
    await captions(admin, videoIds[1]!, 'en', 'WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nepsilon\n');
    const { db } = server.ctx;
    const kept = sql`select lexeme, video_id, source, starts from search_terms order by 1, 2, 3`;
    const made = sql`select w.lexeme, e.video_id, e.source,
        array_agg(distinct e.start_seconds order by e.start_seconds) as starts
      from search_entries e, unnest(e.words) w group by 1, 2, 3 order by 1, 2, 3`;
    expect(await rowsOf(db, kept)).toEqual(await rowsOf(db, made));
    const ofFirst = sql`select lexeme, starts from search_terms where video_id = ${videoIds[0]} order by 1`;
    expect(await rowsOf(db, ofFirst)).toEqual([
      { lexeme: 'beta', starts: [1, 3] },
      { lexeme: 'delta', starts: [1] },
      { lexeme: 'gamma', starts: [3] },
    ]);
    await server.ctx.db.delete(videos).where(eq(videos.id, videoIds[0]!));
    expect(await rowsOf(db, ofFirst)).toEqual([]);
    expect(await rowsOf(db, kept)).toEqual(await rowsOf(db, made));
  });

  describe('text on screen', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'search-ocr-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('reads code off the source with its indentation, at scene changes, resumes without duplicates', async () => {
      await checkTesseract('tesseract', 'eng');
      const { client, student } = await server.studentClient();
      const { videoIds } = await watchedCourse(server, [student], [24]);
      const videoId = videoIds[0]!;
      await server.ctx.media.local.put(mediaKeys.source(videoId), { file: await codeClip(dir) });
      const handler = searchIndexHandler(server.ctx, { tools: createMediaTools(server.ctx.config) });
      await handler({ videoId }, runContext(server));

      const state = await admin.get(`/api/admin/videos/${videoId}/index`);
      expect(state.status).toBe(200);
      const screen = state.body.sources.find((s: { source: string }) => s.source === 'screen');
      expect(screen).toMatchObject({ status: 'done', progress: 1 });
      expect(screen.entries).toBeGreaterThanOrEqual(2);
      expect(state.body.sources.find((s: { source: string }) => s.source === 'speech')).toMatchObject({
        status: 'off',
      });

      const [code] = await hitsOf(client, 'zindleplume');
      expect(code).toMatchObject({ videoId, source: 'screen', t: 0 });
      // The hit's still: a small JPEG made once from the source, kept with the video's files.
      const still = await client.get(code!.frameUrl!);
      expect(still.status).toBe(200);
      expect(still.headers.get('content-type')).toBe('image/jpeg');
      expect(await server.ctx.media.local.head(mediaKeys.frame(videoId, 0))).toBeDefined();
      expect((await client.get(code!.frameUrl!)).status).toBe(200);
      // Only where an entry starts: not a way to take the lecture apart second by second.
      expect((await client.get(`/api/videos/${videoId}/frame?t=7`)).status).toBe(404);
      expect((await client.get(`/api/videos/${videoId}/frame?t=1.5`)).status).toBe(400);
      // The source gone: the still comes from the one segment of the rendition that plays then.
      const hls = path.join(dir, 'hls');
      await mkdir(hls, { recursive: true });
      await ffmpeg([
        '-i', path.join(dir, 'code.mp4'), '-c', 'copy', '-f', 'hls', '-hls_time', '4', '-hls_list_size', '0',
        '-hls_segment_filename', path.join(hls, 'seg_%05d.ts'), path.join(hls, 'index.m3u8'),
      ]); // prettier-ignore
      for (const name of await readdir(hls))
        await server.ctx.media.local.put(mediaKeys.videoFile(videoId, 'v720', name), {
          file: path.join(hls, name),
        });
      await server.ctx.db
        .update(videos)
        .set({ renditions: [720] })
        .where(eq(videos.id, videoId));
      await server.ctx.media.local.delete(mediaKeys.source(videoId));
      const [later] = (await hitsOf(client, 'git rebase -i')).filter((h) => h.videoId === videoId);
      const fromRendition = await client.get(later!.frameUrl!);
      expect(fromRendition.status).toBe(200);
      expect(fromRendition.headers.get('content-type')).toBe('image/jpeg');
      expect(await server.ctx.media.local.head(mediaKeys.frame(videoId, Math.floor(later!.t)))).toBeDefined();
      const rebase = await hitsOf(client, 'git rebase -i');
      expect(rebase[0]).toMatchObject({ videoId, source: 'screen' });
      expect(rebase[0]!.t).toBeGreaterThanOrEqual(11.9);
      expect(rebase[0]!.t).toBeLessThanOrEqual(13);

      const at5 = await client.get(`/api/videos/${videoId}/screen-text?t=5`);
      expect(at5.status).toBe(200);
      expect(at5.body.text).toMatch(/^function quorblaxWidget\(\) \{\n {4}return zindleplume\(42\);\n\}$/);
      // Holds until the screen changes (the player asks again only then).
      expect(at5.body.t).toBe(0);
      expect(at5.body.until).toBeGreaterThanOrEqual(11.9);
      expect(at5.body.until).toBeLessThanOrEqual(13);
      expect((await client.get(`/api/videos/${videoId}/screen-text?t=30`)).body).toEqual({
        t: 30,
        until: null,
        text: '',
      });
      expect((await client.get(`/api/videos/${videoId}/screen-text?t=20`)).body.text).toContain(
        'git rebase -i',
      );
      expect((await client.get(`/api/videos/${videoId}/screen-text?t=abc`)).status).toBe(400);

      // A run that died after 10 s: the job resumes there and writes no second copy.
      const before = await server.ctx.db
        .select()
        .from(searchEntries)
        .where(eq(searchEntries.videoId, videoId));
      await server.ctx.db
        .update(searchIndexState)
        .set({ status: 'running', doneSeconds: 10 })
        .where(and(eq(searchIndexState.videoId, videoId), eq(searchIndexState.source, 'screen')));
      await handler({ videoId }, runContext(server));
      const after = await server.ctx.db
        .select()
        .from(searchEntries)
        .where(eq(searchEntries.videoId, videoId));
      expect(after.map((e) => [e.startSeconds, e.text]).sort()).toEqual(
        before.map((e) => [e.startSeconds, e.text]).sort(),
      );

      // A student without the video: 403 for its screen text.
      const stranger = (await server.studentClient()).client;
      expect((await stranger.get(`/api/videos/${videoId}/screen-text?t=5`)).status).toBe(403);

      // The job's work shows in the metrics: frames read, entries written, seconds per source.
      const { metrics } = server.ctx;
      const value = async (
        metric: { get(): Promise<{ values: { value: number; labels: object }[] }> },
        labels: object = {},
      ) =>
        (await metric.get()).values
          .filter((v) =>
            Object.entries(labels).every(([k, l]) => (v.labels as Record<string, unknown>)[k] === l),
          )
          .reduce((sum, v) => sum + v.value, 0);
      expect(await value(metrics.searchFramesRead)).toBeGreaterThanOrEqual(2);
      expect(await value(metrics.searchEntries, { source: 'screen' })).toBeGreaterThanOrEqual(2);
      const timed = (await metrics.searchIndexDuration.get()).values.find(
        (v) =>
          v.metricName === 'lectern_search_index_seconds_count' &&
          v.labels.source === 'screen' &&
          v.labels.outcome === 'done',
      );
      expect(timed?.value).toBeGreaterThanOrEqual(1);

      // Re-index: the admin starts the video over (queued, its progress back to 0); once is enough.
      const again = await admin.request('POST', `/api/admin/videos/${videoId}/index`);
      expect(again.status, JSON.stringify(again.body)).toBe(202);
      expect((await admin.request('POST', `/api/admin/videos/${videoId}/index`)).status).toBe(409);
      const queued = await admin.get(`/api/admin/videos/${videoId}/index`);
      expect(queued.body.sources.find((s: { source: string }) => s.source === 'screen')).toMatchObject({
        status: 'queued',
        progress: 0,
      });
      const queuedJobs = await server.ctx.db.select().from(jobs).where(eq(jobs.type, 'search.index'));
      expect(queuedJobs.map((j) => j.payload).filter((p) => p.videoId === videoId)).toEqual([
        { videoId, force: true },
      ]);
      expect(
        (await admin.request('POST', `/api/admin/videos/00000000-0000-0000-0000-000000000000/index`)).status,
      ).toBe(404);
    }, 120_000);
  });
});

describe('search:index', () => {
  const server = suiteServer({ engine: 'pglite', env: { OPEN_HOURS: 'always' } });

  it('indexes caption cues at once and queues each packaged video once', async () => {
    const { videoIds } = await watchedCourse(server, [], [30, 30]);
    const first = await indexFromCli(server.ctx, undefined);
    expect(first).toMatchObject({ queued: 2 });
    expect(first!.videos).toBeGreaterThanOrEqual(2);
    expect((await indexFromCli(server.ctx, undefined))!.queued).toBe(0);
    const queued = await server.ctx.db.select().from(jobs).where(eq(jobs.type, 'search.index'));
    expect(queued.map((j) => (j.payload as { videoId: string }).videoId).sort()).toEqual(
      [...videoIds].sort(),
    );
    expect(await indexFromCli(server.ctx, '00000000-0000-0000-0000-000000000000')).toBeUndefined();
    const state = await server.ctx.db
      .select()
      .from(searchIndexState)
      .where(eq(searchIndexState.videoId, videoIds[0]!));
    expect(state.map((s) => [s.source, s.status]).sort()).toEqual([
      ['captions', 'done'],
      ['screen', 'queued'],
      ['speech', 'queued'],
    ]);
  });
});

describe('speech through SPEECH_COMMAND', () => {
  // A stand-in engine: checks it got a 16 kHz mono WAV, writes fixed WebVTT (the plumbing, not accuracy).
  const dir = mkdtempSync(path.join(tmpdir(), 'search-speech-'));
  const engine = path.join(dir, 'speech.sh');
  writeFileSync(
    engine,
    `#!/bin/sh\nffprobe -v error -show_entries stream=sample_rate,channels -of csv=p=0 "$1" | grep -q '^16000,1$' || exit 3\n` +
      `printf 'WEBVTT\\n\\n00:00:01.000 --> 00:00:02.500\\nthe quixotic hook in react\\n' > "$2"\n`,
    { mode: 0o755 },
  );
  const broken = path.join(dir, 'broken.sh');
  writeFileSync(broken, '#!/bin/sh\necho "model not found" >&2\nexit 1\n', { mode: 0o755 });
  const server = suiteServer({
    engine: 'pglite',
    env: { OPEN_HOURS: 'always', SEARCH_OCR: 'off', SPEECH_COMMAND: engine },
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function spokenVideo() {
    const { client, student } = await server.studentClient();
    const { videoIds } = await watchedCourse(server, [student], [3]);
    const clip = path.join(dir, `${videoIds[0]}.mp4`);
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'color=c=black:s=320x180:d=3:r=10',
      '-f',
      'lavfi',
      '-i',
      'sine=f=440:d=3',
      '-shortest',
      '-c:v',
      'libx264',
      '-c:a',
      'aac',
      clip,
    ]);
    await server.ctx.media.local.put(mediaKeys.source(videoIds[0]!), { file: clip });
    return { client, videoId: videoIds[0]! };
  }

  it('stores the cues as speech, found by search at their second', async () => {
    const { client, videoId } = await spokenVideo();
    await searchIndexHandler(server.ctx, { tools: createMediaTools(server.ctx.config) })(
      { videoId },
      runContext(server),
    );
    expect(await hitsOf(client, 'quixotic')).toMatchObject([{ videoId, t: 1, source: 'speech' }]);
    const state = await (await adminOf(server)).get(`/api/admin/videos/${videoId}/index`);
    expect(state.body.sources).toContainEqual(
      expect.objectContaining({ source: 'speech', status: 'done', entries: 1 }),
    );
    expect(state.body.sources).toContainEqual(expect.objectContaining({ source: 'screen', status: 'off' }));
  }, 60_000);

  it('a failing command marks speech failed with its reason', async () => {
    const { videoId } = await spokenVideo();
    const ctx = { ...server.ctx, config: { ...server.ctx.config, speechCommand: broken } };
    const error = await searchIndexHandler(ctx, { tools: createMediaTools(ctx.config) })(
      { videoId },
      runContext(server),
    ).catch((e: unknown) => e as Error);
    expect(String(error)).toContain('model not found');
    const [state] = await server.ctx.db
      .select()
      .from(searchIndexState)
      .where(and(eq(searchIndexState.videoId, videoId), eq(searchIndexState.source, 'speech')));
    expect(state).toMatchObject({ status: 'failed' });
    expect(state!.error).toContain('SPEECH_COMMAND failed: model not found');
  }, 60_000);
});

async function adminOf(server: TestServer) {
  return (await server.adminClient()).client;
}

describe('a SPEECH_COMMAND whose program is not there', () => {
  const server = suiteServer({
    engine: 'pglite',
    env: { OPEN_HOURS: 'always', SEARCH_OCR: 'off', SPEECH_COMMAND: '/nonexistent/speech-engine --vtt' },
  });

  it('readiness says so and the node stays ready (search answers from what is indexed)', async () => {
    const ready = await server.client().get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.stringify(ready.body)).toContain(
      'SPEECH_COMMAND: /nonexistent/speech-engine is not found or not executable',
    );
  });
});

describe('search without Tesseract', () => {
  const server = suiteServer({
    engine: 'pglite',
    env: { OPEN_HOURS: 'always', TESSERACT_PATH: '/nonexistent/tesseract' },
  });

  it('the job waits (retry later, no attempt used), the state and readiness say why', async () => {
    const { videoIds } = await watchedCourse(server, [], [10]);
    const handler = searchIndexHandler(server.ctx, { tools: createMediaTools(server.ctx.config) });
    const error = await handler({ videoId: videoIds[0]! }, runContext(server)).catch((e: unknown) => e);
    expect((error as { retryLater?: boolean }).retryLater).toBe(true);
    const [state] = await server.ctx.db
      .select()
      .from(searchIndexState)
      .where(and(eq(searchIndexState.videoId, videoIds[0]!), eq(searchIndexState.source, 'screen')));
    expect(state).toMatchObject({ status: 'queued' });
    expect(state!.error).toContain('Tesseract not found');
    const ready = await server.client().get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.stringify(ready.body)).toContain('Tesseract not found');
  });
});
