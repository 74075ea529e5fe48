import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { healthMessages } from '../../contract/playback-health';
import type { RouteOptions } from './route-options';
import { forbidden } from '../errors';
import { registerRoutes } from './route-table';
import { playbackHealth } from '../metrics/playback-health';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries `token` as its bearer (in constant time; never without a token set). */
export function bearerMatches(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}

/**
 * GET /metrics on the main port, for a scraper with METRICS_TOKEN as its bearer token; refused (403,
 * as every token route of the table) without it, and always when no token is set. METRICS_PORT's own
 * listener (metrics/listener.ts) needs no token.
 */
export const metricsRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  registerRoutes(app, auth, {
    'GET /metrics': async ({ request, reply }) => {
      if (!bearerMatches(request.headers.authorization, ctx.config.metrics.token))
        throw forbidden(healthMessages.metricsRefused);
      const body = await ctx.metrics.registry.metrics();
      return reply.type(ctx.metrics.registry.contentType).header('cache-control', 'no-store').send(body);
    },
  });
};

/** GET /api/admin/playback-health (base /api/admin): the dashboard's "Playback health (24 h)" panel. */
export const playbackHealthRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, auth }) => {
  registerRoutes(app, auth, {
    'GET /api/admin/playback-health': () => playbackHealth(ctx.db, ctx.clock.now()),
  });
};
