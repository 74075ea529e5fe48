import type { FastifyPluginAsync } from 'fastify';
import { ATTEMPTS_PER_MINUTE, checkpointMessages } from '../../contract/checkpoints';
import { mediaMessages } from '../../contract/media';
import type { AppContext } from '../context';
import { isUuid } from '../db/ids';
import type { Role } from '../db/schema';
import { forbidden, notFound, tooManyRequests } from '../errors';
import type { Auth } from '../http/auth';
import { requireOpenTo } from '../http/opening-gate';
import { registerRoutes } from '../http/route-table';
import { courseAccessOf, requireWatch } from '../videos/access';
import { answerCheckpoint } from './attempts';
import {
  addCheckpoint,
  checkpointById,
  deleteCheckpoint,
  staffCheckpoints,
  updateCheckpoint,
  viewerCheckpoints,
} from './checkpoints';
import { courseCompletion, type CompletionWatch } from './completion';

const MINUTE_MS = 60_000;

export interface CheckpointRouteOptions {
  ctx: AppContext;
  auth: Auth;
  completion: CompletionWatch;
}

/**
 * Checkpoints and completion (issue 39). Outside the student API's gate, like the questions: each
 * student handler closes itself outside opening hours, and a student's access is the video's own
 * rule, checked on every request. Staff routes check the course or video once (staff-scope.ts).
 */
export const checkpointRoutes: FastifyPluginAsync<CheckpointRouteOptions> = async (
  app,
  { ctx, auth, completion },
) => {
  const now = () => ctx.clock.now();

  /** The video's row after the viewer's access check (opening hours for students first). */
  async function watched(user: { id: string; role: Role }, videoId: string) {
    requireOpenTo(user, now(), ctx.config);
    if (!isUuid(videoId)) throw notFound(mediaMessages.videoNotFound);
    return requireWatch(ctx, user, videoId);
  }

  /**
   * A staff member's video, its course already checked by the route's scope (route table): the row
   * for its length, read as an admin reads it (404 when unknown).
   */
  const staffVideo = (session: { user: { id: string } }, videoId: string) => {
    if (!isUuid(videoId)) throw notFound(mediaMessages.videoNotFound);
    return requireWatch(ctx, { id: session.user.id, role: 'admin' }, videoId);
  };

  registerRoutes(app, auth, {
    'GET /api/admin/videos/:videoId/checkpoints': async ({ session, params }) => {
      await staffVideo(session, params.videoId);
      return { checkpoints: await staffCheckpoints(ctx.db, params.videoId) };
    },
    'POST /api/admin/videos/:videoId/checkpoints': async ({ session, params, body }) => {
      const video = await staffVideo(session, params.videoId);
      const checkpoint = await addCheckpoint(ctx.db, params.videoId, video.durationSeconds, body, now());
      return { message: checkpointMessages.created, checkpoint };
    },
    'PATCH /api/admin/checkpoints/:checkpointId': async ({ session, params, body }) => {
      const row = await checkpointById(ctx.db, params.checkpointId);
      const video = await staffVideo(session, row.videoId);
      const checkpoint = await updateCheckpoint(ctx.db, row, video.durationSeconds, body, now());
      return { message: checkpointMessages.saved, checkpoint };
    },
    'DELETE /api/admin/checkpoints/:checkpointId': async ({ session, params }) => {
      const row = await checkpointById(ctx.db, params.checkpointId);
      await staffVideo(session, row.videoId);
      await deleteCheckpoint(ctx.db, row.id);
      return { message: checkpointMessages.deleted };
    },
    'GET /api/videos/:videoId/checkpoints': async ({ session: { user }, params }) => {
      await watched(user, params.videoId);
      return viewerCheckpoints(ctx.db, params.videoId, user.id, user.role !== 'student');
    },
    'POST /api/checkpoints/:checkpointId/attempts': async ({ session: { user }, params, body }) => {
      requireOpenTo(user, now(), ctx.config);
      const checkpoint = await checkpointById(ctx.db, params.checkpointId);
      await watched(user, checkpoint.videoId);
      // Counted first: a burst of parallel answers cannot slip in before the count catches up.
      const hit = await ctx.rateCounter.hit(`checkpoint-attempts:${user.id}`, MINUTE_MS);
      if (hit.count > ATTEMPTS_PER_MINUTE)
        throw tooManyRequests(checkpointMessages.tooManyAttempts, Math.ceil(hit.resetInMs / 1000));
      const { passed, ...answer } = await answerCheckpoint(ctx.db, user.id, checkpoint, body.answer, now());
      if (passed) await completion.lectureChanged(user.id, checkpoint.videoId);
      return answer;
    },
    'GET /api/courses/:courseId/completion': async ({ session: { user }, params }) => {
      requireOpenTo(user, now(), ctx.config);
      if (!isUuid(params.courseId)) throw notFound(checkpointMessages.courseNotFound);
      const verdict = await courseAccessOf(ctx.db, user.id, params.courseId, now(), ctx.config.openTimeZone);
      if (verdict.state === 'not-enrolled') throw notFound(checkpointMessages.courseNotFound);
      if (!verdict.canWatch) throw forbidden(mediaMessages.noCourseAccess);
      return courseCompletion(ctx.db, user.id, params.courseId);
    },
  });
};
