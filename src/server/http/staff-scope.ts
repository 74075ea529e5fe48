import { eq } from 'drizzle-orm';
import { instructorMessages } from '../../contract/instructors';
import type { Db } from '../db/client';
import { isUuid } from '../db/ids';
import { courses, questions, videos } from '../db/schema';
import { forbidden } from '../errors';
import type { Authenticated } from './session';

/**
 * The one course-scope rule of staff routes whose `instructor` right is 'courses' (route table):
 * an admin reaches every course; an instructor only the courses an admin assigned them
 * (instructor_courses, read with the session). A list keeps their courses' rows; a course, video,
 * caption or question of another course answers 403. A name that names nothing passes, so the
 * handler answers its usual 404.
 */

/** The courses a staff session may reach: null for every course (an admin). */
export function courseScope(session: Pick<Authenticated, 'user' | 'teaches'>): readonly string[] | null {
  return session.user.role === 'instructor' ? (session.teaches ?? []) : null;
}

/** Whether the session may reach `courseId` (no course at all: admins only). */
export function mayReachCourse(
  session: Pick<Authenticated, 'user' | 'teaches'>,
  courseId: string | null | undefined,
): boolean {
  const scope = courseScope(session);
  return scope === null || (!!courseId && scope.includes(courseId));
}

/** 403 unless the session may reach `courseId`. */
export function requireCourseOf(session: Authenticated, courseId: string | null | undefined): void {
  if (!mayReachCourse(session, courseId)) throw forbidden(instructorMessages.otherCourse);
}

/** `requireCourseOf` for a course named in the path: an unknown id passes (the handler's 404). */
export async function requireNamedCourseOf(db: Db, session: Authenticated, courseId: string): Promise<void> {
  if (mayReachCourse(session, courseId) || !isUuid(courseId)) return;
  const [course] = await db.select({ id: courses.id }).from(courses).where(eq(courses.id, courseId)).limit(1);
  if (course) throw forbidden(instructorMessages.otherCourse);
}

/** Keeps the rows of the courses the session may reach. */
export function withinScope<T>(session: Authenticated, rows: T[], courseOf: (row: T) => string | null): T[] {
  const scope = courseScope(session);
  if (scope === null) return rows;
  return rows.filter((row) => {
    const courseId = courseOf(row);
    return courseId !== null && scope.includes(courseId);
  });
}

/**
 * 403 unless the session may reach the video: in one of the instructor's courses, or in no course
 * yet and uploaded by them (an upload between its finalize and its details). An unknown id passes.
 */
export async function requireVideoOf(db: Db, session: Authenticated, videoId: string): Promise<void> {
  if (courseScope(session) === null || !isUuid(videoId)) return;
  const [video] = await db
    .select({ courseId: videos.courseId, createdBy: videos.createdBy })
    .from(videos)
    .where(eq(videos.id, videoId))
    .limit(1);
  if (!video) return;
  if (video.courseId === null && video.createdBy === session.user.id) return;
  requireCourseOf(session, video.courseId);
}

/** 403 unless the session may reach the question's video (an unknown id passes). */
export async function requireQuestionOf(db: Db, session: Authenticated, questionId: string): Promise<void> {
  if (courseScope(session) === null || !isUuid(questionId)) return;
  const [row] = await db
    .select({ courseId: videos.courseId })
    .from(questions)
    .innerJoin(videos, eq(videos.id, questions.videoId))
    .where(eq(questions.id, questionId))
    .limit(1);
  if (row) requireCourseOf(session, row.courseId);
}
