import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCaptions } from '../../contract/webvtt';
import { searchEntries, searchIndexState } from '../db/schema';
import type { JobRunContext } from '../jobs/types';
import { createMediaTools } from '../storage/ffmpeg';
import { mediaKeys } from '../storage';
import type { TestClient } from '../../../test/support/http-client';
import { suiteServer, type TestServer } from '../../../test/support/test-server';
import { watchedCourse } from '../../../test/support/watch-fixtures';
import { searchIndexHandler } from './index-job';
import { speechTimeoutMs } from './index-speech';

const run = promisify(execFile);
/** Runs ffmpeg quietly (errors only), overwriting its output. */
const ffmpeg = (args: string[]) => run('ffmpeg', ['-v', 'error', '-y', ...args]);

const ENGINE = path.resolve('scripts/speech/pocketsphinx-vtt.sh');

const runContext = (server: TestServer): JobRunContext => ({
  jobId: '00000000-0000-0000-0000-000000000000',
  attempt: 1,
  signal: new AbortController().signal,
  log: server.ctx.logger,
});

const speechState = async (server: TestServer, videoId: string) => {
  const [state] = await server.ctx.db
    .select()
    .from(searchIndexState)
    .where(and(eq(searchIndexState.videoId, videoId), eq(searchIndexState.source, 'speech')));
  return state;
};

