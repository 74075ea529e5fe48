import { and, eq } from 'drizzle-orm';
import {
  courseAccess,
  videoAccess as videoRule,
  type AccessVerdict,
  type WatchVerdict,
} from '../../contract/access-policy';
import type { Db } from '../db/client';
import { enrollments, videoAccess, videos } from '../db/schema';

/** The student's access to one course, by the one rule (src/contract/access-policy.ts). */
export async function courseAccessOf(
  db: Db,
  studentId: string,
  courseId: string,
  now: Date,
  timeZone: string,
): Promise<AccessVerdict> {
  const [row] = await db
    .select({ accessRevoked: enrollments.accessRevoked, accessExpiration: enrollments.accessExpiration })
    .from(enrollments)
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.courseId, courseId)))
    .limit(1);
  return courseAccess(row, now, timeZone);
}

export type WatchDecision = WatchVerdict | 'not-found';

/**
 * Whether `user` may watch `videoId` now: admins always; students only with active access to the
 * video's course and a video grant. One query, so the streamer can afford it on every playlist.
 */
export async function decideWatch(
  db: Db,
  user: { id: string; role: 'admin' | 'student' },
  videoId: string,
  now: Date,
  timeZone: string,
): Promise<WatchDecision> {
  return (await checkWatch(db, user, videoId, now, timeZone)).decision;
}

/** `decideWatch`, plus the video's length from the same row (progress needs both). */
export async function checkWatch(
  db: Db,
  user: { id: string; role: 'admin' | 'student' },
  videoId: string,
  now: Date,
  timeZone: string,
): Promise<{ decision: WatchDecision; durationSeconds: number }> {
  if (user.role === 'admin') {
    const [video] = await db
      .select({ durationSeconds: videos.durationSeconds })
      .from(videos)
      .where(eq(videos.id, videoId))
      .limit(1);
    return { decision: video ? 'allowed' : 'not-found', durationSeconds: video?.durationSeconds ?? 0 };
  }
  const [row] = await db
    .select({
      durationSeconds: videos.durationSeconds,
      courseId: videos.courseId,
      accessRevoked: enrollments.accessRevoked,
      accessExpiration: enrollments.accessExpiration,
      granted: videoAccess.videoId,
    })
    .from(videos)
    .leftJoin(enrollments, and(eq(enrollments.courseId, videos.courseId), eq(enrollments.studentId, user.id)))
    .leftJoin(videoAccess, and(eq(videoAccess.videoId, videos.id), eq(videoAccess.studentId, user.id)))
    .where(eq(videos.id, videoId))
    .limit(1);
  if (!row) return { decision: 'not-found', durationSeconds: 0 };
  const enrollment =
    row.courseId && row.accessRevoked !== null && row.accessExpiration !== null
      ? { accessRevoked: row.accessRevoked, accessExpiration: row.accessExpiration }
      : null;
  return {
    decision: videoRule(enrollment, row.granted !== null, now, timeZone),
    durationSeconds: row.durationSeconds,
  };
}
