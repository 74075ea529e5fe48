import { and, asc, eq, exists, inArray, isNull, lte, ne, or } from 'drizzle-orm';
import { formatMoment } from '../../contract/learning';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { courses, instructorCourses, questions, users, videos } from '../db/schema';
import { enqueueJob } from '../jobs/queue';
import { RetryLaterError, type JobHandler } from '../jobs/types';
import type { Mail } from '../mail/mailer';
import './job-types';

/** A digest lists at most this many questions; the rest are counted ("and 12 more"). */
export const DIGEST_MAX_LISTED = 50;

export interface StaffMember {
  id: string;
  email: string;
  name: string;
}

/**
 * The staff of a course: who answers its questions and gets its digest. Every admin, and the
 * instructors an admin assigned to the course (a video in no course: the admins alone).
 */
export async function staffOfCourse(db: Db, courseId: string | null): Promise<StaffMember[]> {
  const teaches = courseId
    ? exists(
        db
          .select({ one: instructorCourses.userId })
          .from(instructorCourses)
          .where(and(eq(instructorCourses.userId, users.id), eq(instructorCourses.courseId, courseId))),
      )
    : undefined;
  return db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(or(eq(users.role, 'admin'), teaches && and(eq(users.role, 'instructor'), teaches)))
    .orderBy(asc(users.username));
}

interface DigestQuestion {
  id: string;
  t: number;
  title: string;
  createdAt: Date;
  videoTitle: string;
  courseId: string | null;
  courseName: string | null;
}

/** One staff member's digest: the new questions of their courses, by course and lecture. */
export function digestMail(
  productName: string,
  publicUrl: string,
  to: StaffMember,
  list: DigestQuestion[],
): Mail {
  const n = list.length;
  const lines = [
    `Hello ${to.name || 'there'},`,
    '',
    `${n} new ${n === 1 ? 'question was' : 'questions were'} asked:`,
  ];
  let course: string | undefined;
  for (const q of list.slice(0, DIGEST_MAX_LISTED)) {
    const name = q.courseName ?? 'No course';
    if (name !== course) lines.push('', name);
    course = name;
    lines.push(`- "${q.title}" at ${formatMoment(q.t)} of "${q.videoTitle}"`);
  }
  if (n > DIGEST_MAX_LISTED) lines.push('', `and ${n - DIGEST_MAX_LISTED} more.`);
  lines.push('', `Answer them in the Questions queue: ${publicUrl}/adminquestions`);
  return {
    to: to.email,
    subject: `${productName}: ${n} new ${n === 1 ? 'question' : 'questions'}`,
    text: lines.join('\n'),
  };
}

/** The questions among `ids` a digest names (hidden ones left out), by course, lecture and moment. */
function digestQuestions(db: Db, ids: string[]): Promise<DigestQuestion[]> {
  return db
    .select({
      id: questions.id,
      t: questions.t,
      title: questions.title,
      createdAt: questions.createdAt,
      videoTitle: videos.title,
      courseId: videos.courseId,
      courseName: courses.name,
    })
    .from(questions)
    .innerJoin(videos, eq(videos.id, questions.videoId))
    .leftJoin(courses, eq(courses.id, videos.courseId))
    .where(and(inArray(questions.id, ids), ne(questions.status, 'hidden')))
    .orderBy(asc(courses.name), asc(videos.position), asc(questions.t), asc(questions.createdAt));
}

/** Each staff member's share of `list`: the questions of the courses they are staff of now. */
async function digestsByStaff(db: Db, list: DigestQuestion[]) {
  const perStaff = new Map<string, { who: StaffMember; list: DigestQuestion[] }>();
  const staffCache = new Map<string | null, StaffMember[]>();
  for (const q of list) {
    let staff = staffCache.get(q.courseId);
    if (!staff) staffCache.set(q.courseId, (staff = await staffOfCourse(db, q.courseId)));
    for (const who of staff) {
      const entry = perStaff.get(who.id) ?? { who, list: [] };
      entry.list.push(q);
      perStaff.set(who.id, entry);
    }
  }
  return perStaff;
}

/**
 * Mails each staff member one digest of the questions asked since the last digest, in their courses;
 * nothing when there are none. A question is claimed (digested_at) before any mail goes, in one
 * statement, so two runs never both mail it; when no mail at all could be handed over, the claim is
 * given back and the job retried later. A mail refused while others went out is owed to its staff
 * member alone: job `learning.digest-resend` sends it again. Answers how many questions it named.
 */
export async function sendDigest(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  const claimed = await ctx.db
    .update(questions)
    .set({ digestedAt: now })
    .where(and(isNull(questions.digestedAt), lte(questions.createdAt, now)))
    .returning({ id: questions.id });
  if (!claimed.length) return 0;
  const ids = claimed.map((c) => c.id);
  // Hidden ones (staff already saw to them) are claimed but not listed.
  const list = await digestQuestions(ctx.db, ids);
  const perStaff = await digestsByStaff(ctx.db, list);
  const refused: { staffId: string; questionIds: string[] }[] = [];
  let lastError: unknown;
  for (const { who, list: theirs } of perStaff.values()) {
    try {
      await ctx.mailer.send(digestMail(ctx.config.productName, ctx.config.publicUrl, who, theirs));
    } catch (error) {
      lastError = error;
      refused.push({ staffId: who.id, questionIds: theirs.map((q) => q.id) });
      ctx.logger.warn({ err: error, staffId: who.id }, 'question digest mail failed');
    }
  }
  if (perStaff.size > 0 && refused.length === perStaff.size) {
    await ctx.db.update(questions).set({ digestedAt: null }).where(inArray(questions.id, ids));
    throw new RetryLaterError(`no digest mail could be handed over: ${String(lastError)}`);
  }
  for (const owed of refused) await enqueueJob(ctx.db, 'learning.digest-resend', owed);
  return list.length;
}

/**
 * Job `learning.digest-resend`: one staff member's digest that was refused while the others went
 * out, with the questions still listed and still of their courses; a failure is retried (3 attempts).
 */
export function digestResendHandler(ctx: AppContext): JobHandler<'learning.digest-resend'> {
  return async ({ staffId, questionIds }, { log }) => {
    const owed = (await digestsByStaff(ctx.db, await digestQuestions(ctx.db, questionIds))).get(staffId);
    // Hidden since, or no longer their course: nothing is owed.
    if (!owed) return;
    await ctx.mailer.send(digestMail(ctx.config.productName, ctx.config.publicUrl, owed.who, owed.list));
    log.info({ staffId, questions: owed.list.length }, 'refused question digest mailed');
  };
}

/** Job `learning.digest` (hourly, registry.ts): the staff's digest of new questions. */
export function digestHandler(ctx: AppContext): JobHandler<'learning.digest'> {
  return async (_payload, { log }) => {
    const named = await sendDigest(ctx);
    if (named) log.info({ questions: named }, 'question digest mailed');
  };
}
