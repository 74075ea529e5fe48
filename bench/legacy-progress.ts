import { sql } from 'drizzle-orm';
import { COMPLETION_RATIO, saveLimits } from '../src/contract/progress';
import type { Db } from '../src/server/db/client';
import { videoProgress } from '../src/server/db/schema';
import { checkWatch } from '../src/server/videos/access';

/**
 * The progress save as it was before watched ranges (commit a6393bf), kept only as the benchmark's
 * baseline: access and length in one query, then one upsert of position and a rate-limited total.
 */
export async function legacySaveProgress(
  db: Db,
  user: { id: string; role: 'admin' | 'student' | 'instructor' },
  body: { videoId: string; position: number; watched: number },
  now: Date,
  timeZone: string,
): Promise<number> {
  const { decision, durationSeconds: duration } = await checkWatch(db, user, body.videoId, now, timeZone);
  if (decision !== 'allowed') return 403;
  const claimed = Math.min(body.watched, duration);
  const position = duration > 0 ? Math.min(body.position, duration) : body.position;
  const completeAt = duration > 0 ? COMPLETION_RATIO * duration : Number.POSITIVE_INFINITY;
  const firstWatched = Math.min(claimed, saveLimits.firstWatchedSeconds);
  const at = now.toISOString();
  const elapsed = sql`greatest(0, extract(epoch from (${at}::timestamptz - ${videoProgress.updatedAt})))::float8`;
  const grown = sql`least(${claimed}::float8, ${videoProgress.watchedSeconds}::float8 + ${saveLimits.watchRate}::float8 * ${elapsed})`;
  const watched = sql`greatest(${videoProgress.watchedSeconds}::float8, ${grown})`;
  const completion = Number.isFinite(completeAt) ? sql`${completeAt}::float8` : sql`'Infinity'::float8`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local synchronous_commit = off`);
    await tx
      .insert(videoProgress)
      .values({
        studentId: user.id,
        videoId: body.videoId,
        positionSeconds: position,
        watchedSeconds: firstWatched,
        completedAt: firstWatched >= completeAt ? now : null,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [videoProgress.studentId, videoProgress.videoId],
        set: {
          positionSeconds: position,
          watchedSeconds: sql`${watched}`,
          completedAt: sql`coalesce(${videoProgress.completedAt}, case when ${watched} >= ${completion} then ${at}::timestamptz end)`,
          updatedAt: now,
        },
      });
  });
  return 200;
}
