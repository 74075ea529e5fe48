import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { jobs, videos } from '../../db/schema';
import { enqueueJob } from '../../jobs/queue';
import { PermanentJobError, type JobHandler, type JobRunContext } from '../../jobs/types';
import type { MediaTools } from '../ffmpeg';
import { LADDER_ATTEMPTS, LADDER_PRIORITY, PACKAGE_ATTEMPTS } from '../job-types';
import { fsyncPath, fsyncTree, renditionName, type MediaPaths } from '../storage';
import { ladderFor, planFor, writeKeyFiles, writePoster, writeRendition } from './hls';
import { trackVideoWork, VideoWorkCancelled } from './video-work';

export interface PackagingDeps {
  tools: MediaTools;
  paths: MediaPaths;
}

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

/** Replaces `target` with the complete folder `staged` (a rename: never half there). */
export async function moveIntoPlace(staged: string, target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  await rm(target, { recursive: true, force: true }); // leftover of an attempt that died before its commit
  await rename(staged, target);
  await fsyncPath(path.dirname(target));
}

function failureMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return `Packaging failed: ${text}`.slice(0, 500);
}

/**
 * Job `media.package`: source -> first encrypted HLS rendition + poster, written in `staging/` and
 * moved into `videos/<id>/` complete; only then is the video marked `ready` (so a crash at any point
 * leaves it `processing`, to be retried). Queues the ladder in the same transaction.
 */
export function packageVideoHandler(ctx: AppContext, deps: PackagingDeps): JobHandler<'media.package'> {
  const { tools, paths } = deps;
  return async ({ videoId }, run) => {
    const [video] = await ctx.db
      .select({ status: videos.status, hlsKey: videos.hlsKey, durationSeconds: videos.durationSeconds })
      .from(videos)
      .where(eq(videos.id, videoId))
      .limit(1);
    if (!video || video.status !== 'processing') return; // deleted, or done by an attempt that died after its commit

    const stagingDir = path.join(paths.staging, `${videoId}.pkg`);
    try {
      await trackVideoWork(ctx, videoId, run.signal, async (signal) => {
        const source = paths.source(videoId);
        if (!(await stat(source).catch(() => undefined)))
          throw new PermanentJobError('the uploaded file is missing');
        const probe = await tools.probe(source, signal);
        if (!probe?.video) throw new PermanentJobError('ffprobe found no readable video stream');
        const plan = planFor(probe);
        const height = plan.kind === 'encode' ? plan.height : probe.video.height;

        let key = video.hlsKey;
        if (!key) {
          key = randomBytes(16).toString('hex');
          await ctx.db.update(videos).set({ hlsKey: key }).where(eq(videos.id, videoId));
        }
        await rm(stagingDir, { recursive: true, force: true });
        await mkdir(stagingDir, { recursive: true });
        const keyInfo = await writeKeyFiles(paths.staging, `${videoId}.pkg`, key);
        await writeRendition(tools, {
          source,
          sourceSize: probe.video,
          outDir: path.join(stagingDir, renditionName(height)),
          keyInfoFile: keyInfo,
          plan,
          signal,
        });
        await writePoster(tools, {
          source,
          file: path.join(stagingDir, 'poster.jpg'),
          durationSeconds: probe.durationSeconds,
          signal,
        });
        await fsyncTree(stagingDir);
        await assertStillWanted(ctx, run, signal);
        await moveIntoPlace(stagingDir, paths.video(videoId));

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
        // Deleted while we worked: what we just moved in belongs to nobody.
        if (!marked) await rm(paths.video(videoId), { recursive: true, force: true });
        else run.log.info({ videoId, height, plan: plan.kind, rungs }, 'video is playable');
      });
    } catch (error) {
      if (run.signal.aborted || error instanceof VideoWorkCancelled) throw error; // shutdown or delete: not the video's fault
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
      await rm(stagingDir, { recursive: true, force: true });
      await rm(path.join(paths.staging, `${videoId}.pkg.key`), { force: true });
      await rm(path.join(paths.staging, `${videoId}.pkg.keyinfo`), { force: true });
    }
  };
}
