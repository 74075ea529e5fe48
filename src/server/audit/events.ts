import { aliasedTable, and, desc, eq, inArray } from 'drizzle-orm';
import { AccessAction } from '../../contract/admin-students';
import type { Db } from '../db/client';
import { auditEvents, courses, users, videos } from '../db/schema';

/** Anything that can run queries: the database or a transaction. */

export interface AccessEvent {
  action: AccessAction;
  actorId: string;
  studentId: string;
  courseId?: string | null;
  videoId?: string | null;
  /** Kept in the event, so the history still names a video after it is deleted. */
  videoTitle?: string;
  oldExpiration?: Date | null;
  newExpiration?: Date | null;
  reason?: string | null;
  details?: Record<string, unknown>;
}

/**
 * The details with every lone UTF-16 surrogate (a title a client sent as `"\ud800"`) made U+FFFD:
 * PostgreSQL's jsonb refuses the `\ud800` escape JSON.stringify writes for one, which failed the
 * whole change with a 500 (the fuzzer, scheduling a live class whose lecture is granted).
 */
function wellFormed<T>(value: T): T {
  // String.prototype.toWellFormed (Node.js 20+) is past this project's TypeScript lib (ES2023).
  if (typeof value === 'string') return (value as unknown as { toWellFormed(): string }).toWellFormed() as T;
  if (Array.isArray(value)) return value.map(wellFormed) as T;
  if (value && typeof value === 'object' && !(value instanceof Date))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wellFormed(v)])) as T;
  return value;
}

/** Writes one audit row per access change, in the caller's transaction. */
export async function recordAccessEvents(db: Db, at: Date, events: AccessEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.insert(auditEvents).values(
    events.map((e) => ({
      at,
      action: e.action,
      actorId: e.actorId,
      studentId: e.studentId,
      courseId: e.courseId ?? null,
      videoId: e.videoId ?? null,
      oldExpiration: e.oldExpiration ?? null,
      newExpiration: e.newExpiration ?? null,
      reason: e.reason ?? null,
      details: wellFormed(
        e.videoTitle !== undefined ? { ...e.details, videoTitle: e.videoTitle } : (e.details ?? null),
      ),
    })),
  );
}

const actors = aliasedTable(users, 'actor');

/** A student's access events (not their other audit rows), newest first, with who made them and on what. One query. */
export async function accessHistoryOf(db: Db, studentId: string, limit = 500) {
  return (
    db
      .select({
        id: auditEvents.id,
        at: auditEvents.at,
        action: auditEvents.action,
        oldExpiration: auditEvents.oldExpiration,
        newExpiration: auditEvents.newExpiration,
        reason: auditEvents.reason,
        details: auditEvents.details,
        videoId: auditEvents.videoId,
        actor: { id: actors.id, name: actors.name, username: actors.username },
        course: { id: courses.id, name: courses.name, batch: courses.batch },
        videoTitle: videos.title,
      })
      .from(auditEvents)
      .leftJoin(actors, eq(actors.id, auditEvents.actorId))
      .leftJoin(courses, eq(courses.id, auditEvents.courseId))
      .leftJoin(videos, eq(videos.id, auditEvents.videoId))
      // Only access events: the log also holds a student's password resets and security events.
      .where(and(eq(auditEvents.studentId, studentId), inArray(auditEvents.action, AccessAction.options)))
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(limit)
  );
}

export type AccessHistoryRow = Awaited<ReturnType<typeof accessHistoryOf>>[number];
