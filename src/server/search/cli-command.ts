import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { videos } from '../db/schema';
import { indexAllCaptions } from './index-store';
import { queueIndexing } from './index-queue';
import { plural } from '../../contract/plural';

/** What search:index did: videos found, caption tracks indexed, videos queued for the worker. */
export interface IndexingReport {
  videos: number;
  tracks: number;
  queued: number;
}

/**
 * `npm run cli -- search:index [--video ID]`: caption cues indexed at once; screen text and speech
 * queued as `search.index` jobs. With `--video`, that video starts over (force); without, every
 * packaged video whose index is not done is queued (what is done stays), so videos packaged before
 * search came get indexed. Undefined when `--video` names no packaged video.
 */
export async function indexFromCli(
  ctx: AppContext,
  videoId: string | undefined,
): Promise<IndexingReport | undefined> {
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

/** search:index's report: what it indexed at once, what it queued and what the worker does next. */
export function describeIndexing(report: IndexingReport): string {
  return (
    `${plural(report.videos, 'video')}: caption cues of ${plural(report.tracks, 'track')} indexed; queued ${plural(report.queued, 'video')}` +
    (report.videos > report.queued ? ` (${report.videos - report.queued} already queued or done)` : '') +
    '. The worker reads screen text (and speech with SPEECH_COMMAND) one video at a time.'
  );
}
