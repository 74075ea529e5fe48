import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { changingCourseVideos } from '../analytics/course-stats';
import { adminMessages } from '../../contract/messages';
import type { AdminVideo, VideoUpdateBody, VideoUploadBody } from '../../contract/videos';
import { recordAccessEvents } from '../audit/events';
import type { AppContext } from '../context';
import { requireCourse, type CourseRow } from '../courses/course-service';
import { oneById } from '../db/ids';
import { resolveThumbnail } from '../thumbnails/thumbnail-input';
import type { Db } from '../db/client';
import {
  auditEvents,
  courses,
  enrollments,
  notes,
  questions,
  users,
  videoAccess,
  videos,
} from '../db/schema';
import { badRequest, notFound } from '../errors';
import { videoIdFromUrl } from './stream-urls';
import { presentAdminVideo } from './presenter';
import {
  dropGrantsOutside,
  insertVideoGrants,
  moveDropsGrants,
  videoRevokeEvents,
  type VideoActor,
} from './video-grants';

export type VideoRow = typeof videos.$inferSelect;

/** The video, or a 404. */
export function requireVideo(db: Db, videoId: string): Promise<VideoRow> {
  return oneById(videoId, adminMessages.videoNotFound, () =>
    db.select().from(videos).where(eq(videos.id, videoId)).limit(1),
  );
}

/** Every video with its course: assigned ones by course and position, then the unassigned. One query. */
export async function listAdminVideos(db: Db): Promise<AdminVideo[]> {
  const rows = await db
    .select({ video: videos, course: { id: courses.id, name: courses.name, batch: courses.batch } })
    .from(videos)
    .leftJoin(courses, eq(courses.id, videos.courseId))
    .orderBy(
      sql`${courses.name} asc nulls last`,
      asc(courses.batch),
      asc(videos.position),
      asc(videos.createdAt),
    );
  return rows.map((r) => presentAdminVideo(r.video, r.course));
}

/** The next position at the end of a course's order. */
const lastPositionIn = (courseId: string, videoId: string) =>
  sql<number>`(select coalesce(max(${videos.position}) + 1, 0) from ${videos} where ${videos.courseId} = ${courseId} and ${videos.id} <> ${videoId})`;

/** Students of the course with these roll numbers; any other roll number is a 400 naming them. */
async function studentsByRollno(db: Db, course: CourseRow, rollnos: string[]): Promise<string[]> {
  const wanted = [...new Set(rollnos.map((r) => r.trim().toLowerCase()))];
  if (wanted.length === 0) return [];
  const found = await db
    .select({ id: users.id, rollno: users.rollno })
    .from(users)
    .innerJoin(enrollments, and(eq(enrollments.studentId, users.id), eq(enrollments.courseId, course.id)))
    .where(inArray(sql`lower(${users.rollno})`, wanted));
  const known = new Set(found.map((f) => f.rollno?.toLowerCase()));
  const unknown = wanted.filter((r) => !known.has(r));
  if (unknown.length) {
    throw badRequest(
      `These roll numbers are not students of this course: ${unknown.slice(0, 20).join(', ')}.`,
    );
  }
  return found.map((f) => f.id);
}

/**
 * Names a finalized upload (found by the streamer's `url`), assigns its course at the end of the
 * course's order, and grants it to the chosen students, audited.
 */
export async function saveUploadedVideo(
  ctx: AppContext,
  actor: VideoActor,
  input: VideoUploadBody,
): Promise<AdminVideo> {
  const videoId = videoIdFromUrl(input.url);
  if (!videoId) throw notFound(adminMessages.uploadNotFound);
  const [video] = await ctx.db.select().from(videos).where(eq(videos.id, videoId)).limit(1);
  if (!video) throw notFound(adminMessages.uploadNotFound);
  const course = input.courses ? await requireCourse(ctx.db, input.courses) : null;
  if (!course && input.rollnos.length) throw badRequest(adminMessages.unassignedVideo);
  const studentIds = course ? await studentsByRollno(ctx.db, course, input.rollnos) : [];
  const thumbnail = await resolveThumbnail(ctx.media, input.thumbnail, video.thumbnail);
  const now = ctx.clock.now();

  const moved = (course?.id ?? null) !== video.courseId;
  const saved = await changingCourseVideos(ctx.db, moved ? [video.courseId, course?.id] : [], async (tx) => {
    if (moved && moveDropsGrants(actor))
      await dropGrantsOutside(tx, { video, courseId: course?.id ?? null, actorId: actor.id, now });
    const [row] = await tx
      .update(videos)
      .set(videoDetails(video, input, thumbnail, course, now))
      .where(eq(videos.id, video.id))
      .returning();
    if (course) {
      await insertVideoGrants(tx, {
        videoId: video.id,
        videoTitle: input.title,
        courseId: course.id,
        studentIds,
        actorId: actor.id,
        now,
      });
    }
    return row!;
  });
  return presentAdminVideo(saved, course);
}

