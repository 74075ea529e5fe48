import type {
  AccessHistoryResponse,
  AddStudentBody,
  AdminStudent,
  EnrolStudentsBody,
} from '../../contract/admin-students';
import { adminMessages } from '../../contract/messages';
import { initialPasswordMail } from '../accounts/mails';
import type { SessionStore } from '../accounts/sessions';
import { commitStudentImport } from '../accounts/student-import';
import {
  createStudent,
  regenerateInitialPassword,
  requireStudent,
  type CreatedUser,
} from '../accounts/users';
import { accessHistoryOf } from '../audit/events';
import { presentAccessEvent } from '../audit/presenter';
import type { AppContext } from '../context';
import { grantCourseAccess } from '../courses/course-access';
import type { Db } from '../db/client';
import { unavailable } from '../errors';
import { withCourses } from './student-list';

const MAIL_CONCURRENCY = 4;

/** Mails each generated initial password; returns the addresses that could not be reached. */
async function mailInitialPasswords(ctx: AppContext, created: CreatedUser[]): Promise<string[]> {
  const queue = created.filter((c) => c.generatedPassword);
  const failed: string[] = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      try {
        await ctx.mailer.send(initialPasswordMail(ctx.config.productName, next, next.generatedPassword!));
      } catch (error) {
        ctx.logger.warn({ err: error, to: next.email }, 'initial password mail failed');
        failed.push(next.email);
      }
    }
  };
  await Promise.all(Array.from({ length: MAIL_CONCURRENCY }, worker));
  return failed;
}

/** Creates a student with a generated initial password and mails it to them. */
export async function addStudent(
  ctx: AppContext,
  input: AddStudentBody,
): Promise<{ student: AdminStudent; mailed: boolean }> {
  const created = await createStudent(ctx.db, input);
  const failed = await mailInitialPasswords(ctx, [created]);
  const [student] = await withCourses(
    ctx.db,
    [await requireStudent(ctx.db, created.id)],
    ctx.clock.now(),
    ctx.config.openTimeZone,
  );
  return { student: student!, mailed: failed.length === 0 };
}

/** Imports every row of the CSV or none (400 naming the bad lines), then mails the generated passwords. */
export async function importStudents(ctx: AppContext, csv: string) {
  const created = await commitStudentImport(ctx.db, csv);
  const mailFailures = await mailInitialPasswords(ctx, created);
  return {
    imported: created.length,
    students: created.map((c) => ({
      _id: c.id,
      rollno: c.rollno ?? '',
      name: c.name,
      email: c.email,
      username: c.username,
    })),
    mailFailures,
  };
}

/** Grants (or extends) a course for N days to each selected student; counts what happened. */
export async function enrolStudents(
  db: Db,
  actorId: string,
  input: EnrolStudentsBody,
  now: Date,
  timeZone: string,
) {
  const outcomes = await grantCourseAccess(
    db,
    actorId,
    { courseId: input.courseId, studentIds: input.studentIds, days: input.days },
    now,
    timeZone,
  );
  const tally = (action: string) => outcomes.filter((o) => o.action === action).length;
  return {
    enrolled: tally('course.enrol'),
    granted: tally('course.grant'),
    extended: tally('course.extend'),
  };
}

/**
 * Gives the student a new initial password by e-mail and ends their sessions: an admin re-sends
 * it when the first mail was lost, or when the account may be in the wrong hands.
 */
export async function resendInitialPassword(
  ctx: AppContext,
  sessions: SessionStore,
  studentId: string,
): Promise<void> {
  const student = await requireStudent(ctx.db, studentId);
  const password = await regenerateInitialPassword(ctx.db, student.id);
  await sessions.endAllOf(student.id);
  try {
    await ctx.mailer.send(initialPasswordMail(ctx.config.productName, student, password));
  } catch (error) {
    ctx.logger.warn({ err: error, to: student.email }, 'initial password mail failed');
    throw unavailable(adminMessages.passwordResendFailed);
  }
}

/** The student's access changes, newest first. */
export async function accessHistory(db: Db, studentId: string): Promise<AccessHistoryResponse> {
  const student = await requireStudent(db, studentId);
  const rows = await accessHistoryOf(db, student.id);
  return {
    student: { _id: student.id, rollno: student.rollno ?? '', name: student.name, email: student.email },
    events: rows.map(presentAccessEvent),
  };
}
