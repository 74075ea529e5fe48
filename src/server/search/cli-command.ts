import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { videos } from '../db/schema';
import { indexAllCaptions } from './index-store';
import { queueIndexing } from './index-job';

/**
 * `npm run cli -- search:index [--video ID]`: caption cues indexed at once; screen text and speech
 * queued as `search.index` jobs. With `--video`, that video starts over (force); without, every
 * packaged video whose index is not done is queued (what is done stays), so videos packaged before
 * search came get indexed. Undefined when `--video` names no packaged video.
 */
export async function indexFromCli(
  ctx: AppContext,
  videoId: string | undefined,
): Promise<{ videos: number; tracks: number; queued: number } | undefined> {
  const list = await ctx.db
    .select({ id: videos.id })
    .from(videos)
    .where(and(eq(videos.status, 'ready'), videoId ? eq(videos.id, videoId) : undefined))
    .orderBy(videos.createdAt);
  if (videoId && !list.length) return undefined;
  let tracks = 0;
  let queued = 0;
  for (const { id } of list) {
    tracks += (await indexAllCaptions(ctx.db, id, ctx.clock.now())).tracks;
    if (await queueIndexing(ctx, id, videoId !== undefined)) queued++;
  }
  return { videos: list.length, tracks, queued };
}