/** A video's new details; a new course puts it last in that course's order. */
function videoDetails(
  video: VideoRow,
  input: { title: string; description: string },
  thumbnail: string | null,
  course: CourseRow | null,
  now: Date,
) {
  const moved = course !== null && course.id !== video.courseId;
  return {
    title: input.title,
    description: input.description,
    thumbnail,
    courseId: course?.id ?? null,
    position: moved ? lastPositionIn(course.id, video.id) : video.position,
    updatedAt: now,
  };
}

/**
 * Edits a video's details; a new course puts it last in that course's order, and an admin's move
 * keeps its grants only with students enrolled there (the others' are dropped, audited).
 */
export async function updateVideo(
  ctx: AppContext,
  actor: VideoActor,
  input: VideoUpdateBody,
): Promise<AdminVideo> {
  const video = await requireVideo(ctx.db, input.videoId);
  let course: CourseRow | null = null;
  if (input.course === undefined) {
    course = video.courseId ? await requireCourse(ctx.db, video.courseId) : null;
  } else if (input.course !== null) {
    course = await requireCourse(ctx.db, input.course);
  }
  const thumbnail = await resolveThumbnail(ctx.media, input.thumbnail, video.thumbnail);
  const moved = (course?.id ?? null) !== video.courseId;
  const now = ctx.clock.now();
  // Its students' watch time moves with it.
  const [row] = await changingCourseVideos(ctx.db, moved ? [video.courseId, course?.id] : [], async (tx) => {
    if (moved && moveDropsGrants(actor))
      await dropGrantsOutside(tx, { video, courseId: course?.id ?? null, actorId: actor.id, now });
    return tx
      .update(videos)
      .set(videoDetails(video, input, thumbnail, course, now))
      .where(eq(videos.id, video.id))
      .returning();
  });
  return presentAdminVideo(row!, course);
}

/**
 * Removes a video's rows (access and progress cascade). The media files are the streamer's to
 * delete, before this call. Each student who could watch it gets a revoke in their history.
 */
export async function deleteVideo(db: Db, actorId: string, videoId: string, now: Date): Promise<void> {
  const video = await requireVideo(db, videoId);
  await changingCourseVideos(db, [video.courseId], async (tx) => {
    const holders = await tx
      .select({ studentId: videoAccess.studentId })
      .from(videoAccess)
      .where(eq(videoAccess.videoId, video.id));
    await recordAccessEvents(tx, now, videoRevokeEvents(video, actorId, holders, 'Video deleted'));
    // Its students' notes and questions go with it (cascade): the audit log says how many.
    const [taken] = await tx
      .select({
        notes: sql<number>`(select count(*) from ${notes} where ${notes.videoId} = ${video.id})`.mapWith(
          Number,
        ),
        questions:
          sql<number>`(select count(*) from ${questions} where ${questions.videoId} = ${video.id})`.mapWith(
            Number,
          ),
      })
      .from(videos)
      .where(eq(videos.id, video.id));
    await tx.insert(auditEvents).values({
      at: now,
      action: 'video.deleted',
      actorId,
      courseId: video.courseId,
      details: {
        videoId: video.id,
        videoTitle: video.title,
        notes: taken?.notes ?? 0,
        questions: taken?.questions ?? 0,
      },
    });
    await tx.delete(videos).where(eq(videos.id, video.id));
  });
}
