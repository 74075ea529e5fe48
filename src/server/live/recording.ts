import { eq } from 'drizzle-orm';
import { createWriteStream } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { liveClasses } from '../db/schema';
import { enqueueJob } from '../jobs/queue';
import { runWithProgress } from '../jobs/run-progress';
import { isRetryLater, PermanentJobError, type JobHandler, type JobRunContext } from '../jobs/types';
import {
  audioPlanFor,
  ladderFor,
  PLAYLIST,
  planFor,
  writePoster,
  writeRendition,
} from '../media/packaging/hls';
import { dropRenditionsBut, replaceRendition, type InPlaceWork } from '../media/packaging/in-place';
import { markRenditions } from '../media/packaging/mark-video';
import {
  assertStillWanted,
  clearScratch,
  packagingState,
  sourceFile,
  type PackagingDeps,
} from '../media/packaging/package-job';
import { renditionSegments } from '../media/packaging/rendition-reader';
import { encryptRendition, videoKeysFor } from '../media/packaging/segment-keys';
import { trackVideoWork, VideoWorkCancelled } from '../media/packaging/video-work';
import { searchIndexHandler } from '../search/index-job';
import { queueIndexing } from '../search/index-queue';
import { inputArgs, type MediaTools } from '../storage/ffmpeg';
import { mediaKeys, readText, renditionName, type MediaStore } from '../storage';
import { RECORDING_ATTEMPTS, RECORDING_PRIORITY } from './job-types';
import { saveRecordingProgress, type RecordingProgress } from './recording-progress';

/** A rendition still serving the class's live segments (ingest.ts writes EVENT playlists). */
export const isLivePlaylist = (playlist: string | undefined) =>
  playlist?.includes('#EXT-X-PLAYLIST-TYPE:EVENT') ?? false;

/**
 * A packaged segment's name in a rendition that replaces live segments: `seg_00003_k.ts`, never a
 * live one's (`seg_00003.ts`), so a player still holding the live playlist keeps its bytes (as a
 * re-key names its segments, rekey.ts).
 */
const replacingName = (file: string) => file.replace(/\.ts$/, '_k.ts');

/**
 * Queues the packaging of a class's recording, in the transaction that ends the class; the class
 * names its job, whose state the staff's answers show (recording-progress.ts).
 */
export async function queueRecording(db: Db, classId: string, videoId: string) {
  const jobId = await enqueueJob(
    db,
    'live.recording',
    { classId, videoId },
    { priority: RECORDING_PRIORITY, maxAttempts: RECORDING_ATTEMPTS },
  );
  await db.update(liveClasses).set({ recordingJobId: jobId }).where(eq(liveClasses.id, classId));
  return jobId;
}

/** The heights among `renditions` whose playlist still lists live segments. */
async function liveHeights(store: MediaStore, videoId: string, renditions: number[]): Promise<number[]> {
  const out: number[] = [];
  for (const height of renditions) {
    const playlist = await readText(store, mediaKeys.videoFile(videoId, renditionName(height), PLAYLIST));
    if (isLivePlaylist(playlist)) out.push(height);
  }
  return out.sort((a, b) => b - a);
}

/**
 * The recording as one file: the tallest live rendition (the encoder's own picture, copied)
 * decrypted segment after segment, then remuxed into Matroska. ffmpeg joins what follows a
 * discontinuity (an encoder that reconnected started its clock again) on from what came before, and
 * the file has an index: the joined MPEG-TS probes with a wrong length when its clock ran backwards,
 * and a seek into a short one finds no picture (the poster). Stored as the video's source
 * (`sources/<videoId>`), so a run that dies mid-way starts again from it and the search index reads
 * it as it reads an upload.
 */
async function storeRecordingSource(
  ctx: AppContext,
  tools: MediaTools,
  store: MediaStore,
  input: { videoId: string; height: number; name: string; signal: AbortSignal },
): Promise<void> {
  const { videoId, name, signal } = input;
  const segments = await renditionSegments(ctx, store, videoId, renditionName(input.height));
  if (!segments) throw new PermanentJobError('the live recording has no playlist');
  const { scratch } = ctx.media;
  await scratch.ensure();
  const joined = scratch.path(`${name}.live.ts`);
  const file = scratch.path(`${name}.source`);
  try {
    await pipeline(Readable.from(segments), createWriteStream(joined));
    await tools.ffmpeg(
      [
        ...inputArgs(joined, 'mpegts'),
        ...['-map', '0:v:0', '-map', '0:a:0?', '-sn', '-dn', '-c', 'copy', '-f', 'matroska', file],
      ],
      { signal, lowPriority: true },
    );
    await store.put(mediaKeys.source(videoId), { file });
  } finally {
    await scratch.remove(`${name}.live.ts`);
  }
}

