import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../http/route-options';
import { registerRoutes } from '../http/route-table';
import { recordPlaybackHealth } from '../metrics/playback-health';
import { saveProgress } from './save-progress';

/** Health reports a student's players may add per minute: a player sends one every few saves at most. */
const HEALTH_REPORTS_PER_MINUTE = 20;

/** The player's progress saves (base /api): POST /progress { videoId, position, watched, ranges?, health? }. */
export const progressRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  registerRoutes(app, auth, {
    'POST /api/progress': async ({ session: { user }, body, request }) => {
      const now = ctx.clock.now();
      const progress = await saveProgress(ctx.db, user, body, now, ctx.config.openTimeZone);
      // After the save: it checked the student may watch the video. More reports than a player
      // sends are dropped (the save itself still counts); a failure to keep one fails nothing.
      if (body.health) {
        const hit = await ctx.rateCounter.hit(`health:${user.id}`, 60_000);
        if (hit.count <= HEALTH_REPORTS_PER_MINUTE) {
          await recordPlaybackHealth(ctx.db, ctx.metrics, {
            userId: user.id,
            videoId: body.videoId,
            userAgent: request.headers['user-agent'],
            report: body.health,
            now,
          }).catch((error: unknown) => request.log.warn({ err: error }, 'a playback health report was lost'));
        }
      }
      return { progress };
    },
  });
};
