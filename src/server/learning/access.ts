import type { Role } from '../db/schema';
import { mediaMessages } from '../../contract/media';
import { learningMessages } from '../../contract/learning';
import type { AppContext } from '../context';
import { isUuid } from '../db/ids';
import { badRequest, forbidden, notFound } from '../errors';
import { requireOpenOrRunningClass, requireOpenTo } from '../http/opening-gate';
import { courseAccessOf, requireWatch as requirePlayback } from '../videos/access';

export interface Viewer {
  id: string;
  role: Role;
}

/**
 * The video's own access rule (the one its playlist answers by), opening hours included: a student
 * who may not watch the video now reads and writes nothing of it. Answers the video's length.
 */
export async function requireWatch(ctx: AppContext, user: Viewer, videoId: string): Promise<number> {
  return (await requireWatchedVideo(ctx, user, videoId)).durationSeconds;
}

/**
 * `requireWatch`, answering the video's row (its store, for a question's frame). A live class under
 * way past closing stays open (its questions and notes too, as its playlists: http/opening-gate.ts).
 */
export async function requireWatchedVideo(ctx: AppContext, user: Viewer, videoId: string) {
  await requireOpenOrRunningClass(ctx, user, videoId);
  const now = ctx.clock.now();
  if (!isUuid(videoId)) throw notFound(mediaMessages.videoNotFound);
  return requirePlayback(ctx, user, videoId, now);
}

/** A student's current access to a course (the one rule), opening hours included. */
export async function requireCourse(ctx: AppContext, user: Viewer, courseId: string): Promise<void> {
  const now = ctx.clock.now();
  requireOpenTo(user, now, ctx.config);
  if (!isUuid(courseId)) throw notFound(learningMessages.courseNotFound);
  const verdict = await courseAccessOf(ctx.db, user.id, courseId, now, ctx.config.openTimeZone);
  if (verdict.state === 'not-enrolled') throw notFound(learningMessages.courseNotFound);
  if (!verdict.canWatch) throw forbidden(mediaMessages.noCourseAccess);
}

/** A moment inside the video (a video of unknown length takes any moment the schema allows). */
export function checkMoment(t: number, durationSeconds: number): void {
  if (durationSeconds > 0 && t > durationSeconds) {
    throw badRequest(learningMessages.timeOutside);
  }
}
