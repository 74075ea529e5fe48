import type { AdminCourse, CourseAccessResult, StudentCourse } from '../../contract/courses';
import type { CourseProgress } from '../../contract/progress';
import type { courses, enrollments } from '../db/schema';
import { thumbnailUrl } from '../thumbnails/store';
import { isAccessActive } from '../videos/access';

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

/** SPEC.md section 4's three states of an enrollment. */
export function accessState(
  enrollment: Pick<EnrollmentRow, 'accessRevoked' | 'accessExpiration'>,
  now: Date,
) {
  if (enrollment.accessRevoked) return 'revoked' as const;
  return isAccessActive(enrollment, now) ? ('active' as const) : ('expired' as const);
}

/** An enrolled course as the student's dashboard shows it, including expired and revoked ones. */
export function presentStudentCourse(
  course: CourseRow,
  enrollment: EnrollmentRow,
  now: Date,
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
    access: accessState(enrollment, now),
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
