import { and, asc, eq, inArray } from 'drizzle-orm';
import { instructorMessages, type InstructorEntry, type NewInstructor } from '../../contract/instructors';
import { recordSecurityEvent } from '../audit/security-events';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { isUuid } from '../db/ids';
import { courses, instructorCourses, users } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { mailStaffSetupLink } from './staff-setup';
import { findUserByLogin, insertUser, type CreatedUser } from './users';

/**
 * Instructors: staff scoped to the courses an admin assigns (docs/SECURITY.md "Instructors").
 * Admins create, assign and remove them from the admin screen or the command line; each change is
 * an audit row (`instructor.created`, `instructor.assigned`, `instructor.removed`) naming who did it.
 */

/** Who made the change: an admin's id, or the command line. */
export type InstructorActor = { adminId: string } | 'cli';

const by = (actor: InstructorActor) => (actor === 'cli' ? 'cli' : actor.adminId);

/** 400 unless every id names a course. */
async function requireCourses(db: Db, courseIds: readonly string[]): Promise<void> {
  if (courseIds.length === 0) return;
  if (!courseIds.every(isUuid)) throw badRequest(instructorMessages.unknownCourse);
  const found = await db
    .select({ id: courses.id })
    .from(courses)
    .where(inArray(courses.id, [...courseIds]));
  if (found.length !== new Set(courseIds).size) throw badRequest(instructorMessages.unknownCourse);
}

/** The instructor's row, or a 404 (a student or an admin is no instructor). */
async function requireInstructor(db: Db, userId: string) {
  const [row] = isUuid(userId)
    ? await db
        .select()
        .from(users)
        .where(and(eq(users.id, userId), eq(users.role, 'instructor')))
        .limit(1)
    : [];
  if (!row) throw notFound(instructorMessages.notFound);
  return row;
}

/** Replaces the instructor's courses (in one transaction). */
async function setCourses(db: Db, userId: string, courseIds: readonly string[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(instructorCourses).where(eq(instructorCourses.userId, userId));
    if (courseIds.length)
      await tx.insert(instructorCourses).values(courseIds.map((courseId) => ({ userId, courseId })));
  });
}

/** Every instructor with their courses, by username. */
export async function listInstructors(db: Db, only?: string): Promise<InstructorEntry[]> {
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.role, 'instructor'), only ? eq(users.id, only) : undefined))
    .orderBy(asc(users.username));
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const taught = await db
    .select({
      userId: instructorCourses.userId,
      course: { _id: courses.id, name: courses.name, coursecode: courses.courseCode },
    })
    .from(instructorCourses)
    .innerJoin(courses, eq(courses.id, instructorCourses.courseId))
    .where(inArray(instructorCourses.userId, ids))
    .orderBy(asc(courses.name), asc(courses.batch));
  return rows.map((row) => ({
    _id: row.id,
    username: row.username,
    email: row.email,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    courses: taught.filter((t) => t.userId === row.id).map((t) => t.course),
  }));
}

async function entryOf(db: Db, userId: string): Promise<InstructorEntry> {
  const [entry] = await listInstructors(db, userId);
  if (!entry) throw notFound(instructorMessages.notFound);
  return entry;
}

/**
 * Creates an instructor teaching `courseIds`, waiting for them to set the account up (a password,
 * the second factor) through a one-time link mailed to them: no one else ever knows the password,
 * and no one else can set up a factor for the account. `mailed`: whether the link went out.
 */
export async function createInstructor(
  ctx: AppContext,
  input: NewInstructor,
  actor: InstructorActor,
): Promise<{ instructor: InstructorEntry; created: CreatedUser; mailed: boolean }> {
  await requireCourses(ctx.db, input.courseIds);
  const { username, email } = input;
  // A random password no one is shown: the account opens only through the link.
  const created = await insertUser(
    ctx.db,
    { role: 'instructor', username, email, name: input.name ?? username, firstLogin: true },
    undefined,
  );
  await setCourses(ctx.db, created.id, input.courseIds);
  await recordSecurityEvent(ctx, ctx.clock.now(), {
    action: 'instructor.created',
    userId: created.id,
    details: { by: by(actor), courseIds: input.courseIds },
  });
  const mailed = await mailStaffSetupLink(ctx, created);
  return { instructor: await entryOf(ctx.db, created.id), created, mailed };
}

/** Replaces the courses an instructor teaches (an empty list: none). */
export async function assignInstructor(
  ctx: AppContext,
  userId: string,
  courseIds: readonly string[],
  actor: InstructorActor,
): Promise<InstructorEntry> {
  await requireInstructor(ctx.db, userId);
  await requireCourses(ctx.db, courseIds);
  await setCourses(ctx.db, userId, courseIds);
  await recordSecurityEvent(ctx, ctx.clock.now(), {
    action: 'instructor.assigned',
    userId,
    details: { by: by(actor), courseIds },
  });
  return entryOf(ctx.db, userId);
}

/** Deletes an instructor's account: their sessions, factors and course assignments go with it. */
export async function removeInstructor(
  ctx: AppContext,
  userId: string,
  actor: InstructorActor,
): Promise<string> {
  const row = await requireInstructor(ctx.db, userId);
  // Recorded first (the row names the account); the username stays in the details once it is gone.
  await recordSecurityEvent(ctx, ctx.clock.now(), {
    action: 'instructor.removed',
    userId,
    details: { by: by(actor), username: row.username },
  });
  await ctx.db.delete(users).where(eq(users.id, userId));
  return row.username;
}

/** The instructor named by username or e-mail (the command line's --username), or a 404. */
export async function instructorByLogin(db: Db, login: string) {
  const user = await findUserByLogin(db, login);
  if (!user || user.role !== 'instructor') throw notFound(`No instructor is named ${login}.`);
  return user;
}
