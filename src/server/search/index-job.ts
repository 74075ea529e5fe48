import { spawn } from 'node:child_process';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { and, eq, gte, notExists, sql } from 'drizzle-orm';
import type { SearchSource } from '../../contract/search';
import { readWebVtt } from '../../contract/webvtt';
import type { AppContext } from '../context';
import { searchEntries, searchIndexState, videoCaptions, videos } from '../db/schema';
import { enqueueJob } from '../jobs/queue';
import { oneLine } from '../jobs/run-progress';
import {
  isRetryLater,
  PermanentJobError,
  RetryLaterError,
  type JobHandler,
  type JobRunContext,
} from '../jobs/types';
import { inputArgs, type MediaTools } from '../storage/ffmpeg';
import { sourceFile } from '../media/packaging/package-job';
import { isMarkedPlaylist, renditionSegments } from '../media/packaging/rendition-reader';
import { mediaKeys, readText, renditionName, type MediaStore } from '../storage';
import { PLAYLIST } from '../media/packaging/hls';
import { addEntries, deleteEntries, indexAllCaptions, indexStateOf, setIndexState } from './index-store';
import { SEARCH_ATTEMPTS, SEARCH_PRIORITY } from './job-types';
import './job-types';
import { checkTesseract, extractFrames, hashFile, readImage } from './ocr';

/** Screen text is read in pieces of this many seconds; each piece is saved with the place to resume. */
export const CHUNK_SECONDS = 60;

export interface SearchDeps {
  tools: MediaTools;
}

type Input = { file: string; format?: string };

/**
 * Indexes one source of a video that reads the picture or the sound (text on screen, speech), its
 * state saved as it goes; `input` reads the video once for all of them. Answers the entries it
 * wrote, or undefined when it had nothing to do (off, or done already).
 */
type SourceIndexer = (
  ctx: AppContext,
  deps: SearchDeps,
  video: { id: string; durationSeconds: number },
  input: () => Promise<Input>,
  force: boolean,
  run: JobRunContext,
) => Promise<number | undefined>;

/** Within a piece, the admin's percentage moves with the frames read, written at most this often. */
const PROGRESS_EVERY_MS = 2_000;

/** Marks a source of the video off, saying why (the admin reads it): it is not indexed. */
const markOff = (ctx: AppContext, videoId: string, source: SearchSource, why: string) =>
  setIndexState(ctx.db, videoId, source, { status: 'off', error: why }, ctx.clock.now());

/**
 * What OCR and speech read: the source while it is kept, else the top rung of the ladder
 * (decrypted segment by segment into a scratch file). Never a forensic variant: a marked top rung
 * is refused.
 */
async function readableInput(
  ctx: AppContext,
  store: MediaStore,
  videoId: string,
  renditions: number[],
  name: string,
): Promise<Input> {
  const source = await sourceFile(store, ctx.media.scratch, videoId, name);
  if (source) return { file: source };
  const top = Math.max(...renditions);
  if (!Number.isFinite(top)) throw new PermanentJobError('the video has no source and no rendition');
  const rendition = renditionName(top);
  const playlist = await readText(store, mediaKeys.videoFile(videoId, rendition, PLAYLIST));
  if (isMarkedPlaylist(playlist))
    throw new PermanentJobError('the source is gone and the renditions carry forensic marks');
  const segments = await renditionSegments(ctx, store, videoId, rendition);
  if (!segments) throw new PermanentJobError('the video has no source and no rendition');
  const file = ctx.media.scratch.path(`${name}.ts`);
  await ctx.media.scratch.ensure();
  await writeFile(file, '');
  for await (const piece of segments) await appendFile(file, piece);
  return { file, format: 'mpegts' };
}

interface OpenEntry {
  id?: string;
  start: number;
  text: string;
}

/**
 * Whether a source that reads the picture or the sound runs now: not when its setting is off
 * (`offBecause`, saved as the source's state) or when it is done and not forced. Its saved state.
 */
async function dueSource(
  ctx: AppContext,
  videoId: string,
  source: 'screen' | 'speech',
  offBecause: string | undefined,
  force: boolean,
) {
  if (offBecause) {
    await markOff(ctx, videoId, source, offBecause);
    return undefined;
  }
  const state = await indexStateOf(ctx.db, videoId, source);
  return state?.status === 'done' && !force ? undefined : { state };
}

