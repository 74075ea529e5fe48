import { and, eq } from 'drizzle-orm';
import {
  courseAccess,
  videoAccess as videoRule,
  type AccessVerdict,
  type WatchVerdict,
} from '../../contract/access-policy';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import {
  enrollments,
  instructorCourses,
  videoAccess,
  videos,
  type Role,
  type StoreKind,
  type VideoStatus,
} from '../db/schema';
import { refuseWatch } from '../errors';
import { instructorReaches } from '../http/staff-scope';

/** The student's access to one course, by the one rule (src/contract/access-policy.ts). */
export async function courseAccessOf(
  db: Db,
  studentId: string,
  courseId: string,
  now: Date,
  timeZone: string,
): Promise<AccessVerdict> {
  const [row] = await db
    .select({ accessRevoked: enrollments.accessRevoked, accessExpiration: enrollments.accessExpiration })
    .from(enrollments)
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.courseId, courseId)))
    .limit(1);
  return courseAccess(row, now, timeZone);
}

export type WatchDecision = WatchVerdict | 'not-found';

/** The video row a playback request needs, read once with the access decision. */
const playbackColumns = {
  durationSeconds: videos.durationSeconds,
  courseId: videos.courseId,
  status: videos.status,
  renditions: videos.renditions,
  store: videos.store,
  updatedAt: videos.updatedAt,
  forensicSecret: videos.forensicSecret,
};

export interface PlaybackVideo {
  durationSeconds: number;
  courseId: string | null;
  status: VideoStatus;
  renditions: number[];
  store: StoreKind;
  updatedAt: Date;
  forensicSecret: string | null;
}

/**
 * Whether `user` may watch `videoId` now: admins always; instructors the videos of their courses
 * (and their own upload not yet in a course); students only with active access to the video's
 * course and a video grant. One query, so the streamer can afford it on every playlist.
 */
export async function decideWatch(
  db: Db,
  user: { id: string; role: Role },
  videoId: string,
  now: Date,
  timeZone: string,
): Promise<WatchDecision> {
  return (await checkWatch(db, user, videoId, now, timeZone)).decision;
}

/** `decideWatch`, plus the video's row from the same query (its length for progress, its files for playback). */
export async function checkWatch(
  db: Db,
  user: { id: string; role: Role },
  videoId: string,
  now: Date,
  timeZone: string,
): Promise<{ decision: WatchDecision; durationSeconds: number; video: PlaybackVideo | undefined }> {
  if (user.role === 'admin') {
    const [video] = await db.select(playbackColumns).from(videos).where(eq(videos.id, videoId)).limit(1);
    return { decision: video ? 'allowed' : 'not-found', durationSeconds: video?.durationSeconds ?? 0, video };
  }
  if (user.role === 'instructor') {
    // An instructor watches what staff routes let them reach: the one rule (http/staff-scope.ts),
    // with the course of the video if they teach it (the join).
    const [row] = await db
      .select({ ...playbackColumns, createdBy: videos.createdBy, taught: instructorCourses.courseId })
      .from(videos)
      .leftJoin(
        instructorCourses,
        and(eq(instructorCourses.courseId, videos.courseId), eq(instructorCourses.userId, user.id)),
      )
      .where(eq(videos.id, videoId))
      .limit(1);
    if (!row) return { decision: 'not-found', durationSeconds: 0, video: undefined };
    const { taught, createdBy, ...video } = row;
    const reaches = instructorReaches(
      { id: user.id, teaches: taught ? [taught] : [] },
      { courseId: video.courseId, createdBy },
    );
    return {
      decision: reaches ? 'allowed' : 'no-course-access',
      durationSeconds: row.durationSeconds,
      video,
    };
  }
  const [row] = await db
    .select({
      ...playbackColumns,
      accessRevoked: enrollments.accessRevoked,
      accessExpiration: enrollments.accessExpiration,
      granted: videoAccess.videoId,
    })
    .from(videos)
    .leftJoin(enrollments, and(eq(enrollments.courseId, videos.courseId), eq(enrollments.studentId, user.id)))
    .leftJoin(videoAccess, and(eq(videoAccess.videoId, videos.id), eq(videoAccess.studentId, user.id)))
    .where(eq(videos.id, videoId))
    .limit(1);
  if (!row) return { decision: 'not-found', durationSeconds: 0, video: undefined };
  const { accessRevoked, accessExpiration, granted, ...video } = row;
  const enrollment =
    row.courseId && accessRevoked !== null && accessExpiration !== null
      ? { accessRevoked, accessExpiration }
      : null;
  return {
    decision: videoRule(enrollment, granted !== null, now, timeZone),
    durationSeconds: row.durationSeconds,
    video,
  };
}

/**
 * The one way a request may watch a video (playlists, keys, posters, captions, playback sessions):
 * the access decision, refused with its one answer (`refuseWatch`), and the video row it read. The
 * caller has checked the id's shape (404) and, for a student, opening hours (503) first.
 */
export async function requireWatch(
  ctx: Pick<AppContext, 'db' | 'clock' | 'config'>,
  user: { id: string; role: Role },
  videoId: string,
  now: Date = ctx.clock.now(),
): Promise<PlaybackVideo> {
  const { decision, video } = await checkWatch(ctx.db, user, videoId, now, ctx.config.openTimeZone);
  refuseWatch(decision);
  return video!;
}
