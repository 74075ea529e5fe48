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
      details: e.videoTitle !== undefined ? { ...e.details, videoTitle: e.videoTitle } : (e.details ?? null),
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