/**
 * Without forensic marks: the recording's first rendition (remuxed when it is H.264, as an upload's)
 * and the ladder below it, each replacing the live rendition of its height in place: its segments
 * under new names, its playlist last, the row's stamp moved; the live segments it replaced go by
 * a job once no link to them works (rekey.ts). A rendition packaged already is skipped.
 */
async function replaceUnmarked(
  ctx: AppContext,
  tools: MediaTools,
  input: InPlaceWork,
  progress: (p: RecordingProgress) => void,
): Promise<number[]> {
  const { videoId, store, source, probe, run, signal } = input;
  const plan = planFor(probe);
  const top = plan.kind === 'encode' ? plan.height : probe.video!.height;
  const heights = [top, ...ladderFor(probe.video!.height).filter((h) => h !== top)];
  for (const [i, height] of heights.entries()) {
    const rendition = renditionName(height);
    const current = await readText(store, mediaKeys.videoFile(videoId, rendition, PLAYLIST));
    if (current !== undefined && !isLivePlaylist(current)) continue; // an earlier run did it
    progress({ step: 'renditions', part: i + 1, parts: heights.length });
    const name = `${videoId}.recording.${rendition}`;
    try {
      const dir = await ctx.media.scratch.folder(name);
      await writeRendition(tools, {
        source,
        sourceSize: probe.video!,
        outDir: dir,
        plan: height === top ? plan : { kind: 'encode', height, audio: audioPlanFor(probe) },
        signal,
        lowPriority: true,
      });
      await encryptRendition(dir, videoKeysFor(ctx, videoId), ctx.config.keyRotationSeconds);
      const lines = (await readFile(path.join(dir, PLAYLIST), 'utf8')).split('\n');
      for (const [i, line] of lines.entries()) {
        if (!line || line.startsWith('#')) continue;
        await rename(path.join(dir, line), path.join(dir, replacingName(line)));
        lines[i] = replacingName(line);
      }
      await writeFile(path.join(dir, PLAYLIST), lines.join('\n'));
      await assertStillWanted(ctx, run, signal);
      if (!(await replaceRendition(ctx, store, { videoId, height, dir, current })))
        throw new VideoWorkCancelled('the video is gone');
      run.log.info({ videoId, height }, 'live recording: rendition packaged in place');
    } finally {
      await clearScratch(ctx.media.scratch, name);
    }
  }
  return heights;
}

/**
 * The recording's packaging proper, each step skipped when an earlier run did it (see
 * recordingHandler); `progress` hears each step as it starts.
 */
async function packageRecording(
  ctx: AppContext,
  tools: MediaTools,
  input: { videoId: string; renditions: number[]; store: MediaStore; name: string; run: JobRunContext },
  signal: AbortSignal,
  progress: (p: RecordingProgress) => void,
): Promise<void> {
  const { videoId, store, name, run } = input;
  const { scratch } = ctx.media;
  const started = performance.now();
  const live = await liveHeights(store, videoId, input.renditions);
  if (!live.length && !(await store.head(mediaKeys.source(videoId)))) return; // done before
  let source = await sourceFile(store, scratch, videoId, name);
  if (!source) {
    progress({ step: 'source' });
    await storeRecordingSource(ctx, tools, store, { videoId, height: live[0]!, name, signal });
    source = await sourceFile(store, scratch, videoId, name);
    if (!source) throw new Error('the recording source was not stored');
  }
  const probe = await tools.probe(source, signal);
  if (!probe?.video) throw new PermanentJobError('ffprobe found no readable video stream in the recording');
  if (!(await store.head(mediaKeys.poster(videoId)))) {
    progress({ step: 'poster' });
    const poster = scratch.path(`${name}.poster.jpg`);
    try {
      await writePoster(tools, { source, file: poster, durationSeconds: probe.durationSeconds, signal });
      await store.put(mediaKeys.poster(videoId), { file: poster }, { contentType: 'image/jpeg' });
    } finally {
      await scratch.remove(`${name}.poster.jpg`);
    }
  }
  let kept: number[];
  if (ctx.config.forensicMarks) {
    progress({ step: 'marked renditions' });
    if (!(await markRenditions(ctx, tools, { videoId, store, source, probe, run, signal })))
      throw new VideoWorkCancelled('the video is gone');
    kept = (await packagingState(ctx, videoId))?.renditions ?? [];
  } else kept = await replaceUnmarked(ctx, tools, { videoId, store, source, probe, run, signal }, progress);
  await dropRenditionsBut(ctx, store, videoId, kept);
  progress({ step: 'search index' });
  // As an upload's index job would (search/index-job.ts), here so it reads the source before it goes.
  await searchIndexHandler(ctx, { tools })({ videoId }, run).catch((error: unknown) => {
    if (run.signal.aborted || isRetryLater(error)) throw error;
    // The sources' states say what failed; the admin can index it again (search:index).
    run.log.warn({ videoId, error: String(error) }, 'live recording: the search index failed');
  });
  await assertStillWanted(ctx, run, signal);
  await store.delete(mediaKeys.source(videoId));
  ctx.metrics.packagingDuration.observe({ kind: 'recording' }, (performance.now() - started) / 1000);
}

