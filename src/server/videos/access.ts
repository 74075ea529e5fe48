import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { enrollments, videoAccess, videos } from '../db/schema';

/** SPEC.md section 4: course access is active while not revoked and its expiry is not before now. */
export function isAccessActive(
  enrollment: { accessRevoked: boolean; accessExpiration: Date },
  now: Date,
): boolean {
  return !enrollment.accessRevoked && enrollment.accessExpiration.getTime() >= now.getTime();
}

export type CourseAccess = 'active' | 'expired' | 'revoked' | 'none';

/** The student's access to one course. */
export async function courseAccessOf(
  db: Db,
  studentId: string,
  courseId: string,
  now: Date,
): Promise<CourseAccess> {
  const [row] = await db
    .select({ accessRevoked: enrollments.accessRevoked, accessExpiration: enrollments.accessExpiration })
    .from(enrollments)
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.courseId, courseId)))
    .limit(1);
  if (!row) return 'none';
  if (row.accessRevoked) return 'revoked';
  return isAccessActive(row, now) ? 'active' : 'expired';
}

export type WatchDecision = 'allowed' | 'not-found' | 'no-course-access' | 'no-video-access';

/**
 * Whether `user` may watch `videoId` now: admins always; students only with active access to the
 * video's course and a video grant. One query, so the streamer can afford it on every playlist.
 */
export async function decideWatch(
  db: Db,
  user: { id: string; role: 'admin' | 'student' },
  videoId: string,
  now: Date,
): Promise<WatchDecision> {
  return (await checkWatch(db, user, videoId, now)).decision;
}

/** `decideWatch`, plus the video's length from the same row (progress needs both). */
export async function checkWatch(
  db: Db,
  user: { id: string; role: 'admin' | 'student' },
  videoId: string,
  now: Date,
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
  const decide = (decision: WatchDecision) => ({ decision, durationSeconds: row.durationSeconds });
  if (!row.courseId || row.accessRevoked === null || row.accessExpiration === null) {
    return decide('no-course-access');
  }
  if (!isAccessActive({ accessRevoked: row.accessRevoked, accessExpiration: row.accessExpiration }, now)) {
    return decide('no-course-access');
  }
  return decide(row.granted ? 'allowed' : 'no-video-access');
}
