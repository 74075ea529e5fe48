import { eq } from 'drizzle-orm';
import { mediaMessages } from '../../contract/media';
import type { AppContext } from '../context';
import { videos } from '../db/schema';
import { notFound } from '../errors';
import { cancelJobs, enqueueJob } from '../jobs/queue';
import type { JobHandler } from '../jobs/types';
import { cancelVideoWork } from './packaging/video-work';
import { mediaKeys, StoreUnavailableError, UUID_PATTERN, type MediaStore, type StoreKind } from '../storage';

/** Deletes go on until the store takes them: an outage defers the job without using up attempts. */
const DELETE_ATTEMPTS = 5;

/** Removes every object of a video from `store`: its folder (renditions, poster) and its source. */
export async function removeVideoObjects(store: MediaStore, videoId: string): Promise<boolean> {
  const removed = await store.deletePrefix(mediaKeys.video(videoId));
  const source = await store.head(mediaKeys.source(videoId));
  if (source) await store.delete(mediaKeys.source(videoId));
  return removed > 0 || Boolean(source);
}

/**
 * Removes every file of a video. Its row stays for the admin API's delete call, marked `failed`
 * ("files deleted") so it can never be played from missing files meanwhile. Packaging in progress
 * is cancelled first: in the queue (other workers stop at their next check) and here at once.
 * When the store is away the removal becomes a `media.delete` job, retried until it is done
 * ('queued'); nothing comes back meanwhile, as the row no longer lists anything to play.
 * 404 when neither a row nor files exist.
 */
export async function deleteVideoMedia(ctx: AppContext, videoId: string): Promise<'deleted' | 'queued'> {
  if (!UUID_PATTERN.test(videoId)) throw notFound(mediaMessages.videoNotFound);
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .select({ id: videos.id, store: videos.store })
    .from(videos)
    .where(eq(videos.id, videoId))
    .limit(1);
  if (row) {
    await ctx.db
      .update(videos)
      .set({ status: 'failed', failureReason: mediaMessages.mediaDeleted, renditions: [], updatedAt: now })
      .where(eq(videos.id, videoId));
  }
  await cancelJobs(ctx.db, 'media.package', { videoId }, now);
  await cancelJobs(ctx.db, 'media.ladder', { videoId }, now);
  await cancelVideoWork(ctx, videoId);
  await ctx.media.scratch.removeVideo(videoId);
  // Without a row, look wherever media may be (the admin API may have deleted the row first).
  const kinds: StoreKind[] = row ? [row.store] : ctx.media.s3 ? ['local', 's3'] : ['local'];
  let existed = false;
  for (const store of kinds) {
    try {
      existed = (await removeVideoObjects(ctx.media.of(store), videoId)) || existed;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      ctx.logger.warn({ err: error, videoId, store }, 'media store away: the delete is queued');
      await enqueueJob(
        ctx.db,
        'media.delete',
        { videoId, store },
        { maxAttempts: DELETE_ATTEMPTS, runAt: now },
      );
      return 'queued';
    }
  }
  if (!row && !existed) throw notFound(mediaMessages.videoNotFound);
  return 'deleted';
}

/** Job `media.delete`: a delete the store could not take at the time. */
export function deleteMediaHandler(ctx: AppContext): JobHandler<'media.delete'> {
  return async ({ videoId, store }, { log }) => {
    const removed = await removeVideoObjects(ctx.media.of(store), videoId);
    log.info({ videoId, store, removed }, 'queued media delete done');
  };
}
