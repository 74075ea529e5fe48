import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { adminMessages } from '../../contract/messages';
import type { DropdownStudent } from '../../contract/videos';
import { recordAccessEvents } from '../audit/events';
import { requireStudents } from '../accounts/users';
import { requireCourse } from '../courses/course-service';
import type { Db } from '../db/client';
import { enrollments, users, videoAccess } from '../db/schema';
import { badRequest } from '../errors';
import { requireVideo } from './admin-service';
import { insertVideoGrants, videoRevokeEvents } from './video-grants';

/** Who gives or takes a video to or from which students, and when. */
export interface VideoAccessChange {
  actorId: string;
  videoId: string;
  studentIds: string[];
  now: Date;
}

/**
 * Grants a video to students enrolled in its course; those who have it already are left alone.
 * Returns how many were newly granted, each audited.
 */
export async function grantVideoAccess(db: Db, { actorId, videoId, studentIds, now }: VideoAccessChange) {
  const video = await requireVideo(db, videoId);
  if (!video.courseId) throw badRequest(adminMessages.unassignedVideo);
  const ids = await requireStudents(db, studentIds);
  const enrolled = await db
    .select({ studentId: enrollments.studentId })
    .from(enrollments)
    .where(and(eq(enrollments.courseId, video.courseId), inArray(enrollments.studentId, ids)));
  if (enrolled.length !== ids.length) throw badRequest(adminMessages.notInVideoCourse);

  const courseId = video.courseId;
  const granted = await db.transaction((tx) =>
    insertVideoGrants(tx, {
      videoId: video.id,
      videoTitle: video.title,
      courseId,
      studentIds: ids,
      actorId,
      now,
    }),
  );
  return granted.length;
}

/** Takes a video away from students; those without it are left alone. Returns how many lost it, each audited. */
export async function revokeVideoAccess(db: Db, { actorId, videoId, studentIds, now }: VideoAccessChange) {
  const video = await requireVideo(db, videoId);
  const ids = await requireStudents(db, studentIds);
  return db.transaction(async (tx) => {
    const revoked = await tx
      .delete(videoAccess)
      .where(and(eq(videoAccess.videoId, video.id), inArray(videoAccess.studentId, ids)))
      .returning({ studentId: videoAccess.studentId });
    await recordAccessEvents(tx, now, videoRevokeEvents(video, actorId, revoked));
    return revoked.length;
  });
}

/** The course's enrolled students split by whether they may watch the video. One query. */
export async function studentsByVideoAccess(db: Db, videoId: string, courseId: string) {
  const video = await requireVideo(db, videoId);
  const course = await requireCourse(db, courseId);
  if (video.courseId !== course.id) throw badRequest(adminMessages.videoNotInCourse);
  const rows = await db
    .select({
      _id: users.id,
      rollno: users.rollno,
      name: users.name,
      email: users.email,
      granted: sql<boolean>`${videoAccess.videoId} is not null`,
    })
    .from(enrollments)
    .innerJoin(users, eq(users.id, enrollments.studentId))
    .leftJoin(videoAccess, and(eq(videoAccess.videoId, video.id), eq(videoAccess.studentId, users.id)))
    .where(eq(enrollments.courseId, course.id))
    .orderBy(asc(users.rollno));
  const present = (r: (typeof rows)[number]): DropdownStudent => ({
    _id: r._id,
    rollno: r.rollno ?? '',
    name: r.name,
    email: r.email,
  });
  return {
    studentsWithAccess: rows.filter((r) => r.granted).map(present),
    studentsWithoutAccess: rows.filter((r) => !r.granted).map(present),
  };
}
