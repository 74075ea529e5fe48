import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { liveMessages, type LiveClassCreateBody, type LiveClassUpdateBody } from '../../contract/live';
import { openingState, type OpenHours } from '../../contract/opening-hours';
import { changingCourseVideos } from '../analytics/course-stats';
import type { AppContext } from '../context';
import { requireCourse } from '../courses/course-service';
import type { Db } from '../db/client';
import { isUuid } from '../db/ids';
import { enrollments, liveClasses, videos } from '../db/schema';
import { isUniqueViolation } from '../db/unique-violation';
import { badRequest, conflict, notFound } from '../errors';
import { deleteVideo } from '../videos/admin-service';
import { insertVideoGrants } from '../videos/video-grants';
import type { LiveClassRow } from './presenter';
import { scheduleChanged } from './schedule-changes';
import { newStreamKey, wrapStreamKey } from './stream-keys';

const MINUTE_MS = 60_000;

/** The class, or a 404 (an id that is no UUID too). */
export async function requireLiveClass(db: Db, classId: string): Promise<LiveClassRow> {
  if (!isUuid(classId)) throw notFound(liveMessages.notFound);
  const [row] = await db.select().from(liveClasses).where(eq(liveClasses.id, classId)).limit(1);
  if (!row) throw notFound(liveMessages.notFound);
  return row;
}

const pad = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/**
 * A class starts within the opening hours (students are let in then); one that runs past closing
 * stays watchable to its end (delivery lets a student finish a class under way).
 */
function requireStartWithinHours(startsAt: Date, hours: OpenHours, timeZone: string): void {
  if (hours === 'always' || openingState(startsAt, hours, timeZone).open) return;
  throw badRequest(liveMessages.outsideHours(`${pad(hours[0])}–${pad(hours[1])} ${timeZone}`));
}

function requireNotOver(startsAt: Date, minutes: number, now: Date): void {
  if (startsAt.getTime() + minutes * MINUTE_MS <= now.getTime()) throw badRequest(liveMessages.alreadyOver);
}

/** The lowest port of the range no class that has not ended holds, or a 409 when every one is held. */
async function freePort(db: Db, [from, to]: [number, number]): Promise<number> {
  const held = await db
    .select({ port: liveClasses.srtPort })
    .from(liveClasses)
    .where(ne(liveClasses.status, 'ended'));
  const taken = new Set(held.map((r) => r.port));
  for (let port = from; port <= to; port++) if (!taken.has(port)) return port;
  throw conflict(liveMessages.noPorts);
}

/**
 * Schedules a class: its lecture (a video of the course, in no student's list until it is live,
 * granted to the course's students), a stream key and an SRT port. Two staff scheduling at once
 * may pick the same port: the unique index decides and the loser tries the next.
 */
