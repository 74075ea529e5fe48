import type { FastifyPluginAsync } from 'fastify';
import { normalizeCode, traceMessages } from '../../contract/playback';
import { mediaMessages } from '../../contract/media';
import type { AccountRouteOptions } from '../accounts/student-routes';
import { isUuid } from '../db/ids';
import { badRequest, forbidden, notFound, tooManyRequests } from '../errors';
import { registerRoutes } from '../http/route-table';
import { checkWatch } from '../videos/access';
import { startPlaybackSession, traceCode } from './sessions';
import { videoCourseOf } from './video-course';

/** A player opens a session per playback; more than this in the window is not watching. */
const PLAYBACKS_PER_USER = 120;
const PLAYBACK_WINDOW_MS = 10 * 60_000;
/** Trace lookups per admin: enough for an investigation, too few to walk the code space. */
const TRACES_PER_ADMIN = 60;
const TRACE_WINDOW_MS = 10 * 60_000;

/** POST /api/playback (a playback session and its code) and the admins' trace lookup. */
export const playbackRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { ctx, auth }) => {
  async function limit(key: string, max: number, windowMs: number, message: string) {
    const hit = await ctx.rateCounter.hit(key, windowMs);
    if (hit.count > max) throw tooManyRequests(message, Math.ceil(hit.resetInMs / 1000));
  }

  registerRoutes(app, auth, {
    'POST /api/playback': async ({ session: { user }, body, request }) => {
      await limit(`playback:${user.id}`, PLAYBACKS_PER_USER, PLAYBACK_WINDOW_MS, traceMessages.tooMany);
      if (!isUuid(body.videoId)) throw notFound(mediaMessages.videoNotFound);
      const now = ctx.clock.now();
      const { decision } = await checkWatch(ctx.db, user, body.videoId, now, ctx.config.openTimeZone);
      if (decision === 'not-found') throw notFound(mediaMessages.videoNotFound);
      if (decision === 'no-course-access') throw forbidden(mediaMessages.noCourseAccess);
      if (decision === 'no-video-access') throw forbidden(mediaMessages.noVideoAccess);
      const code = await startPlaybackSession(ctx.db, {
        userId: user.id,
        videoId: body.videoId,
        courseId: await videoCourseOf(ctx.db, body.videoId),
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
        now,
      });
      return { code };
    },
    'GET /api/admin/trace/:code': async ({ session: { user }, params }) => {
      await limit(`trace:${user.id}`, TRACES_PER_ADMIN, TRACE_WINDOW_MS, traceMessages.tooMany);
      const code = normalizeCode(params.code);
      if (!code) throw badRequest(traceMessages.codeInvalid);
      return traceCode(ctx.db, code);
    },
  });
};
