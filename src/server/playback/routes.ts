import type { FastifyPluginAsync } from 'fastify';
import { normalizeCode, traceMessages } from '../../contract/playback';
import { mediaMessages } from '../../contract/media';
import type { RouteOptions } from '../http/route-options';
import { isUuid } from '../db/ids';
import { badRequest, notFound, tooManyRequests } from '../errors';
import { registerRoutes } from '../http/route-table';
import { requireOpenOrRunningClass } from '../http/opening-gate';
import { requireWatch } from '../videos/access';
import { startPlaybackSession, traceCode } from './sessions';

/** A player opens a session per playback; more than this in the window is not watching. */
const PLAYBACKS_PER_USER = 120;
const PLAYBACK_WINDOW_MS = 10 * 60_000;
/** Trace lookups per admin: enough for an investigation, too few to walk the code space. */
export const TRACES_PER_ADMIN = 60;
const TRACE_WINDOW_MS = 10 * 60_000;

/** POST /api/playback (a playback session and its code) and the admins' trace lookup. */
export const playbackRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  async function limit(key: string, max: number, windowMs: number, message: string) {
    const hit = await ctx.rateCounter.hit(key, windowMs);
    if (hit.count > max) throw tooManyRequests(message, Math.ceil(hit.resetInMs / 1000));
  }

  registerRoutes(app, auth, {
    'POST /api/playback': async ({ session: { user }, body, request }) => {
      await requireOpenOrRunningClass(ctx, user, body.videoId);
      await limit(`playback:${user.id}`, PLAYBACKS_PER_USER, PLAYBACK_WINDOW_MS, traceMessages.tooMany);
      if (!isUuid(body.videoId)) throw notFound(mediaMessages.videoNotFound);
      const now = ctx.clock.now();
      const video = await requireWatch(ctx, user, body.videoId, now);
      const code = await startPlaybackSession(ctx.db, {
        userId: user.id,
        videoId: body.videoId,
        courseId: video.courseId,
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