/** Text on screen, resumable piece by piece. */
const indexScreen: SourceIndexer = async (ctx, deps, video, input, force, run) => {
  const { config, db } = ctx;
  const videoId = video.id;
  const due = await dueSource(ctx, videoId, 'screen', config.searchOcr ? undefined : 'SEARCH_OCR=off', force);
  if (!due) return undefined;
  const { state } = due;
  try {
    await checkTesseract(config.tesseractPath, config.ocrLangs, run.signal);
  } catch (error) {
    // Not the video's fault: the job waits (growing backoff, no attempt used) until Tesseract is there.
    await setIndexState(db, videoId, 'screen', { status: 'queued', error: oneLine(error) }, ctx.clock.now());
    throw new RetryLaterError(oneLine(error));
  }
  let from = force ? 0 : (state?.doneSeconds ?? 0);
  const duration = Math.max(video.durationSeconds, 0.1);
  const markDone = () =>
    setIndexState(
      db,
      videoId,
      'screen',
      { status: 'done', progress: 1, doneSeconds: duration },
      ctx.clock.now(),
    );
  // What a run that died left after its last saved piece goes; the entry still open then is continued.
  await deleteEntries(db, videoId, 'screen', force ? undefined : gte(searchEntries.startSeconds, from));
  let open: OpenEntry | undefined;
  if (from > 0) {
    const [last] = await db
      .select({ id: searchEntries.id, start: searchEntries.startSeconds, text: searchEntries.text })
      .from(searchEntries)
      .where(and(eq(searchEntries.videoId, videoId), eq(searchEntries.source, 'screen')))
      .orderBy(sql`${searchEntries.startSeconds} desc`)
      .limit(1);
    open = last;
  }
  await setIndexState(
    db,
    videoId,
    'screen',
    { status: 'running', progress: Math.min(1, from / duration), doneSeconds: from },
    ctx.clock.now(),
  );
  if (from >= duration) {
    await markDone();
    return 0;
  }
  const source = await input();
  const framesDir = ctx.media.scratch.path(`${videoId}.search-frames`);
  let lastHash = '';
  let lastText = open?.text;
  let written = 0;
  let progressAt = Date.now();
  try {
    while (from < duration) {
      run.signal.throwIfAborted();
      const to = Math.min(duration, from + CHUNK_SECONDS);
      const frames = await extractFrames(deps.tools, source, from, to - from, framesDir, run.signal);
      const closed: { id?: string; start: number; end: number; text: string }[] = [];
      for (const frame of frames) {
        run.signal.throwIfAborted();
        const hash = await hashFile(frame.file);
        if (hash === lastHash) continue; // the very same picture: nothing new to read
        lastHash = hash;
        const text = await readImage(config.tesseractPath, frame.file, config.ocrLangs, run.signal);
        ctx.metrics.searchFramesRead.inc();
        if (Date.now() - progressAt >= PROGRESS_EVERY_MS) {
          // The place to resume stays the piece's start: only what the admin sees moves.
          progressAt = Date.now();
          await setIndexState(
            db,
            videoId,
            'screen',
            { status: 'running', progress: Math.min(1, frame.t / duration), doneSeconds: from },
            ctx.clock.now(),
          );
        }
        if (text === lastText) continue;
        if (open) closed.push({ ...open, end: frame.t });
        open = text.trim() ? { start: frame.t, text } : undefined;
        lastText = text;
      }
      const now = ctx.clock.now();
      await db.transaction(async (tx) => {
        for (const entry of closed) {
          if (entry.id)
            await tx
              .update(searchEntries)
              .set({ endSeconds: entry.end })
              .where(eq(searchEntries.id, entry.id));
          else
            written += await addEntries(tx, videoId, 'screen', [
              { startSeconds: entry.start, endSeconds: entry.end, text: entry.text },
            ]);
        }
        if (open) {
          // Saved as far as this piece goes; the next piece extends or closes it.
          if (open.id)
            await tx.update(searchEntries).set({ endSeconds: to }).where(eq(searchEntries.id, open.id));
          else {
            const [row] = await tx
              .insert(searchEntries)
              .values({
                videoId,
                source: 'screen',
                startSeconds: open.start,
                endSeconds: to,
                text: open.text,
              })
              .returning({ id: searchEntries.id });
            open.id = row!.id;
            written++;
          }
        }
        await setIndexState(
          tx,
          videoId,
          'screen',
          { status: 'running', progress: to / duration, doneSeconds: to },
          now,
        );
      });
      from = to;
    }
  } finally {
    await rm(framesDir, { recursive: true, force: true });
  }
  await markDone();
  return written;
};

/** How much of the command's stderr is kept for the reason (its last line is shown). */
const STDERR_KEEP = 16 * 1024;

