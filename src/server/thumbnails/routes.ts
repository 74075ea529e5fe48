import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import { registerRoutes } from '../http/route-table';
import type { Auth } from '../http/auth';
import { isThumbnailFile, readThumbnail } from './store';

/** GET /thumbnails/:file: content-addressed images, cacheable forever. Not secret: names are unguessable hashes. */
export const thumbnailRoutes: FastifyPluginAsync<{ ctx: AppContext; auth: Auth }> = async (
  app,
  { ctx, auth },
) => {
  registerRoutes(app, auth, {
    'GET /thumbnails/:file': async ({ params: { file }, reply }) => {
      if (!isThumbnailFile(file)) throw notFound('No such thumbnail.');
      const read = await readThumbnail(ctx.media, file);
      if (!read?.body) throw notFound('No such thumbnail.');
      return reply
        .header('content-type', file.endsWith('.png') ? 'image/png' : 'image/jpeg')
        .header('content-length', read.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(read.body);
    },
  });
};
