import { randomBytes } from 'node:crypto';
import { and, desc, eq, gte, lt, lte, ne } from 'drizzle-orm';
import {
  CODE_ALPHABET,
  CODE_LENGTH,
  traceMessages,
  type TracedSession,
  type TraceResponse,
} from '../../contract/playback';
import type { Db } from '../db/client';
import { courses, playbackSessions, users, videos } from '../db/schema';
import { notFound } from '../errors';

const DAY_MS = 86_400_000;
/** The other sessions a trace lists: a day either side, at most this many. */
const NEARBY_LIMIT = 20;
const MAX_USER_AGENT = 400;

/** A random code: 8 of Crockford's 32 symbols (40 bits), so guessing one is hopeless. */
export function newCode(): string {
  const bytes = randomBytes(CODE_LENGTH);
  let code = '';
  for (const byte of bytes) code += CODE_ALPHABET[byte & 31];
  return code;
}

/** Records one playback of `videoId` by `userId` and returns its code (the player draws it). */
export async function startPlaybackSession(
  db: Db,
  at: { userId: string; videoId: string; courseId: string | null; ip: string; userAgent: string; now: Date },
): Promise<string> {
  // A clash among 2^40 codes is rare; trying again is cheaper than checking first.
  for (let attempt = 0; ; attempt++) {
    const code = newCode();
    const [row] = await db
      .insert(playbackSessions)
      .values({
        code,
        userId: at.userId,
        videoId: at.videoId,
        courseId: at.courseId,
        startedAt: at.now,
        ip: at.ip,
        userAgent: at.userAgent.slice(0, MAX_USER_AGENT),
      })
      .onConflictDoNothing()
      .returning({ code: playbackSessions.code });
    if (row) return row.code;
    if (attempt >= 4) throw new Error('no free playback session code');
  }
}

const sessionColumns = {
  code: playbackSessions.code,
  startedAt: playbackSessions.startedAt,
  ip: playbackSessions.ip,
  userAgent: playbackSessions.userAgent,
  videoId: videos.id,
  videoTitle: videos.title,
  courseId: courses.id,
  courseName: courses.name,
  courseCode: courses.courseCode,
};

type SessionRow = {
  code: string;
  startedAt: Date;
  ip: string;
  userAgent: string;
  videoId: string | null;
  videoTitle: string | null;
  courseId: string | null;
  courseName: string | null;
  courseCode: string | null;
};

const present = (row: SessionRow): TracedSession => ({
  code: row.code,
  startedAt: row.startedAt.toISOString(),
  ip: row.ip,
  userAgent: row.userAgent,
  video: row.videoId ? { _id: row.videoId, title: row.videoTitle ?? '' } : null,
  course: row.courseId
    ? { _id: row.courseId, name: row.courseName ?? '', coursecode: row.courseCode ?? '' }
    : null,
});

function sessionsWith(db: Db) {
  return db
    .select({ ...sessionColumns, userId: playbackSessions.userId })
    .from(playbackSessions)
    .leftJoin(videos, eq(videos.id, playbackSessions.videoId))
    .leftJoin(courses, eq(courses.id, playbackSessions.courseId))
    .$dynamic();
}

/** Who played with `code` (already normalized), when, where from, and their sessions around it. */
export async function traceCode(db: Db, code: string): Promise<TraceResponse> {
  const [row] = await sessionsWith(db).where(eq(playbackSessions.code, code)).limit(1);
  if (!row) throw notFound(traceMessages.notFound);
  const [student] = await db
    .select({
      id: users.id,
      name: users.name,
      rollno: users.rollno,
      username: users.username,
      role: users.role,
    })
    .from(users)
    .where(eq(users.id, row.userId))
    .limit(1);
  if (!student) throw notFound(traceMessages.notFound);
  const t = row.startedAt.getTime();
  const nearby = await sessionsWith(db)
    .where(
      and(
        eq(playbackSessions.userId, row.userId),
        gte(playbackSessions.startedAt, new Date(t - DAY_MS)),
        lte(playbackSessions.startedAt, new Date(t + DAY_MS)),
        ne(playbackSessions.code, code),
      ),
    )
    .orderBy(desc(playbackSessions.startedAt))
    .limit(NEARBY_LIMIT);
  return {
    session: present(row),
    student: {
      _id: student.id,
      name: student.name,
      rollno: student.rollno,
      username: student.username,
      role: student.role,
    },
    nearby: nearby.map(present),
  };
}

/** Deletes sessions that started before `before`; returns how many. */
export async function purgePlaybackSessions(db: Db, before: Date): Promise<number> {
  const gone = await db
    .delete(playbackSessions)
    .where(lt(playbackSessions.startedAt, before))
    .returning({ code: playbackSessions.code });
  return gone.length;
}
