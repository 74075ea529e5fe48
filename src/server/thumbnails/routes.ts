import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import { isThumbnailFile, thumbnailDir } from './store';

/** GET /thumbnails/:file: content-addressed images, cacheable forever. Not secret: names are unguessable hashes. */
export const thumbnailRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get<{ Params: { file: string } }>('/thumbnails/:file', async (request, reply) => {
    const { file } = request.params;
    if (!isThumbnailFile(file)) throw notFound('No such thumbnail.');
    const full = path.join(thumbnailDir(ctx.config.dataDir), file);
    const info = await stat(full).catch(() => undefined);
    if (!info) throw notFound('No such thumbnail.');
    return reply
      .header('content-type', file.endsWith('.png') ? 'image/png' : 'image/jpeg')
      .header('content-length', info.size)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(createReadStream(full));
  });
};
