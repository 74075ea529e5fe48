import { and, asc, eq } from 'drizzle-orm';
import type { StudentVideo } from '../../contract/media';
import { mediaMessages } from '../../contract/media';
import type { Db } from '../db/client';
import { enrollments, videoAccess, videos } from '../db/schema';
import { activeEnrollment } from '../courses/access-sql';
import { forbidden } from '../errors';
import { progressOfVideos } from '../progress/progress-queries';
import { courseAccessOf } from './access';
import { presentVideo } from './presenter';

/**
 * The ready videos of a course that the student was granted, in course order. Only with active
 * course access: expired, revoked or no enrollment is 403. Each carries the student's progress.
 */
export async function studentCourseVideos(
  db: Db,
  studentId: string,
  courseId: string,
  now: Date,
  timeZone: string,
): Promise<StudentVideo[]> {
  if (!(await courseAccessOf(db, studentId, courseId, now, timeZone)).canWatch)
    throw forbidden(mediaMessages.noCourseAccess);
  const rows = await db
    .select({
      id: videos.id,
      title: videos.title,
      description: videos.description,
      thumbnail: videos.thumbnail,
      durationSeconds: videos.durationSeconds,
    })
    .from(videos)
    .innerJoin(videoAccess, and(eq(videoAccess.videoId, videos.id), eq(videoAccess.studentId, studentId)))
    // The list itself is filtered by the rule too: a revoke landing between the two queries shows nothing.
    .innerJoin(
      enrollments,
      and(
        eq(enrollments.courseId, videos.courseId),
        eq(enrollments.studentId, studentId),
        activeEnrollment(now),
      ),
    )
    .where(and(eq(videos.courseId, courseId), eq(videos.status, 'ready')))
    .orderBy(asc(videos.position), asc(videos.createdAt), asc(videos.id));
  const progress = await progressOfVideos(
    db,
    studentId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ ...presentVideo(row), progress: progress.get(row.id)! }));
}

/** The roll number for the watermark; a student not enrolled in the course gets 403. */
export async function studentRollno(
  db: Db,
  student: { id: string; rollno: string | null },
  courseId: string,
  now: Date,
  timeZone: string,
): Promise<string> {
  if ((await courseAccessOf(db, student.id, courseId, now, timeZone)).state === 'not-enrolled')
    throw forbidden(mediaMessages.noCourseAccess);
  return student.rollno ?? '';
}
