import { and, asc, count, eq, exists, ilike, inArray, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { AdminStudent, StudentListQuery, StudentListResponse } from '../../contract/admin-students';
import { requireCourse } from '../courses/course-service';
import type { Db } from '../db/client';
import { courses, enrollments, users } from '../db/schema';
import { presentAdminStudent, type StudentRow } from './presenter';

/** `%text%` for ILIKE, with the user's own % and _ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Students matching the search and course filter (or enrolled in none), a page at a time, each with their courses. Three queries. */
export async function listStudents(
  db: Db,
  query: StudentListQuery,
  now: Date,
  timeZone: string,
  /** The courses the caller may see (an instructor's): their students only, with those enrolments alone. */
  scope: readonly string[] | null = null,
): Promise<StudentListResponse> {
  const conditions: (SQL | undefined)[] = [eq(users.role, 'student')];
  if (scope !== null) {
    conditions.push(
      exists(
        db
          .select({ one: enrollments.id })
          .from(enrollments)
          .where(
            and(
              eq(enrollments.studentId, users.id),
              scope.length ? inArray(enrollments.courseId, [...scope]) : sql`false`,
            ),
          ),
      ),
    );
  }
  if (query.q) {
    const pattern = containing(query.q);
    conditions.push(
      or(
        ilike(users.rollno, pattern),
        ilike(users.name, pattern),
        ilike(users.email, pattern),
        ilike(users.username, pattern),
      ),
    );
  }
  if (query.courseId) {
    const course = await requireCourse(db, query.courseId);
    conditions.push(
      exists(
        db
          .select({ one: enrollments.id })
          .from(enrollments)
          .where(and(eq(enrollments.studentId, users.id), eq(enrollments.courseId, course.id))),
      ),
    );
  }
  if (query.unassigned) {
    const anyEnrollment = db
      .select({ one: enrollments.id })
      .from(enrollments)
      .where(eq(enrollments.studentId, users.id));
    conditions.push(notExists(anyEnrollment));
  }
  const where = and(...conditions);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(users.rollno), asc(users.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return {
    students: await withCourses(db, rows, now, timeZone, scope),
    total: counted?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** Presents students with their enrollments, fetched for all of them at once. */
export async function withCourses(
  db: Db,
  students: StudentRow[],
  now: Date,
  timeZone: string,
  scope: readonly string[] | null = null,
): Promise<AdminStudent[]> {
  if (students.length === 0) return [];
  const ids = students.map((s) => s.id);
  const access = await db
    .select({ enrollment: enrollments, course: { id: courses.id, name: courses.name, batch: courses.batch } })
    .from(enrollments)
    .innerJoin(courses, eq(courses.id, enrollments.courseId))
    .where(inArray(enrollments.studentId, ids))
    .orderBy(asc(courses.name), asc(courses.batch));
  return students.map((student) =>
    presentAdminStudent(
      student,
      access.filter(
        (a) => a.enrollment.studentId === student.id && (scope === null || scope.includes(a.course.id)),
      ),
      now,
      timeZone,
    ),
  );
}