/** Raw text of a GET with the client's session (a download keeps the file as sent). */
async function fetchText(client: TestClient, url: string) {
  const res = await fetch(new URL(url, client.baseUrl), {
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('speech through a real engine (pocketsphinx), the draft caption track and a hanging command', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'search-speech-real-'));
  /** A command that never finishes by itself: a script whose child sleeps (the marker finds it). */
  const SLEEP_MARK = '59.7131';
  const hanging = path.join(dir, 'hang.sh');
  writeFileSync(hanging, `#!/bin/sh\nsleep ${SLEEP_MARK}\necho woke >&2\n`, { mode: 0o755 });
  const server = suiteServer({
    engine: 'pglite',
    env: { OPEN_HOURS: 'always', SEARCH_OCR: 'off', SPEECH_COMMAND: ENGINE },
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** A small video saying a sentence (espeak-ng), on a black picture, as the video's kept source. */
  async function spokenVideo(durationSeconds: number) {
    const { client, student } = await server.studentClient();
    const { videoIds } = await watchedCourse(server, [student], [durationSeconds]);
    const videoId = videoIds[0]!;
    const wav = path.join(dir, `${videoId}.wav`);
    await run('espeak-ng', ['-w', wav, 'hello world this is a test of the search index']);
    const clip = path.join(dir, `${videoId}.mp4`);
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `color=c=black:s=320x180:d=${durationSeconds}:r=10`,
      '-i',
      wav,
      '-af',
      'apad',
      '-t',
      String(durationSeconds),
      '-c:v',
      'libx264',
      '-c:a',
      'aac',
      clip,
    ]);
    await server.ctx.media.local.put(mediaKeys.source(videoId), { file: clip });
    return { client, videoId };
  }

  it('stores what pocketsphinx heard as speech cues in order, the draft downloads as WebVTT and publishes as captions', async () => {
    const duration = 5;
    const { videoId } = await spokenVideo(duration);
    await searchIndexHandler(server.ctx, { tools: createMediaTools(server.ctx.config) })(
      { videoId },
      runContext(server),
    );
    expect(await speechState(server, videoId)).toMatchObject({ status: 'done', error: null });
    // Not the words (the engine is inaccurate): cues inside the clip, in order, each ending after it starts.
    const cues = await server.ctx.db
      .select()
      .from(searchEntries)
      .where(and(eq(searchEntries.videoId, videoId), eq(searchEntries.source, 'speech')))
      .orderBy(asc(searchEntries.startSeconds));
    expect(cues.length).toBeGreaterThan(0);
    let last = 0;
    for (const cue of cues) {
      expect(cue.startSeconds).toBeGreaterThanOrEqual(last);
      expect(cue.endSeconds).toBeGreaterThan(cue.startSeconds);
      expect(cue.endSeconds).toBeLessThanOrEqual(duration + 0.5);
      expect(cue.text.trim()).not.toBe('');
      last = cue.startSeconds;
    }

    const { client: admin } = await server.adminClient();
    const summary = await admin.get(`/api/admin/videos/${videoId}/captions/speech-draft`);
    expect(summary.status).toBe(200);
    expect(summary.body.draft).toMatchObject({ cues: cues.length });

    const file = await fetchText(admin, `/api/admin/videos/${videoId}/captions/speech-draft?format=vtt`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/vtt/);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="speech-draft-/);
    // Valid WebVTT with the stored cues (as the caption upload checks it, against the video's length).
    const parsed = parseCaptions(file.text, duration);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.cues.map((c) => [c.start, c.end, c.plain])).toEqual(
      cues.map((c) => [
        Math.round(c.startSeconds * 1000) / 1000,
        Math.round(c.endSeconds * 1000) / 1000,
        c.text,
      ]),
    );

    const refused = await admin.post(`/api/admin/videos/${videoId}/captions/speech-draft/publish`, {
      language: 'not a language',
    });
    expect(refused.status).toBe(400);
    const published = await admin.post(`/api/admin/videos/${videoId}/captions/speech-draft/publish`, {
      language: 'en',
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({
      message: 'Draft published as captions.',
      caption: { language: 'en', label: 'English', cues: cues.length },
    });
    const listed = await admin.get(`/api/admin/videos/${videoId}/captions`);
    expect(listed.body.captions).toEqual([expect.objectContaining({ language: 'en', cues: cues.length })]);
    // Searched as captions now, once: the speech entries went, and speech is off (the video has captions).
    const bySource = await server.ctx.db
      .select({ source: searchEntries.source })
      .from(searchEntries)
      .where(eq(searchEntries.videoId, videoId));
    expect(bySource.map((r) => r.source)).toEqual(cues.map(() => 'captions'));
    expect(await speechState(server, videoId)).toMatchObject({
      status: 'off',
      error: 'the video has captions',
    });
    expect((await admin.get(`/api/admin/videos/${videoId}/captions/speech-draft`)).body).toEqual({
      draft: null,
    });
    const gone = await fetchText(admin, `/api/admin/videos/${videoId}/captions/speech-draft?format=vtt`);
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.text)).toEqual({ message: expect.stringContaining('No machine speech') });
  }, 60_000);

  it('a hanging command is stopped at SPEECH_TIMEOUT_SECONDS: failed with the reason, its children killed, search answers', async () => {
    const { client, videoId } = await spokenVideo(3);
    // Another source of the video, as the OCR job writes it: search still answers from it.
    await server.ctx.db.insert(searchEntries).values({
      videoId,
      source: 'screen',
      startSeconds: 1,
      endSeconds: 3,
      text: 'const hangingwombat = 1;',
    });
    const ctx = {
      ...server.ctx,
      config: { ...server.ctx.config, speechCommand: hanging, speechTimeoutSeconds: 2 },
    };
    const started = Date.now();
    const error = await searchIndexHandler(ctx, { tools: createMediaTools(ctx.config) })(
      { videoId },
      runContext(server),
    ).catch((e: unknown) => e as Error);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(String(error)).toContain('SPEECH_COMMAND did not finish within 2 s');
    expect(await speechState(server, videoId)).toMatchObject({
      status: 'failed',
      error: 'SPEECH_COMMAND did not finish within 2 s',
    });
    // The whole process group went: no `sleep` of the script is left behind.
    const { stdout } = await run('ps', ['-eo', 'args']);
    expect(stdout.split('\n').filter((line) => line.includes(SLEEP_MARK))).toEqual([]);
    const found = await client.get(`/api/search?q=hangingwombat`);
    expect(found.status).toBe(200);
    expect(found.body.hits).toMatchObject([{ videoId, t: 1, source: 'screen' }]);
  }, 30_000);

  it('bounds a run by the setting, else by 3x the video (at least 60 s)', () => {
    expect(speechTimeoutMs(2, 3600)).toBe(2_000);
    expect(speechTimeoutMs(undefined, 10)).toBe(60_000);
    expect(speechTimeoutMs(undefined, 3600)).toBe(10_800_000);
  });
});
