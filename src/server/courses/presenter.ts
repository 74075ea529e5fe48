import type { AdminCourse, CourseAccessResult, StudentCourse } from '../../contract/courses';
import type { CourseProgress } from '../../contract/progress';
import type { courses, enrollments } from '../db/schema';
import { thumbnailUrl } from '../thumbnails/store';
import { apiAccessState, courseAccess } from '../../contract/access-policy';

type CourseRow = typeof courses.$inferSelect;
type EnrollmentRow = Pick<
  typeof enrollments.$inferSelect,
  'courseId' | 'studentId' | 'accessExpiration' | 'accessRevoked' | 'accessRevokedReason'
>;

/** A course with its totals as admins see it (SPEC.md section 3). */
export function presentAdminCourse(
  course: CourseRow,
  totals: { totalvideos: number; totalstudents: number },
): AdminCourse {
  return {
    _id: course.id,
    batch: course.batch,
    coursecode: course.courseCode,
    name: course.name,
    description: course.description,
    thumbnail: course.thumbnail ? thumbnailUrl(course.thumbnail) : null,
    startdate: course.startDate,
    enddate: course.endDate,
    totalvideos: totals.totalvideos,
    totalstudents: totals.totalstudents,
  };
}

/** An enrolled course as the student's dashboard shows it, including expired and revoked ones. */
export function presentStudentCourse(
  course: CourseRow,
  enrollment: EnrollmentRow,
  now: Date,
  timeZone: string,
  progress: CourseProgress,
): StudentCourse {
  return {
    courseId: course.id,
    name: course.name,
    description: course.description,
    thumbnail: course.thumbnail ? thumbnailUrl(course.thumbnail) : null,
    batch: course.batch,
    startdate: course.startDate,
    enddate: course.endDate,
    accessexpiration: enrollment.accessExpiration.toISOString(),
    accessrevoked: enrollment.accessRevoked,
    accessrevokedreason: enrollment.accessRevokedReason,
    access: apiAccessState(courseAccess(enrollment, now, timeZone)),
    progress,
  };
}

export function presentCourseAccess(enrollment: EnrollmentRow): CourseAccessResult {
  return {
    courseId: enrollment.courseId,
    studentid: enrollment.studentId,
    accessexpiration: enrollment.accessExpiration.toISOString(),
    accessrevoked: enrollment.accessRevoked,
    accessrevokedreason: enrollment.accessRevokedReason,
  };
}
