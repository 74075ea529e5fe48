import { and, asc, count, desc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import {
  learningMessages,
  questionFrameUrl,
  type Answer,
  type Question,
  type QuestionStatus,
  type QueueQuestion,
} from '../../contract/learning';
import { watchesVideo } from '../courses/access-sql';
import type { Db } from '../db/client';
import { isUuid } from '../db/ids';
import {
  courses,
  notes,
  questionAnswers,
  questionMeToo,
  questions,
  users,
  videos,
  type Role,
} from '../db/schema';
import { badRequest, notFound } from '../errors';

type Row = typeof questions.$inferSelect;

export interface Reader {
  id: string;
  role: Role;
}

/** Answers, "me too" counts and the reader's own marks of some questions, in three queries. */
async function detailsOf(db: Db, rows: Row[], reader: Reader | undefined) {
  const ids = rows.map((r) => r.id);
  if (!ids.length)
    return {
      answers: new Map<string, Answer[]>(),
      meToo: new Map<string, number>(),
      mine: new Set<string>(),
    };
  const answerRows = await db
    .select({
      id: questionAnswers.id,
      questionId: questionAnswers.questionId,
      text: questionAnswers.text,
      createdAt: questionAnswers.createdAt,
      authorRole: users.role,
    })
    .from(questionAnswers)
    .leftJoin(users, eq(users.id, questionAnswers.authorId))
    .where(inArray(questionAnswers.questionId, ids))
    .orderBy(asc(questionAnswers.createdAt), asc(questionAnswers.id));
  const accepted = new Map(rows.map((r) => [r.id, r.acceptedAnswerId]));
  const answers = new Map<string, Answer[]>();
  for (const a of answerRows) {
    const list = answers.get(a.questionId) ?? [];
    list.push({
      _id: a.id,
      text: a.text,
      byStaff: a.authorRole !== 'student',
      accepted: accepted.get(a.questionId) === a.id,
      createdAt: a.createdAt.toISOString(),
    });
    answers.set(a.questionId, list);
  }
  const counts = await db
    .select({ questionId: questionMeToo.questionId, n: count() })
    .from(questionMeToo)
    .where(inArray(questionMeToo.questionId, ids))
    .groupBy(questionMeToo.questionId);
  const meToo = new Map(counts.map((c) => [c.questionId, Number(c.n)]));
  const mine = new Set<string>();
  if (reader?.role === 'student') {
    const own = await db
      .select({ questionId: questionMeToo.questionId })
      .from(questionMeToo)
      .where(and(inArray(questionMeToo.questionId, ids), eq(questionMeToo.studentId, reader.id)));
    for (const o of own) mine.add(o.questionId);
  }
  return { answers, meToo, mine };
}

function present(row: Row, details: Awaited<ReturnType<typeof detailsOf>>, reader: Reader): Question {
  const answers = details.answers.get(row.id) ?? [];
  const mine = row.askerId === reader.id;
  return {
    _id: row.id,
    videoId: row.videoId,
    t: row.t,
    title: row.title,
    text: row.text,
    status: row.status,
    mine,
    meToo: details.meToo.get(row.id) ?? 0,
    meTooMine: details.mine.has(row.id),
    unread: mine ? answers.filter((a) => Date.parse(a.createdAt) > row.askerSeenAt.getTime()).length : 0,
    answers,
    frameUrl: row.frameAt ? questionFrameUrl(row.id) : null,
    createdAt: row.createdAt.toISOString(),
  };
}

async function presentOne(db: Db, row: Row, reader: Reader): Promise<Question> {
  return present(row, await detailsOf(db, [row], reader), reader);
}

/** A question by id, or a 404. Hidden ones are staff's alone (and their asker's). */
export async function questionById(db: Db, questionId: string, reader?: Reader): Promise<Row> {
  const [row] = isUuid(questionId)
    ? await db.select().from(questions).where(eq(questions.id, questionId)).limit(1)
    : [];
  const hiddenFrom = row?.status === 'hidden' && reader?.role === 'student' && row.askerId !== reader.id;
  if (!row || hiddenFrom) throw notFound(learningMessages.questionNotFound);
  return row;
}

/** A video's questions, by moment; hidden ones only for staff and their asker. */
export async function listQuestions(db: Db, videoId: string, reader: Reader): Promise<Question[]> {
  const visible =
    reader.role === 'student'
      ? and(
          eq(questions.videoId, videoId),
          sql`(${questions.status} <> 'hidden' or ${questions.askerId} = ${reader.id})`,
        )
      : eq(questions.videoId, videoId);
  const rows = await db
    .select()
    .from(questions)
    .where(visible)
    .orderBy(asc(questions.t), asc(questions.createdAt));
  const details = await detailsOf(db, rows, reader);
  return rows.map((row) => present(row, details, reader));
}

export async function askQuestion(
  db: Db,
  asker: Reader,
  videoId: string,
  body: { t: number; title: string; text: string },
  now: Date,
): Promise<Question> {
  const [row] = await db
    .insert(questions)
    .values({ askerId: asker.id, videoId, ...body, askerSeenAt: now, createdAt: now })
    .returning();
  return presentOne(db, row!, asker);
}

/** Adds the student's "me too" (once; asking twice changes nothing); answers the new count. */
export async function meToo(db: Db, question: Row, student: Reader, now: Date): Promise<number> {
  if (question.status !== 'open') throw badRequest(learningMessages.closed);
  await db
    .insert(questionMeToo)
    .values({ questionId: question.id, studentId: student.id, createdAt: now })
    .onConflictDoNothing();
  const [c] = await db
    .select({ n: count() })
    .from(questionMeToo)
    .where(eq(questionMeToo.questionId, question.id));
  return Number(c?.n ?? 0);
}

export async function answerQuestion(
  db: Db,
  question: Row,
  author: Reader,
  text: string,
  now: Date,
): Promise<Question> {
  if (question.status !== 'open') throw badRequest(learningMessages.closed);
  await db
    .insert(questionAnswers)
    .values({ questionId: question.id, authorId: author.id, text, createdAt: now });
  return presentOne(db, question, author);
}

export async function acceptAnswer(
  db: Db,
  question: Row,
  answerId: string,
  reader: Reader,
): Promise<Question> {
  const [answer] = isUuid(answerId)
    ? await db
        .select({ id: questionAnswers.id })
        .from(questionAnswers)
        .where(and(eq(questionAnswers.id, answerId), eq(questionAnswers.questionId, question.id)))
        .limit(1)
    : [];
  if (!answer) throw notFound(learningMessages.answerNotFound);
  const [row] = await db
    .update(questions)
    .set({ acceptedAnswerId: answer.id })
    .where(eq(questions.id, question.id))
    .returning();
  return presentOne(db, row!, reader);
}

export async function setStatus(
  db: Db,
  question: Row,
  status: QuestionStatus,
  reader: Reader,
): Promise<Question> {
  const [row] = await db.update(questions).set({ status }).where(eq(questions.id, question.id)).returning();
  return presentOne(db, row!, reader);
}

/** The asker has read the answers so far. */
export async function markSeen(db: Db, question: Row, now: Date): Promise<void> {
  await db.update(questions).set({ askerSeenAt: now }).where(eq(questions.id, question.id));
}

/** Answers to the student's questions they have not read yet, across every video they may still watch. */
export async function unreadCount(db: Db, studentId: string, now: Date): Promise<number> {
  const [c] = await db
    .select({ n: count() })
    .from(questionAnswers)
    .innerJoin(questions, eq(questions.id, questionAnswers.questionId))
    .innerJoin(videos, eq(videos.id, questions.videoId))
    .where(
      and(
        eq(questions.askerId, studentId),
        gt(questionAnswers.createdAt, questions.askerSeenAt),
        ne(questions.status, 'hidden'),
        watchesVideo(questions.askerId, now),
      ),
    );
  return Number(c?.n ?? 0);
}

const meTooCount =
  sql<number>`(select count(*) from ${questionMeToo} where ${questionMeToo.questionId} = ${questions.id})`.mapWith(
    Number,
  );
const answerCount =
  sql<number>`(select count(*) from ${questionAnswers} where ${questionAnswers.questionId} = ${questions.id})`.mapWith(
    Number,
  );

/**
 * The staff queue: questions of a status (open by default) across the courses, unanswered first,
 * then the most "me too", then the oldest. At most 500.
 */
export async function queue(
  db: Db,
  status: QuestionStatus | 'all',
  reader: Reader,
  /** The courses whose questions to list (an instructor's); null for every course. */
  scope: readonly string[] | null = null,
): Promise<QueueQuestion[]> {
  const inScope =
    scope === null ? undefined : scope.length ? inArray(videos.courseId, [...scope]) : sql`false`;
  const rows = await db
    .select({ question: questions, videoTitle: videos.title, courseId: courses.id, courseName: courses.name })
    .from(questions)
    .innerJoin(videos, eq(videos.id, questions.videoId))
    .leftJoin(courses, eq(courses.id, videos.courseId))
    .where(and(status === 'all' ? undefined : eq(questions.status, status), inScope))
    .orderBy(sql`${answerCount} = 0 desc`, desc(meTooCount), asc(questions.createdAt))
    .limit(500);
  const details = await detailsOf(
    db,
    rows.map((r) => r.question),
    reader,
  );
  return rows.map(({ question, videoTitle, courseId, courseName }) => {
    const { mine: _m, meTooMine: _t, unread: _u, ...rest } = present(question, details, reader);
    return { ...rest, videoTitle, courseId, courseName };
  });
}

/** What deleting a video takes with it. */
export async function videoLearningCounts(
  db: Db,
  videoId: string,
): Promise<{ notes: number; questions: number }> {
  const [n] = await db.select({ n: count() }).from(notes).where(eq(notes.videoId, videoId));
  const [q] = await db.select({ n: count() }).from(questions).where(eq(questions.videoId, videoId));
  return { notes: Number(n?.n ?? 0), questions: Number(q?.n ?? 0) };
}

/** The asker's address and the question's place, for the "answered" mail; none once they may not watch it. */
export async function askerOf(db: Db, question: Row, now: Date) {
  const [row] = await db
    .select({ email: users.email, name: users.name, videoTitle: videos.title, courseId: videos.courseId })
    .from(users)
    .innerJoin(videos, eq(videos.id, question.videoId))
    .where(and(eq(users.id, question.askerId), watchesVideo(users.id, now)))
    .limit(1);
  return row;
}
