import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { CourseCreateBody, CourseUpdateBody, AdminCourse } from '../../contract/courses';
import { adminMessages } from '../../contract/messages';
import type { DropdownStudent } from '../../contract/videos';
import { onUniqueViolation } from '../db/unique-violation';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { courses, enrollments, users } from '../db/schema';
import { conflict, notFound } from '../errors';
import { oneById } from '../db/ids';
import { presentAdminCourse } from './presenter';
import { resolveThumbnail } from '../thumbnails/thumbnail-input';

export type CourseRow = typeof courses.$inferSelect;

/** The course, or a 404. */
export function requireCourse(db: Db, courseId: string): Promise<CourseRow> {
  return oneById(courseId, adminMessages.courseNotFound, () =>
    db.select().from(courses).where(eq(courses.id, courseId)).limit(1),
  );
}

// Correlated counts ride the (course_id, …) indexes: a couple of index-only scans per course, no grouping of
// whole tables. Spelled out: drizzle leaves columns unqualified in a one-table select list, and an unqualified
// "id" inside the subquery would be the subquery's own.
const totals = {
  totalvideos: sql<number>`(select count(*) from videos v where v.course_id = courses.id)::int`,
  totalstudents: sql<number>`(select count(*) from enrollments e where e.course_id = courses.id)::int`,
};

/** Every course with its video and student totals, newest start first. One query. */
export async function listAdminCourses(db: Db): Promise<AdminCourse[]> {
  const rows = await db
    .select({ course: courses, ...totals })
    .from(courses)
    .orderBy(desc(courses.startDate), asc(courses.name), asc(courses.batch));
  return rows.map((r) => presentAdminCourse(r.course, r));
}

async function adminCourseById(db: Db, courseId: string): Promise<AdminCourse> {
  const [row] = await db
    .select({ course: courses, ...totals })
    .from(courses)
    .where(eq(courses.id, courseId));
  if (!row) throw notFound(adminMessages.courseNotFound);
  return presentAdminCourse(row.course, row);
}

async function refuseTakenCode(db: Db, batch: number, code: string, exceptId?: string): Promise<void> {
  const [taken] = await db
    .select({ id: courses.id })
    .from(courses)
    .where(
      and(
        eq(courses.batch, batch),
        eq(sql`lower(${courses.courseCode})`, code.toLowerCase()),
        exceptId ? ne(courses.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw conflict(adminMessages.courseCodeTaken);
}

/** A concurrent writer may take the code between the check and the write; the unique index decides. */
const uniqueCode = <T>(write: () => Promise<T>) =>
  onUniqueViolation(write, () => conflict(adminMessages.courseCodeTaken));

export async function createCourse(ctx: AppContext, input: CourseCreateBody): Promise<AdminCourse> {
  await refuseTakenCode(ctx.db, input.batch, input.coursecode);
  const thumbnail = await resolveThumbnail(ctx.media, input.thumbnail, null);
  const now = ctx.clock.now();
  const [course] = await uniqueCode(() =>
    ctx.db
      .insert(courses)
      .values({
        batch: input.batch,
        courseCode: input.coursecode,
        name: input.name,
        description: input.description,
        thumbnail,
        startDate: input.startdate,
        endDate: input.enddate,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  return presentAdminCourse(course!, { totalvideos: 0, totalstudents: 0 });
}

export async function updateCourse(ctx: AppContext, input: CourseUpdateBody): Promise<AdminCourse> {
  const course = await requireCourse(ctx.db, input.courseId);
  await refuseTakenCode(ctx.db, input.batch, input.courseCode, course.id);
  const thumbnail = await resolveThumbnail(ctx.media, input.thumbnail, course.thumbnail);
  await uniqueCode(() =>
    ctx.db
      .update(courses)
      .set({
        batch: input.batch,
        courseCode: input.courseCode,
        name: input.name,
        description: input.description,
        thumbnail,
        startDate: input.startDate,
        endDate: input.endDate,
        updatedAt: ctx.clock.now(),
      })
      .where(eq(courses.id, course.id)),
  );
  return adminCourseById(ctx.db, course.id);
}

/** The students enrolled in a course (any access state), by roll number. */
export async function enrolledStudents(db: Db, courseId: string): Promise<DropdownStudent[]> {
  const course = await requireCourse(db, courseId);
  const rows = await db
    .select({ _id: users.id, rollno: users.rollno, name: users.name, email: users.email })
    .from(enrollments)
    .innerJoin(users, eq(users.id, enrollments.studentId))
    .where(eq(enrollments.courseId, course.id))
    .orderBy(asc(users.rollno));
  return rows.map((r) => ({ ...r, rollno: r.rollno ?? '' }));
}
