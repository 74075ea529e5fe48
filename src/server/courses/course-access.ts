import { and, eq, inArray, sql } from 'drizzle-orm';
import { courseAccess } from '../../contract/access-policy';
import { adminMessages } from '../../contract/messages';
import { recordAccessEvents, type AccessEvent } from '../audit/events';
import type { Db } from '../db/client';
import { isUuid } from '../db/ids';
import { enrollments } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import { requireStudents } from '../accounts/users';
import { requireCourse } from './course-service';

const DAY_MS = 86_400_000;

export type EnrollmentRow = typeof enrollments.$inferSelect;

export interface GrantInput {
  courseId: string;
  studentIds: string[];
  /** Added to the later of now and the current expiry (SPEC.md section 9). */
  days?: number;
  /** Or the new expiry itself, which must be in the future. */
  expiresAt?: Date;
}

export interface GrantOutcome {
  enrollment: EnrollmentRow;
  action: 'course.enrol' | 'course.grant' | 'course.extend';
}

/**
 * Grants, re-grants or extends course access for each student: enrols those not enrolled, clears
 * a revoke, and audits every change. All students or none.
 */
export async function grantCourseAccess(
  db: Db,
  actorId: string,
  input: GrantInput,
  now: Date,
  timeZone: string,
): Promise<GrantOutcome[]> {
  const course = await requireCourse(db, input.courseId);
  const studentIds = await requireStudents(db, input.studentIds);
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime())
    throw badRequest(adminMessages.expiryPast);
  if (!input.expiresAt && !input.days) throw new Error('grantCourseAccess needs days or expiresAt');

  return db.transaction(async (tx) => {
    const current = await tx
      .select()
      .from(enrollments)
      .where(and(eq(enrollments.courseId, course.id), inArray(enrollments.studentId, studentIds)))
      .for('update');
    const before = new Map(current.map((e) => [e.studentId, e]));
    const planned = studentIds.map((studentId) => {
      const old = before.get(studentId);
      const base = Math.max(now.getTime(), old?.accessExpiration.getTime() ?? 0);
      const expiration = input.expiresAt ?? new Date(base + input.days! * DAY_MS);
      const action: GrantOutcome['action'] = !old
        ? 'course.enrol'
        : courseAccess(old, now, timeZone).canWatch
          ? 'course.extend'
          : 'course.grant';
      return { studentId, old, expiration, action };
    });

    const rows = await tx
      .insert(enrollments)
      .values(
        planned.map((p) => ({
          courseId: course.id,
          studentId: p.studentId,
          accessExpiration: p.expiration,
          accessRevoked: false,
          accessRevokedReason: null,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: [enrollments.courseId, enrollments.studentId],
        set: {
          accessExpiration: sql`excluded.access_expiration`,
          accessRevoked: false,
          accessRevokedReason: null,
          updatedAt: now,
        },
      })
      .returning();

    await recordAccessEvents(
      tx,
      now,
      planned.map((p): AccessEvent => ({
        action: p.action,
        actorId,
        studentId: p.studentId,
        courseId: course.id,
        oldExpiration: p.old?.accessExpiration ?? null,
        newExpiration: p.expiration,
        details: input.days ? { days: input.days } : { explicitExpiry: true },
      })),
    );
    await grantLiveClassLectures(tx, actorId, course.id, studentIds, now);
    const byStudent = new Map(rows.map((r) => [r.studentId, r]));
    return planned.map((p) => ({ enrollment: byStudent.get(p.studentId)!, action: p.action }));
  });
}

/**
 * The lectures of the course's live classes (docs/LIVE.md), granted to students given access after
 * the class was scheduled (those enrolled then got it with the class); each new grant audited as
 * any other. Inside the caller's transaction.
 */
async function grantLiveClassLectures(
  tx: Db,
  actorId: string,
  courseId: string,
  studentIds: string[],
  now: Date,
) {
  if (studentIds.length === 0) return;
  const at = now.toISOString();
  const { rows } = await tx.execute<{ video_id: string; student_id: string; title: string }>(sql`
    with granted as (
      insert into video_access (video_id, student_id, created_at, granted_by)
      select lc.video_id, s.id, ${at}::timestamptz, ${isUuid(actorId) ? actorId : null}::uuid
      from live_classes lc
      join videos v on v.id = lc.video_id and v.course_id = lc.course_id
      cross join unnest(${`{${studentIds.join(',')}}`}::uuid[]) as s(id)
      where lc.course_id = ${courseId}::uuid
      on conflict do nothing
      returning video_id, student_id
    )
    select g.video_id, g.student_id, v.title from granted g join videos v on v.id = g.video_id`);
  await recordAccessEvents(
    tx,
    now,
    rows.map((g): AccessEvent => ({
      action: 'video.grant',
      actorId,
      studentId: g.student_id,
      courseId,
      videoId: g.video_id,
      videoTitle: g.title,
    })),
  );
}

/** Revokes one student's course access with a reason; the expiry is kept. Audited. */
export async function revokeCourseAccess(
  db: Db,
  actorId: string,
  input: { courseId: string; studentId: string; reason: string },
  now: Date,
): Promise<EnrollmentRow> {
  const course = await requireCourse(db, input.courseId);
  const [studentId] = await requireStudents(db, [input.studentId]);
  return db.transaction(async (tx) => {
    const [old] = await tx
      .select()
      .from(enrollments)
      .where(and(eq(enrollments.courseId, course.id), eq(enrollments.studentId, studentId!)))
      .for('update');
    if (!old) throw notFound(adminMessages.notEnrolled);
    if (old.accessRevoked) throw conflict(adminMessages.alreadyRevoked);
    const [row] = await tx
      .update(enrollments)
      .set({ accessRevoked: true, accessRevokedReason: input.reason, updatedAt: now })
      .where(eq(enrollments.id, old.id))
      .returning();
    await recordAccessEvents(tx, now, [
      {
        action: 'course.revoke',
        actorId,
        studentId: studentId!,
        courseId: course.id,
        oldExpiration: old.accessExpiration,
        newExpiration: old.accessExpiration,
        reason: input.reason,
      },
    ]);
    return row!;
  });
}