/**
 * Job `live.recording`, queued when a streamed class ends (ingest.ts `finish`): the recording, which
 * plays as its live renditions meanwhile, is packaged as an upload is, from the live top rung
 * decrypted into a source file. In order, each step skipped when an earlier run did it (a run that
 * dies mid-way resumes; a second run finds nothing to do):
 *
 * 1. the source (`sources/<videoId>`), while any rendition is still live;
 * 2. the poster;
 * 3. the renditions, replaced in place: with FORENSIC_MARKS=on every rung marked (A and B,
 *    mark-video.ts), else the first rendition remuxed and the ladder encoded below it;
 * 4. the search index (captions, text on screen, speech), read from the source;
 * 5. the source removed.
 *
 * Each step goes to the log and to the class's row as it starts (runWithProgress, as the backup and
 * trace jobs save theirs; recording-progress.ts shows it to the staff with the job's own state);
 * `lectern_packaging_duration_seconds{kind="recording"}` times the whole, and the queue's
 * `lectern_jobs{type="live.recording"}` counts the jobs.
 */
export function recordingHandler(ctx: AppContext, deps: PackagingDeps): JobHandler<'live.recording'> {
  const { tools } = deps;
  const { scratch } = ctx.media;
  return async ({ classId, videoId }, run) => {
    const video = await packagingState(ctx, videoId);
    if (!video || video.status !== 'ready') return; // deleted, or never streamed
    const name = `${videoId}.recording`;
    const input = { videoId, renditions: video.renditions, store: ctx.media.of(video.store), name, run };
    // A new attempt starts its steps afresh (a resumed run skips what an earlier one did).
    await saveRecordingProgress(ctx.db, classId, null);
    try {
      await trackVideoWork(ctx, videoId, run.signal, async (signal) => {
        const outcome = await runWithProgress(
          {
            signal,
            save: (p: RecordingProgress) => saveRecordingProgress(ctx.db, classId, p),
            stepOf: (p) => `${p.step} ${p.part ?? ''}`,
            onSaveError: (error) =>
              run.log.warn({ err: error, classId }, 'could not save recording progress'),
            // Back in the queue, the job's own state says it waits; its next attempt clears the step.
            interrupt: () => Promise.resolve(),
          },
          (report) =>
            packageRecording(ctx, tools, input, signal, (p) => {
              run.log.info({ classId, videoId, ...p }, 'live recording: packaging');
              report(p);
            }),
        );
        if (!outcome.ok) throw outcome.error;
        run.log.info({ classId, videoId, step: 'done' }, 'live recording: packaging');
      });
    } catch (error) {
      if (run.signal.aborted || error instanceof VideoWorkCancelled || isRetryLater(error)) throw error;
      // Given up: the recording still plays as its live renditions; it gets its index there.
      if (error instanceof PermanentJobError || run.attempt >= RECORDING_ATTEMPTS)
        await queueIndexing(ctx, videoId, false);
      throw error;
    } finally {
      await clearScratch(scratch, name);
    }
  };
}
