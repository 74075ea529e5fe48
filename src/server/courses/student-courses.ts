import { asc, desc, eq } from 'drizzle-orm';
import type { StudentCourse } from '../../contract/courses';
import type { Db } from '../db/client';
import { courses, enrollments } from '../db/schema';
import { progressOfCourses } from '../progress/progress-queries';
import { presentStudentCourse } from './presenter';

/** Every course the student is enrolled in, expired and revoked ones included (the dashboard dims them). */
export async function studentCourses(
  db: Db,
  studentId: string,
  now: Date,
  timeZone: string,
): Promise<StudentCourse[]> {
  const rows = await db
    .select({ course: courses, enrollment: enrollments })
    .from(enrollments)
    .innerJoin(courses, eq(courses.id, enrollments.courseId))
    .where(eq(enrollments.studentId, studentId))
    .orderBy(desc(courses.startDate), asc(courses.name));
  const progress = await progressOfCourses(
    db,
    studentId,
    rows.map((r) => r.course.id),
  );
  return rows.map((r) =>
    presentStudentCourse(r.course, r.enrollment, now, timeZone, progress.get(r.course.id)!),
  );
}
