import { courseAccess, enrollmentOf } from '../../contract/access-policy';
import type { StudentCourse } from '../../contract/courses';

/**
 * SPEC.md section 4 by the one rule (src/contract/access-policy.ts). The server's verdict at load
 * time (`access`) wins; the rule covers the time since the list was loaded.
 */
export function isCourseActive(course: StudentCourse, timeZone: string, now = Date.now()): boolean {
  if (course.access !== 'active') return false;
  return courseAccess(enrollmentOf(course), now, timeZone).canWatch;
}

/** Where clicking an active course leads: its player, at the next unfinished video when there is one. */
export function courseLink(course: StudentCourse): string {
  const next = course.progress?.nextVideoId;
  return next ? `/course/${course.courseId}?video=${next}` : `/course/${course.courseId}`;
}
