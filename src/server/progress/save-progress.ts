import { sql } from 'drizzle-orm';
import {
  COMPLETION_RATIO,
  FIRST_SAVE_MAX_WATCHED_SECONDS,
  progressMessages,
  WATCH_RATE_LIMIT,
  type ProgressBody,
  type VideoProgress,
} from '../../contract/progress';
import type { Db } from '../db/client';
import { videoProgress } from '../db/schema';
import { forbidden, notFound } from '../errors';
import { checkWatch } from '../videos/access';
import { presentProgress } from './presenter';

/**
 * Records where a student is in a video. Only for videos they may watch now. `watched` is the
 * client's total of seconds actually played: the stored value only grows, never past the video's
 * length, and by at most WATCH_RATE_LIMIT x the wall time since the previous save. The video is
 * completed (for good) once the stored value reaches COMPLETION_RATIO of its length.
 */
export async function saveProgress(
  db: Db,
  user: { id: string; role: 'admin' | 'student' },
  body: ProgressBody,
  now: Date,
): Promise<VideoProgress> {
  const { decision, durationSeconds: duration } = await checkWatch(db, user, body.videoId, now);
  if (decision === 'not-found') throw notFound(progressMessages.videoNotFound);
  if (decision === 'no-course-access') throw forbidden(progressMessages.noCourseAccess);
  if (decision === 'no-video-access') throw forbidden(progressMessages.noVideoAccess);

  const claimed = Math.min(body.watched, duration);
  const position = duration > 0 ? Math.min(body.position, duration) : body.position;
  const completeAt = duration > 0 ? COMPLETION_RATIO * duration : Number.POSITIVE_INFINITY;
  const firstWatched = Math.min(claimed, FIRST_SAVE_MAX_WATCHED_SECONDS);
  const at = now.toISOString();

  // One atomic upsert: concurrent saves from two tabs cannot lose each other's watched time.
  const elapsed = sql`greatest(0, extract(epoch from (${at}::timestamptz - ${videoProgress.updatedAt})))::float8`;
  const grown = sql`least(${claimed}::float8, ${videoProgress.watchedSeconds}::float8 + ${WATCH_RATE_LIMIT}::float8 * ${elapsed})`;
  const watched = sql`greatest(${videoProgress.watchedSeconds}::float8, ${grown})`;
  const completion = Number.isFinite(completeAt) ? sql`${completeAt}::float8` : sql`'Infinity'::float8`;

  // A progress save is a heartbeat: losing the last second of them to a crash is harmless, so its
  // commit does not wait for the WAL flush. Under an upload's fsyncs that wait was the p99 (up to 0.9 s).
  const [row] = await db.transaction(async (tx) => {
    await tx.execute(sql`set local synchronous_commit = off`);
    return tx
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
      })
      .returning();
  });
  return presentProgress(row!);
}
