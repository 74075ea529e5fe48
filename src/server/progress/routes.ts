import type { FastifyPluginAsync } from 'fastify';
import type { ProgressResponse } from '../../contract/progress';
import { ProgressBody } from '../../contract/progress-schema';
import type { AccountRouteOptions } from '../accounts/student-routes';
import { parseInput } from '../errors';
import { saveProgress } from './save-progress';

/** The player's progress saves (base /api): POST /progress { videoId, position, watched }. */
export const progressRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { ctx, auth }) => {
  app.post('/progress', async (request): Promise<ProgressResponse> => {
    const { user } = await auth.requireStudent(request);
    const body = parseInput(ProgressBody, request.body);
    return { progress: await saveProgress(ctx.db, user, body, ctx.clock.now()) };
  });
};