/**
 * Runs SPEECH_COMMAND with the WAV and the .vtt to write as its two arguments (never through a
 * string), in a process group of its own: past `timeoutMs` (or when the job is stopped) the whole
 * group is killed, so a script's children (an engine it started, a `sleep`) go with it.
 */
function runSpeech(command: string, wav: string, vtt: string, timeoutMs: number, signal: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const child = spawn('/bin/sh', ['-c', `${command} "$1" "$2"`, 'speech', wav, vtt], {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });
    let stopped: 'timeout' | 'aborted' | undefined;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    const stop = (why: 'timeout' | 'aborted') => {
      stopped ??= why;
      killGroup();
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    const done = (error?: Error) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      // Whatever the shell left running in its group (a background child) goes too.
      killGroup();
      if (error) reject(error);
      else resolve();
    };
    child.on('error', (error) => done(new PermanentJobError(`SPEECH_COMMAND failed: ${error.message}`)));
    child.on('close', (code, killedBy) => {
      if (stopped === 'aborted') return done(signal.reason as Error);
      if (stopped === 'timeout')
        return done(
          new PermanentJobError(`SPEECH_COMMAND did not finish within ${Math.round(timeoutMs / 1000)} s`),
        );
      if (code === 0) return done();
      const last = stderr.trim().split('\n').pop() || `exit ${code ?? killedBy}`;
      done(new PermanentJobError(`SPEECH_COMMAND failed: ${last}`.slice(0, 300)));
    });
  });
}

/** SPEECH_TIMEOUT_SECONDS when set, else 3x the video's length and at least 60 s. */
export const speechTimeoutMs = (setting: number | undefined, durationSeconds: number) =>
  setting !== undefined ? setting * 1000 : Math.max(60_000, durationSeconds * 3_000);

/** Speech, for videos without captions: SPEECH_COMMAND's cues, stored as machine speech. */
const indexSpeech: SourceIndexer = async (ctx, deps, video, input, force, run) => {
  const { config, db } = ctx;
  const videoId = video.id;
  const command = config.speechCommand;
  const off = command ? undefined : 'SPEECH_COMMAND is not set';
  if (!(await dueSource(ctx, videoId, 'speech', off, force)) || !command) return undefined;
  const [captioned] = await db
    .select({ language: videoCaptions.language })
    .from(videoCaptions)
    .where(eq(videoCaptions.videoId, videoId))
    .limit(1);
  if (captioned) {
    await markOff(ctx, videoId, 'speech', 'the video has captions');
    return undefined;
  }
  await setIndexState(db, videoId, 'speech', { status: 'running', progress: 0 }, ctx.clock.now());
  const wav = ctx.media.scratch.path(`${videoId}.search.wav`);
  const vtt = ctx.media.scratch.path(`${videoId}.search.vtt`);
  try {
    const source = await input();
    await deps.tools.ffmpeg(
      [...inputArgs(source.file, source.format), '-vn', '-sn', '-ac', '1', '-ar', '16000', '-f', 'wav', wav],
      { signal: run.signal, lowPriority: true },
    );
    const timeoutMs = speechTimeoutMs(config.speechTimeoutSeconds, video.durationSeconds);
    await runSpeech(command, wav, vtt, timeoutMs, run.signal);
    const cues = readWebVtt(await readFile(vtt, 'utf8').catch(() => ''));
    if (!cues) throw new PermanentJobError('SPEECH_COMMAND wrote no WebVTT');
    return await db.transaction(async (tx) => {
      await deleteEntries(tx, videoId, 'speech');
      const written = await addEntries(
        tx,
        videoId,
        'speech',
        cues.map((c) => ({ startSeconds: c.start, endSeconds: c.end, text: c.plain })),
      );
      await setIndexState(tx, videoId, 'speech', { status: 'done', progress: 1 }, ctx.clock.now());
      return written;
    });
  } finally {
    await rm(wav, { force: true });
    await rm(vtt, { force: true });
  }
};

/**
 * Job `search.index`: a video's captions, text on screen and speech, each source's state saved for
 * the admin. A failing source is marked failed with its reason (on the last attempt) and the
 * others still run; Tesseract missing makes the job wait.
 */