export async function createLiveClass(
  ctx: AppContext,
  actorId: string,
  input: LiveClassCreateBody,
): Promise<LiveClassRow> {
  const course = await requireCourse(ctx.db, input.courseId);
  const startsAt = new Date(input.startsAt);
  const now = ctx.clock.now();
  requireStartWithinHours(startsAt, ctx.config.openHours, ctx.config.openTimeZone);
  requireNotOver(startsAt, input.minutes, now);
  for (let attempt = 0; ; attempt++) {
    const port = await freePort(ctx.db, ctx.config.live.srtPorts);
    try {
      const created = await changingCourseVideos(ctx.db, [course.id], async (tx) => {
        const [video] = await tx
          .insert(videos)
          .values({
            title: input.title,
            description: input.description,
            courseId: course.id,
            position: sql`(select coalesce(max(${videos.position}) + 1, 0) from ${videos} where ${videos.courseId} = ${course.id})`,
            status: 'processing',
            sourceName: 'live class',
            store: ctx.config.mediaStore,
            createdBy: actorId,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: videos.id });
        const students = await tx
          .select({ id: enrollments.studentId })
          .from(enrollments)
          .where(and(eq(enrollments.courseId, course.id), eq(enrollments.accessRevoked, false)));
        await insertVideoGrants(tx, {
          videoId: video!.id,
          videoTitle: input.title,
          courseId: course.id,
          studentIds: students.map((s) => s.id),
          actorId,
          now,
        });
        const id = randomUUID();
        const [row] = await tx
          .insert(liveClasses)
          .values({
            id,
            courseId: course.id,
            videoId: video!.id,
            title: input.title,
            description: input.description,
            startsAt,
            minutes: input.minutes,
            streamKey: wrapStreamKey(ctx.signingKey, id, newStreamKey()),
            srtPort: port,
            createdBy: actorId,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        return row!;
      });
      scheduleChanged();
      return created;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

/** The classes of `courseIds` (null: every course), soonest first, those ended last. */
export async function listLiveClasses(db: Db, courseIds: readonly string[] | null): Promise<LiveClassRow[]> {
  if (courseIds && courseIds.length === 0) return [];
  return db
    .select()
    .from(liveClasses)
    .where(courseIds ? inArray(liveClasses.courseId, [...courseIds]) : undefined)
    .orderBy(sql`${liveClasses.status} = 'ended'`, asc(liveClasses.startsAt));
}

/** A course's classes for its students: those not ended, then the last ten ended (newest first). */
export async function courseLiveClasses(db: Db, courseId: string): Promise<LiveClassRow[]> {
  const open = await db
    .select()
    .from(liveClasses)
    .where(and(eq(liveClasses.courseId, courseId), ne(liveClasses.status, 'ended')))
    .orderBy(asc(liveClasses.startsAt));
  const ended = await db
    .select()
    .from(liveClasses)
    .where(and(eq(liveClasses.courseId, courseId), eq(liveClasses.status, 'ended')))
    .orderBy(desc(liveClasses.startsAt))
    .limit(10);
  return [...open, ...ended];
}

/**
 * Changes a class's details; its lecture's title and description follow. A class under way keeps
 * its start and length; an ended one is a lecture now (edited as one).
 */
export async function updateLiveClass(
  ctx: AppContext,
  row: LiveClassRow,
  input: LiveClassUpdateBody,
): Promise<LiveClassRow> {
  if (row.status === 'ended') throw conflict(liveMessages.alreadyEnded);
  if (row.status === 'live' && (input.startsAt !== undefined || input.minutes !== undefined))
    throw conflict(liveMessages.startedCannotMove);
  const startsAt = input.startsAt === undefined ? row.startsAt : new Date(input.startsAt);
  const minutes = input.minutes ?? row.minutes;
  if (input.startsAt !== undefined) {
    requireStartWithinHours(startsAt, ctx.config.openHours, ctx.config.openTimeZone);
  }
  if (input.startsAt !== undefined || input.minutes !== undefined)
    requireNotOver(startsAt, minutes, ctx.clock.now());
  const now = ctx.clock.now();
  const updated = await ctx.db.transaction(async (tx) => {
    const [saved] = await tx
      .update(liveClasses)
      .set({
        title: input.title ?? row.title,
        description: input.description ?? row.description,
        startsAt,
        minutes,
        updatedAt: now,
      })
      .where(eq(liveClasses.id, row.id))
      .returning();
    if (input.title !== undefined || input.description !== undefined)
      await tx
        .update(videos)
        .set({ title: saved!.title, description: saved!.description, updatedAt: now })
        .where(eq(videos.id, row.videoId));
    return saved!;
  });
  scheduleChanged();
  return updated;
}

/** A new stream key: the old one stops working at the encoder's next connection. */
export async function rotateStreamKey(ctx: AppContext, row: LiveClassRow): Promise<LiveClassRow> {
  if (row.status === 'ended') throw conflict(liveMessages.alreadyEnded);
  const [saved] = await ctx.db
    .update(liveClasses)
    .set({ streamKey: wrapStreamKey(ctx.signingKey, row.id, newStreamKey()), updatedAt: ctx.clock.now() })
    .where(eq(liveClasses.id, row.id))
    .returning();
  return saved!;
}

/**
 * Deletes a class. One not yet streamed takes its empty lecture with it; one under way is refused
 * (stop the encoder first); an ended one leaves its recording, a lecture of the course.
 */
export async function deleteLiveClass(ctx: AppContext, actorId: string, row: LiveClassRow): Promise<void> {
  if (row.status === 'live') throw conflict(liveMessages.deleteLive);
  await ctx.db.delete(liveClasses).where(eq(liveClasses.id, row.id));
  if (row.status === 'scheduled') {
    const [video] = await ctx.db
      .select({ renditions: videos.renditions })
      .from(videos)
      .where(eq(videos.id, row.videoId));
    if (video && video.renditions.length === 0)
      await deleteVideo(ctx.db, actorId, row.videoId, ctx.clock.now());
  }
}
