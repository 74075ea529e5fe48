import { eq } from 'drizzle-orm';
import { mediaMessages } from '../../contract/media';
import type { AppContext } from '../context';
import { videos } from '../db/schema';
import { notFound } from '../errors';
import { cancelJobs } from '../jobs/queue';
import { cancelVideoWork } from './packaging/video-work';
import { removeVideoFiles, UUID_PATTERN, type MediaPaths } from './storage';

/**
 * Removes every file of a video. Its row stays for the admin API's delete call, marked `failed`
 * ("files deleted") so it can never be played from missing files meanwhile. Packaging in progress
 * is cancelled first: in the queue (other workers stop at their next check) and here at once.
 * 404 when neither a row nor files exist.
 */
export async function deleteVideoMedia(ctx: AppContext, paths: MediaPaths, videoId: string): Promise<void> {
  if (!UUID_PATTERN.test(videoId)) throw notFound(mediaMessages.videoNotFound);
  const now = ctx.clock.now();
  const [row] = await ctx.db.select({ id: videos.id }).from(videos).where(eq(videos.id, videoId)).limit(1);
  if (row) {
    await ctx.db
      .update(videos)
      .set({ status: 'failed', failureReason: mediaMessages.mediaDeleted, renditions: [], updatedAt: now })
      .where(eq(videos.id, videoId));
  }
  await cancelJobs(ctx.db, 'media.package', { videoId }, now);
  await cancelJobs(ctx.db, 'media.ladder', { videoId }, now);
  await cancelVideoWork(ctx, videoId);
  const existed = await removeVideoFiles(paths, videoId);
  if (!row && !existed) throw notFound(mediaMessages.videoNotFound);
}
