import { and, eq, notExists, sql } from 'drizzle-orm';
import { recordAccessEvents } from '../audit/events';
import type { Db } from '../db/client';
import { enrollments, videoAccess, type Role } from '../db/schema';

/**
 * Grants `studentIds` the video inside the caller's transaction; students who have it already are
 * left alone. Each new grant is audited. Returns the ids newly granted.
 */
export async function insertVideoGrants(
  tx: Db,
  grant: {
    videoId: string;
    videoTitle: string;
    courseId: string;
    studentIds: string[];
    actorId: string;
    now: Date;
  },
): Promise<string[]> {
  if (grant.studentIds.length === 0) return [];
  const granted = await tx
    .insert(videoAccess)
    .values(
      grant.studentIds.map((studentId) => ({
        videoId: grant.videoId,
        studentId,
        grantedAt: grant.now,
        grantedBy: grant.actorId,
      })),
    )
    .onConflictDoNothing()
    .returning({ studentId: videoAccess.studentId });
  await recordAccessEvents(
    tx,
    grant.now,
    granted.map((g) => ({
      action: 'video.grant' as const,
      actorId: grant.actorId,
      studentId: g.studentId,
      courseId: grant.courseId,
      videoId: grant.videoId,
      videoTitle: grant.videoTitle,
    })),
  );
  return granted.map((g) => g.studentId);
}

/** Who edits a video: their id for the audit log, their role for what the edit may take away. */
export interface VideoActor {
  id: string;
  role: Role;
}

/**
 * Whether a move by `actor` drops the grants of students outside the new course: taking a video
 * from students is a revoke, the admins' (an instructor's move keeps every grant).
 */
export const moveDropsGrants = (actor: VideoActor) => actor.role === 'admin';

/**
 * When a video moves to `courseId` (null: out of every course), drops the grants of students not
 * enrolled there, each audited, inside the caller's transaction: a grant given in the old course
 * must not follow the video into a course its holder never joined. Returns how many were dropped.
 */
export async function dropGrantsOutside(
  tx: Db,
  move: {
    video: { id: string; title: string; courseId: string | null };
    courseId: string | null;
    actorId: string;
    now: Date;
  },
): Promise<number> {
  const { video, courseId } = move;
  const enrolled = (id: string) =>
    tx
      .select({ one: sql`1` })
      .from(enrollments)
      .where(and(eq(enrollments.studentId, videoAccess.studentId), eq(enrollments.courseId, id)));
  const dropped = await tx
    .delete(videoAccess)
    .where(and(eq(videoAccess.videoId, video.id), courseId ? notExists(enrolled(courseId)) : undefined))
    .returning({ studentId: videoAccess.studentId });
  const reason = courseId ? 'Video moved to another course' : 'Video taken out of its course';
  await recordAccessEvents(tx, move.now, videoRevokeEvents(video, move.actorId, dropped, reason));
  return dropped.length;
}

/** The audit lines of taking a video away from students (a revoke, or the video's deletion). */
export function videoRevokeEvents(
  video: { id: string; title: string; courseId: string | null },
  actorId: string,
  studentIds: { studentId: string }[],
  reason?: string,
) {
  return studentIds.map(({ studentId }) => ({
    action: 'video.revoke' as const,
    actorId,
    studentId,
    courseId: video.courseId,
    videoId: video.id,
    videoTitle: video.title,
    reason,
  }));
}
