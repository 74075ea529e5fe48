import type { FastifyPluginAsync } from 'fastify';
import type { AccountRouteOptions } from '../accounts/student-routes';
import { registerRoutes } from '../http/route-table';
import { saveProgress } from './save-progress';

/** The player's progress saves (base /api): POST /progress { videoId, position, watched }. */
export const progressRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { ctx, auth }) => {
  registerRoutes(app, auth, {
    'POST /api/progress': async ({ session: { user }, body }) => ({
      progress: await saveProgress(ctx.db, user, body, ctx.clock.now(), ctx.config.openTimeZone),
    }),
  });
};
