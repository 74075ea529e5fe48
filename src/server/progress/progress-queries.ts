import { and, asc, eq, inArray } from 'drizzle-orm';
import { NO_PROGRESS, type CourseProgress, type VideoProgress } from '../../contract/progress';
import type { Db } from '../db/client';
import { videoAccess, videoProgress, videos } from '../db/schema';
import { presentProgress } from './presenter';

/** The student's progress in each of `videoIds`; videos never played get NO_PROGRESS. */
export async function progressOfVideos(
  db: Db,
  studentId: string,
  videoIds: string[],
): Promise<Map<string, VideoProgress>> {
  const result = new Map(videoIds.map((id) => [id, NO_PROGRESS]));
  if (!videoIds.length) return result;
  const rows = await db
    .select()
    .from(videoProgress)
    .where(and(eq(videoProgress.studentId, studentId), inArray(videoProgress.videoId, videoIds)));
  for (const row of rows) result.set(row.videoId, presentProgress(row));
  return result;
}

/**
 * Per course: how many of the videos the student may watch (ready, granted) are completed, what
 * share of their length was watched, and
 * where "Continue" leads: the video played last if unfinished, else the first unfinished one after
 * it in course order, else the first unfinished one.
 */
export async function progressOfCourses(
  db: Db,
  studentId: string,
  courseIds: string[],
): Promise<Map<string, CourseProgress>> {
  const result = new Map<string, CourseProgress>();
  for (const id of courseIds) result.set(id, { total: 0, completed: 0, nextVideoId: null, watchedShare: 0 });
  if (!courseIds.length) return result;
  const rows = await db
    .select({
      videoId: videos.id,
      courseId: videos.courseId,
      completedAt: videoProgress.completedAt,
      playedAt: videoProgress.updatedAt,
      durationSeconds: videos.durationSeconds,
      watchedSeconds: videoProgress.watchedSeconds,
    })
    .from(videos)
    .innerJoin(videoAccess, and(eq(videoAccess.videoId, videos.id), eq(videoAccess.studentId, studentId)))
    .leftJoin(
      videoProgress,
      and(eq(videoProgress.videoId, videos.id), eq(videoProgress.studentId, studentId)),
    )
    .where(and(inArray(videos.courseId, courseIds), eq(videos.status, 'ready')))
    .orderBy(asc(videos.courseId), asc(videos.position), asc(videos.createdAt), asc(videos.id));

  const byCourse = new Map<string, typeof rows>();
  for (const row of rows) {
    const list = byCourse.get(row.courseId!) ?? [];
    list.push(row);
    byCourse.set(row.courseId!, list);
  }
  for (const [courseId, list] of byCourse) {
    const completed = list.filter((v) => v.completedAt !== null).length;
    let last = -1;
    list.forEach((v, i) => {
      if (v.playedAt && (last < 0 || v.playedAt > list[last]!.playedAt!)) last = i;
    });
    const unfinished = (v: (typeof list)[number]) => v.completedAt === null;
    const next =
      (last >= 0 && unfinished(list[last]!) ? list[last] : undefined) ??
      list.slice(last + 1).find(unfinished) ??
      list.find(unfinished);
    const length = list.reduce((sum, v) => sum + v.durationSeconds, 0);
    const watched = list.reduce((sum, v) => sum + Math.min(v.watchedSeconds ?? 0, v.durationSeconds), 0);
    result.set(courseId, {
      total: list.length,
      completed,
      nextVideoId: next?.videoId ?? null,
      watchedShare: length > 0 ? watched / length : 0,
    });
  }
  return result;
}
