import type { FastifyPluginAsync } from 'fastify';
import { backupMessages } from '../../contract/backups';
import type { RouteOptions } from '../http/route-options';
import { isUuid } from '../db/ids';
import { notFound, tooManyRequests } from '../errors';
import { registerRoutes } from '../http/route-table';
import { findRunView } from './runs';
import { backupOverview, requestBackup } from './service';

/** "Back up now" per admin: a backup is minutes of work; pressing it more often only joins the running one. */
const REQUESTS_PER_ADMIN = 30;
const REQUEST_WINDOW_MS = 10 * 60_000;

export interface BackupRouteOptions extends RouteOptions {
  /** Wakes this process's job runner so a queued backup starts now rather than at the next poll. */
  wakeJobs?: () => void;
}

/** The admins' backups screen: runs and schedule, "Back up now", a run's progress. */
export const backupAdminRoutes: FastifyPluginAsync<BackupRouteOptions> = async (
  app,
  { ctx, auth, wakeJobs },
) => {
  registerRoutes(app, auth, {
    'GET /api/admin/backups': ({ query }) => backupOverview(ctx, { summary: query.summary }),
    'POST /api/admin/backups': async ({ session: { user } }) => {
      const hit = await ctx.rateCounter.hit(`backup:${user.id}`, REQUEST_WINDOW_MS);
      if (hit.count > REQUESTS_PER_ADMIN)
        throw tooManyRequests(backupMessages.tooMany, Math.ceil(hit.resetInMs / 1000));
      const started = await requestBackup(ctx, user.id);
      wakeJobs?.();
      return started;
    },
    'GET /api/admin/backups/:runId': async ({ params }) => {
      const run = isUuid(params.runId) ? await findRunView(ctx.db, params.runId) : undefined;
      if (!run) throw notFound(backupMessages.runNotFound);
      return { run };
    },
  });
};
