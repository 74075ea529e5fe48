import type { FastifyPluginAsync } from 'fastify';
import { mediaMessages } from '../../contract/media';
import { searchMessages } from '../../contract/search';
import type { AccountRouteOptions } from '../accounts/student-routes';
import { isUuid } from '../db/ids';
import { videos } from '../db/schema';
import { conflict, notFound, tooManyRequests } from '../errors';
import { registerRoutes } from '../http/route-table';
import { courseScope } from '../http/staff-scope';
import { requireOpenTo } from '../http/opening-gate';
import { requireWatch } from '../videos/access';
import { eq, inArray } from 'drizzle-orm';
import { watchableVideoIds } from './access';
import { createMediaTools } from '../storage/ffmpeg';
import { queueIndexing } from './index-queue';
import { SearchFrames } from './frames';
import { screenTextAt, videoIndexState } from './index-store';
import { searchIndex } from './query';

/** Searches per user: plenty for typing with a debounce, too few to walk the index. */
const SEARCHES_PER_USER = 120;
const SEARCH_WINDOW_MS = 60_000;
/** Re-index requests per admin a minute: a job each, so a few (a double click, a handful of videos). */
export const REINDEX_PER_ADMIN = 20;

/** Search inside lectures (docs/SEARCH.md): students within what they may watch now, staff everywhere. */
export const searchRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { ctx, auth }) => {
  async function limit(userId: string) {
    const hit = await ctx.rateCounter.hit(`search:${userId}`, SEARCH_WINDOW_MS);
    if (hit.count > SEARCHES_PER_USER)
      throw tooManyRequests(searchMessages.tooMany, Math.ceil(hit.resetInMs / 1000));
  }

  const videoIdOf = (videoId: string) => {
    if (!isUuid(videoId)) throw notFound(mediaMessages.videoNotFound);
    return videoId;
  };

  const videoOf = async (id: string) => {
    const [video] = await ctx.db
      .select({ id: videos.id, status: videos.status })
      .from(videos)
      .where(eq(videos.id, videoIdOf(id)))
      .limit(1);
    if (!video) throw notFound(mediaMessages.videoNotFound);
    return video;
  };

  const frames = new SearchFrames(ctx, createMediaTools(ctx.config));

  registerRoutes(app, auth, {
    'GET /api/search': async ({ session: { user }, query }) => {
      const now = ctx.clock.now();
      requireOpenTo(user, now, ctx.config);
      await limit(user.id);
      // An unknown course is simply one without hits.
      if (query.courseId !== undefined && !isUuid(query.courseId)) return { hits: [] };
      const videoIds = await watchableVideoIds(ctx, user.id, now);
      return { hits: await searchIndex(ctx.db, query.q, { videoIds, courseId: query.courseId }) };
    },
    'GET /api/videos/:videoId/screen-text': async ({ session: { user }, params, query }) => {
      const now = ctx.clock.now();
      requireOpenTo(user, now, ctx.config);
      const videoId = videoIdOf(params.videoId);
      await requireWatch(ctx, user, videoId, now);
      return screenTextAt(ctx.db, videoId, query.t);
    },
    'GET /api/videos/:videoId/frame': async ({ session: { user }, params, query, reply }) => {
      const now = ctx.clock.now();
      requireOpenTo(user, now, ctx.config);
      const videoId = videoIdOf(params.videoId);
      const video = await requireWatch(ctx, user, videoId, now);
      const key = await frames.frameKey(videoId, video, query.t, user.id);
      const read = await ctx.media.of(video.store).read(key);
      if (!read?.body) throw notFound(mediaMessages.videoNotFound);
      return reply
        .type('image/jpeg')
        .header('cache-control', 'private, max-age=86400')
        .header('content-length', read.size)
        .send(read.body);
    },
    'GET /api/admin/search': async ({ session, query }) => {
      await limit(session.user.id);
      // An instructor finds only the videos of their courses.
      const scope = courseScope(session);
      const videoIds =
        scope === null
          ? undefined
          : scope.length
            ? (
                await ctx.db
                  .select({ id: videos.id })
                  .from(videos)
                  .where(inArray(videos.courseId, [...scope]))
              ).map((v) => v.id)
            : [];
      return { hits: await searchIndex(ctx.db, query.q, { videoIds }) };
    },
    // The video of these two is checked by their scope before the handler.
    'GET /api/admin/videos/:videoId/index': async ({ params }) => {
      const videoId = (await videoOf(params.videoId)).id;
      return videoIndexState(ctx.db, videoId);
    },
    'POST /api/admin/videos/:videoId/index': async ({ session, params }) => {
      const { user } = session;
      const hit = await ctx.rateCounter.hit(`search-reindex:${user.id}`, SEARCH_WINDOW_MS);
      if (hit.count > REINDEX_PER_ADMIN)
        throw tooManyRequests(searchMessages.tooManyReindex, Math.ceil(hit.resetInMs / 1000));
      const video = await videoOf(params.videoId);
      if (video.status !== 'ready') throw conflict(searchMessages.indexNotReady);
      if (!(await queueIndexing(ctx, video.id, true))) throw conflict(searchMessages.indexBusy);
      return { message: searchMessages.indexQueued };
    },
  });
};
