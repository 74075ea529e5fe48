import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { jobs, videos } from '../../db/schema';
import { enqueueJob } from '../../jobs/queue';
import { isRetryLater, PermanentJobError, type JobHandler, type JobRunContext } from '../../jobs/types';
import type { MediaTools } from '../../storage/ffmpeg';
import { LADDER_ATTEMPTS, LADDER_PRIORITY, PACKAGE_ATTEMPTS } from '../job-types';
import { mediaKeys, renditionName, StoreUnavailableError, type MediaStore } from '../../storage';
import type { Scratch } from '../../storage/scratch';
import { ladderFor, planFor, writePoster, writeRendition } from './hls';
import { encryptRendition, videoKeysFor } from './segment-keys';
import { trackVideoWork, VideoWorkCancelled } from './video-work';

export interface PackagingDeps {
  tools: MediaTools;
}

/**
 * The video's source as a file ffmpeg reads: the local store's own file, or a copy of the object in
 * the scratch folder (`<name>.source`, removed with the rest of the run's scratch).
 */
export async function sourceFile(
  store: MediaStore,
  scratch: Scratch,
  videoId: string,
  name: string,
): Promise<string | undefined> {
  try {
    await scratch.ensure();
    return await store.fetchToFile(mediaKeys.source(videoId), scratch.path(`${name}.source`));
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Removes what a packaging run named `name` left in the scratch folder. */
export const clearScratch = (scratch: Scratch, name: string) => scratch.remove(name, `${name}.source`);

/** Whether the job was cancelled (its video is being deleted), possibly by another process. */
async function isCancelled(ctx: AppContext, jobId: string): Promise<boolean> {
  const [row] = await ctx.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, jobId)).limit(1);
  return !row || row.status === 'cancelled';
}

/** The last check before files move into the served folder. */
export async function assertStillWanted(
  ctx: AppContext,
  run: JobRunContext,
  signal: AbortSignal,
): Promise<void> {
  signal.throwIfAborted();
  if (await isCancelled(ctx, run.jobId)) throw new VideoWorkCancelled('job cancelled');
}

/** What a packaging job reads of its video first: status, listed renditions and store (undefined once deleted). */
export async function packagingState(ctx: AppContext, videoId: string) {
  const [video] = await ctx.db
    .select({ status: videos.status, renditions: videos.renditions, store: videos.store })
    .from(videos)
    .where(eq(videos.id, videoId))
    .limit(1);
  return video;
}

function failureMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return `Packaging failed: ${text}`.slice(0, 500);
}

/**
 * Job `media.package`: source -> first encrypted HLS rendition + poster, written by ffmpeg into a
 * scratch folder and published to the video's store complete (local: one rename; S3: every object
 * uploaded); only then is the video marked `ready` (so a crash at any point leaves it `processing`,
 * to be retried). Queues the ladder in the same transaction. A store that is away defers the job
 * (RetryLaterError): the video waits in `processing` and the attempt is not used up.
 */
export function packageVideoHandler(ctx: AppContext, deps: PackagingDeps): JobHandler<'media.package'> {
  const { tools } = deps;
  const { scratch } = ctx.media;
  return async ({ videoId }, run) => {
    const video = await packagingState(ctx, videoId);
    if (!video || video.status !== 'processing') return; // deleted, or done by an attempt that died after its commit

    const store = ctx.media.of(video.store);
    const name = `${videoId}.pkg`;
    try {
      await trackVideoWork(ctx, videoId, run.signal, async (signal) => {
        const started = performance.now();
        const stagingDir = await scratch.folder(name);
        const source = await sourceFile(store, scratch, videoId, name);
        if (!source) throw new PermanentJobError('the uploaded file is missing');
        const probe = await tools.probe(source, signal);
        if (!probe?.video) throw new PermanentJobError('ffprobe found no readable video stream');
        const plan = planFor(probe);
        const height = plan.kind === 'encode' ? plan.height : probe.video.height;

        const outDir = path.join(stagingDir, renditionName(height));
        await writeRendition(tools, { source, sourceSize: probe.video, outDir, plan, signal });
        await encryptRendition(outDir, videoKeysFor(ctx, videoId), ctx.config.keyRotationSeconds);
        await writePoster(tools, {
          source,
          file: path.join(stagingDir, 'poster.jpg'),
          durationSeconds: probe.durationSeconds,
          signal,
        });
        await assertStillWanted(ctx, run, signal);
        await store.publish(stagingDir, mediaKeys.video(videoId), signal);

        const rungs = ladderFor(probe.video.height);
        const now = ctx.clock.now();
        const marked = await ctx.db.transaction(async (tx) => {
          const rows = await tx
            .update(videos)
            .set({ status: 'ready', renditions: [height], failureReason: null, updatedAt: now })
            .where(and(eq(videos.id, videoId), eq(videos.status, 'processing')))
            .returning({ id: videos.id });
          if (rows.length) {
            // Also when there is no rung to make: the ladder job then just drops the source.
            await enqueueJob(
              tx,
              'media.ladder',
              { videoId },
              { priority: LADDER_PRIORITY, runAt: now, maxAttempts: LADDER_ATTEMPTS },
            );
          }
          return rows.length > 0;
        });
        // Deleted while we worked: what we just published belongs to nobody.
        if (!marked) await store.deletePrefix(mediaKeys.video(videoId));
        else {
          ctx.metrics.packagingDuration.observe({ kind: plan.kind }, (performance.now() - started) / 1000);
          run.log.info({ videoId, height, plan: plan.kind, rungs }, 'video is playable');
        }
      });
    } catch (error) {
      // Shutdown, delete or the store away: not the video's fault.
      if (run.signal.aborted || error instanceof VideoWorkCancelled || isRetryLater(error)) throw error;
      const final = error instanceof PermanentJobError || run.attempt >= PACKAGE_ATTEMPTS;
      if (final) {
        await ctx.db
          .update(videos)
          .set({ status: 'failed', failureReason: failureMessage(error), updatedAt: ctx.clock.now() })
          .where(and(eq(videos.id, videoId), eq(videos.status, 'processing')));
        throw new PermanentJobError(failureMessage(error));
      }
      throw error;
    } finally {
      await clearScratch(scratch, name);
    }
  };
}
