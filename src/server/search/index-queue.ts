import { and, eq, notExists, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { liveClasses, searchIndexState, videos } from '../db/schema';
import { enqueueJob } from '../jobs/queue';
import { indexStateOf, setIndexState } from './index-store';
import { SEARCH_ATTEMPTS, SEARCH_PRIORITY } from './job-types';
import './job-types';

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
        // A live class's lecture is indexed by its recording's packaging (live/recording.ts), not
        // while it grows.
        notExists(
          ctx.db
            .select({ one: sql`1` })
            .from(liveClasses)
            .where(eq(liveClasses.videoId, videos.id)),
        ),
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
