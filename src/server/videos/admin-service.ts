import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { adminMessages } from '../../contract/messages';
import type { AdminVideo, VideoUpdateBody, VideoUploadBody } from '../../contract/videos';
import { recordAccessEvents } from '../audit/events';
import type { AppContext } from '../context';
import { requireCourse, type CourseRow } from '../courses/course-service';
import { isUuid } from '../courses/ids';
import { resolveThumbnail } from '../courses/thumbnail-input';
import type { Db } from '../db/client';
import { courses, enrollments, users, videoAccess, videos } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { videoIdFromUrl } from '../media/urls';
import { presentAdminVideo } from './presenter';
import { insertVideoGrants } from './video-grants';

export type VideoRow = typeof videos.$inferSelect;

/** The video, or a 404. */
export async function requireVideo(db: Pick<Db, 'select'>, videoId: string): Promise<VideoRow> {
  const [video] = isUuid(videoId)
    ? await db.select().from(videos).where(eq(videos.id, videoId)).limit(1)
    : [];
  if (!video) throw notFound(adminMessages.videoNotFound);
  return video;
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
  actorId: string,
  input: VideoUploadBody,
): Promise<AdminVideo> {
  const videoId = videoIdFromUrl(input.url);
  if (!videoId) throw notFound(adminMessages.uploadNotFound);
  const [video] = await ctx.db.select().from(videos).where(eq(videos.id, videoId)).limit(1);
  if (!video) throw notFound(adminMessages.uploadNotFound);
  const course = input.courses ? await requireCourse(ctx.db, input.courses) : null;
  if (!course && input.rollnos.length) throw badRequest(adminMessages.unassignedVideo);
  const studentIds = course ? await studentsByRollno(ctx.db, course, input.rollnos) : [];
  const thumbnail = await resolveThumbnail(ctx.config.dataDir, input.thumbnail, video.thumbnail);
  const now = ctx.clock.now();

  const saved = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(videos)
      .set({
        title: input.title,
        description: input.description,
        thumbnail,
        courseId: course?.id ?? null,
        position:
          course && course.id !== video.courseId ? lastPositionIn(course.id, video.id) : video.position,
        updatedAt: now,
      })
      .where(eq(videos.id, video.id))
      .returning();
    if (course) {
      await insertVideoGrants(tx, {
        videoId: video.id,
        videoTitle: input.title,
        courseId: course.id,
        studentIds,
        actorId,
        now,
      });
    }
    return row!;
  });
  return presentAdminVideo(saved, course);
}

/** Edits a video's details; a new course puts it last in that course's order. */
export async function updateVideo(ctx: AppContext, input: VideoUpdateBody): Promise<AdminVideo> {
  const video = await requireVideo(ctx.db, input.videoId);
  let course: CourseRow | null = null;
  if (input.course === undefined) {
    course = video.courseId ? await requireCourse(ctx.db, video.courseId) : null;
  } else if (input.course !== null) {
    course = await requireCourse(ctx.db, input.course);
  }
  const thumbnail = await resolveThumbnail(ctx.config.dataDir, input.thumbnail, video.thumbnail);
  const moved = (course?.id ?? null) !== video.courseId;
  const [row] = await ctx.db
    .update(videos)
    .set({
      title: input.title,
      description: input.description,
      thumbnail,
      courseId: course?.id ?? null,
      position: moved && course ? lastPositionIn(course.id, video.id) : video.position,
      updatedAt: ctx.clock.now(),
    })
    .where(eq(videos.id, video.id))
    .returning();
  return presentAdminVideo(row!, course);
}

/**
 * Removes a video's rows (access and progress cascade). The media files are the streamer's to
 * delete, before this call. Each student who could watch it gets a revoke in their history.
 */
export async function deleteVideo(db: Db, actorId: string, videoId: string, now: Date): Promise<void> {
  const video = await requireVideo(db, videoId);
  await db.transaction(async (tx) => {
    const holders = await tx
      .select({ studentId: videoAccess.studentId })
      .from(videoAccess)
      .where(eq(videoAccess.videoId, video.id));
    await recordAccessEvents(
      tx,
      now,
      holders.map((h) => ({
        action: 'video.revoke' as const,
        actorId,
        studentId: h.studentId,
        courseId: video.courseId,
        videoId: video.id,
        videoTitle: video.title,
        reason: 'Video deleted',
      })),
    );
    await tx.delete(videos).where(eq(videos.id, video.id));
  });
}
