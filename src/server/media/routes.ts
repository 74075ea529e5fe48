import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { mediaMessages } from '../../contract/media';
import type { AppContext } from '../context';
import { registerRoutes } from '../http/route-table';
import type { Auth } from '../http/auth';
import { deleteVideoMedia } from './delete-media';
import { KeyRateLimit } from './delivery/key-limit';
import { PlaylistStore } from './delivery/playlists';
import { describeStored } from './delivery/stream-descriptions';
import { installFastPath, segmentFastPath, type FastPathObserver } from './delivery/fast-path';
import { deliveryRoutes, SEGMENT_CACHE } from './delivery/routes';
import { segmentUrlsFor } from './delivery/segment-urls';
import { playbackTokens } from './delivery/tokens';
import { createMediaTools } from '../storage/ffmpeg';
import { VideoStoreCache } from './delivery/video-stores';
import { multipartOptions, uploadRoutes } from './upload/routes';
import { UploadStore } from './upload/upload-store';

export interface StreamRouteOptions {
  ctx: AppContext;
  auth: Auth;
  /** Wakes this process's job runner after packaging was queued; a no-op when jobs run elsewhere. */
  wakeJobs?: () => void;
  /** Times the segments the fast path serves (metrics on). */
  observeFastPath?: FastPathObserver;
}

/** The streamer (base /stream): chunked upload, finalize, protected HLS playback and delete. */
export const streamRoutes: FastifyPluginAsync<StreamRouteOptions> = async (app, options) => {
  const { ctx, auth } = options;
  const tools = createMediaTools(ctx.config);
  const store = new UploadStore(ctx);
  // Embedded database: this process is its only writer, so an upload lease in it is a dead process's.
  if (ctx.dbKind === 'pglite') await store.releaseAllLeases();
  const playlists = new PlaylistStore(describeStored(ctx, tools));
  const videoStores = new VideoStoreCache(ctx);
  const tokens = playbackTokens(ctx.signingKey);
  installFastPath(
    app.server,
    segmentFastPath({
      stores: ctx.media,
      videoStores,
      tokens,
      now: () => ctx.clock.now().getTime(),
      cacheControl: SEGMENT_CACHE,
    }),
    options.observeFastPath,
  );

  await app.register(multipart, multipartOptions);
  uploadRoutes(app, { ctx, auth, store, tools, wakeJobs: options.wakeJobs ?? (() => {}) });
  deliveryRoutes(app, {
    ctx,
    auth,
    videoStores,
    tokens,
    playlists,
    segmentUrls: segmentUrlsFor(ctx.config, tokens, ctx.signingKey),
    keyLimit: new KeyRateLimit(ctx.config.keyRotationSeconds),
  });

  registerRoutes(app, auth, {
    // Another course's video, or one that names nothing, is refused by the route's scope.
    'DELETE /stream/videos/:id': async ({ params: { id: videoId }, reply }) => {
      const outcome = await deleteVideoMedia(ctx, videoId);
      playlists.forgetVideo(videoId);
      videoStores.forget(videoId);
      // The store was away: the files go by a job once it is back (nothing plays meanwhile).
      if (outcome === 'queued') return reply.status(202).send({ message: mediaMessages.deleteQueued });
      return { message: mediaMessages.deleted };
    },
  });
};
