import type { AdminStudent } from '../../contract/admin-students';
import { apiAccessState, courseAccess } from '../../contract/access-policy';
import type { enrollments, users } from '../db/schema';

export type StudentRow = typeof users.$inferSelect;

interface CourseAccessRow {
  enrollment: typeof enrollments.$inferSelect;
  course: { id: string; name: string; batch: number };
}

/** A student as the back office lists them; never the password hash. */
export function presentAdminStudent(
  student: StudentRow,
  access: CourseAccessRow[],
  now: Date,
  timeZone: string,
): AdminStudent {
  return {
    _id: student.id,
    rollno: student.rollno ?? '',
    name: student.name,
    email: student.email,
    username: student.username,
    firstlogin: student.firstLogin,
    lastSignInAt: student.lastSignInAt?.toISOString() ?? null,
    createdAt: student.createdAt.toISOString(),
    courses: access.map(({ enrollment, course }) => ({
      courseId: course.id,
      name: course.name,
      batch: course.batch,
      accessexpiration: enrollment.accessExpiration.toISOString(),
      accessrevoked: enrollment.accessRevoked,
      accessrevokedreason: enrollment.accessRevokedReason,
      access: apiAccessState(courseAccess(enrollment, now, timeZone)),
    })),
  };
}
