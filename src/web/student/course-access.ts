import type { StudentCourse } from '../../contract/courses';

/**
 * SPEC.md section 4: active while not revoked and the expiry is not before now. The server's
 * verdict (`access`) wins; the client rule covers the time since the list was loaded.
 */
export function isCourseActive(course: StudentCourse, now = new Date()): boolean {
  if (course.access && course.access !== 'active') return false;
  if (course.accessrevoked) return false;
  return new Date(course.accessexpiration).getTime() >= now.getTime();
}

/** Where clicking an active course leads: its player, at the next unfinished video when there is one. */
export function courseLink(course: StudentCourse): string {
  const next = course.progress?.nextVideoId;
  return next ? `/course/${course.courseId}?video=${next}` : `/course/${course.courseId}`;
}