export function searchIndexHandler(ctx: AppContext, deps: SearchDeps): JobHandler<'search.index'> {
  return async ({ videoId, force = false }, run) => {
    const [video] = await ctx.db
      .select({
        id: videos.id,
        status: videos.status,
        store: videos.store,
        renditions: videos.renditions,
        durationSeconds: videos.durationSeconds,
      })
      .from(videos)
      .where(eq(videos.id, videoId))
      .limit(1);
    if (!video || video.status === 'failed') return;
    if (video.status !== 'ready') throw new RetryLaterError('the video is not packaged yet');
    const { metrics } = ctx;
    /** Times one source's work: its duration by outcome, and the entries it wrote. */
    const measured = async (source: SearchSource, work: () => Promise<number | undefined>) => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        const written = await work();
        if (written === undefined) return;
        metrics.searchIndexDuration.observe({ source, outcome: 'done' }, seconds());
        metrics.searchEntries.inc({ source }, written);
      } catch (error) {
        const stopped = run.signal.aborted || isRetryLater(error);
        metrics.searchIndexDuration.observe({ source, outcome: stopped ? 'stopped' : 'failed' }, seconds());
        throw error;
      }
    };
    if (force || !(await indexStateOf(ctx.db, videoId, 'captions')))
      await measured(
        'captions',
        async () => (await indexAllCaptions(ctx.db, videoId, ctx.clock.now())).entries,
      );

    const name = `${videoId}.search`;
    let input: Promise<Input> | undefined;
    const store = ctx.media.of(video.store);
    const inputOnce = () => (input ??= readableInput(ctx, store, videoId, video.renditions, name));
    const failures: string[] = [];
    try {
      for (const [source, index] of [
        ['screen', indexScreen],
        ['speech', indexSpeech],
      ] as const) {
        try {
          await measured(source, () => index(ctx, deps, video, inputOnce, force, run));
        } catch (error) {
          if (run.signal.aborted || isRetryLater(error)) throw error;
          const final = error instanceof PermanentJobError || run.attempt >= SEARCH_ATTEMPTS;
          if (!final) throw error;
          await setIndexState(
            ctx.db,
            videoId,
            source,
            { status: 'failed', error: oneLine(error) },
            ctx.clock.now(),
          );
          failures.push(`${source}: ${oneLine(error)}`);
        }
      }
    } finally {
      await ctx.media.scratch.remove(name, `${name}.source`, `${name}.ts`);
    }
    if (failures.length) throw new PermanentJobError(failures.join('; '));
  };
}

/** Queues `search.index` for a video (its sources marked queued), unless one is queued already. */
export async function queueIndexing(ctx: AppContext, videoId: string, force: boolean): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    const pending = await tx.execute(
      sql`select 1 from jobs where type = 'search.index' and status in ('queued', 'running')
          and payload->>'videoId' = ${videoId} limit 1`,
    );
    if (pending.rows.length) return false;
    const states = await Promise.all(
      ['screen', 'speech'].map((s) => indexStateOf(tx, videoId, s as 'screen')),
    );
    if (!force && states.every((state) => state?.status === 'done')) return false;
    for (const source of ['screen', 'speech'] as const) {
      const state = await indexStateOf(tx, videoId, source);
      if (force || state?.status !== 'done')
        await setIndexState(
          tx,
          videoId,
          source,
          // Starting over: nothing of the last run counts (the admin sees 0%, not the old 100%).
          {
            status: 'queued',
            ...(force ? { progress: 0, doneSeconds: 0 } : { doneSeconds: state?.doneSeconds }),
          },
          now,
        );
    }
    await enqueueJob(
      tx,
      'search.index',
      { videoId, ...(force ? { force } : {}) },
      { priority: SEARCH_PRIORITY, runAt: now, maxAttempts: SEARCH_ATTEMPTS },
    );
    return true;
  });
}

/**
 * The runner's check (every node, each minute): a packaged video with no screen-text state yet gets
 * its `search.index` job. The state row, inserted first, makes it once across nodes.
 */
export async function queueNewVideos(ctx: AppContext): Promise<number> {
  const fresh = await ctx.db
    .select({ id: videos.id })
    .from(videos)
    .where(
      and(
        eq(videos.status, 'ready'),
        notExists(
          ctx.db
            .select({ one: sql`1` })
            .from(searchIndexState)
            .where(and(eq(searchIndexState.videoId, videos.id), eq(searchIndexState.source, 'screen'))),
        ),
      ),
    )
    .limit(20);
  let queued = 0;
  for (const { id } of fresh) {
    const won = await ctx.db.transaction(async (tx) => {
      const now = ctx.clock.now();
      const rows = await tx
        .insert(searchIndexState)
        .values({ videoId: id, source: 'screen', status: 'queued', updatedAt: now })
        .onConflictDoNothing()
        .returning({ id: searchIndexState.videoId });
      if (!rows.length) return false;
      await enqueueJob(
        tx,
        'search.index',
        { videoId: id },
        { priority: SEARCH_PRIORITY, runAt: now, maxAttempts: SEARCH_ATTEMPTS },
      );
      return true;
    });
    if (won) queued++;
  }
  return queued;
}
