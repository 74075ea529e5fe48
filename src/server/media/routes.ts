import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { mediaMessages } from '../../contract/media';
import type { AppContext } from '../context';
import { registerRoutes } from '../http/route-table';
import type { Auth } from '../plugins/auth';
import { openingState } from '../plugins/opening-hours';
import { decideWatch } from '../videos/access';
import { deleteVideoMedia } from './delete-media';
import { AccessCache } from './delivery/access-cache';
import { PlaylistStore } from './delivery/playlists';
import { installFastPath, segmentFastPath } from './delivery/fast-path';
import { deliveryRoutes, OFFLOAD_PREFIX, SEGMENT_CACHE } from './delivery/routes';
import { playbackTokens, type PlaybackGrant } from './delivery/tokens';
import { createMediaTools } from './ffmpeg';
import { VideoStoreCache } from './delivery/video-stores';
import { multipartOptions, uploadRoutes } from './upload/routes';
import { UploadStore } from './upload/upload-store';

export interface StreamRouteOptions {
  ctx: AppContext;
  auth: Auth;
  /** Wakes this process's job runner after packaging was queued; a no-op when jobs run elsewhere. */
  wakeJobs?: () => void;
  /** Overrides the access cache's lifetime (tests). */
  accessTtlMs?: number;
}

/** The streamer (base /stream): chunked upload, finalize, protected HLS playback and delete. */
export const streamRoutes: FastifyPluginAsync<StreamRouteOptions> = async (app, options) => {
  const { ctx, auth } = options;
  const tools = createMediaTools(ctx.config);
  const store = new UploadStore(ctx);
  // Embedded database: this process is its only writer, so an upload lease in it is a dead process's.
  if (ctx.dbKind === 'pglite') await store.releaseAllLeases();
  const playlists = new PlaylistStore();
  const videoStores = new VideoStoreCache(ctx);
  const keys = new Map<string, Buffer>();

  // Student decisions end at closing time at the latest; admins may always watch what exists.
  const decide = async (videoId: string, grant: PlaybackGrant) => {
    const now = ctx.clock.now();
    let validUntil: number | undefined;
    if (grant.role === 'student') {
      const state = openingState(now, ctx.config.openHours, ctx.config.openTimeZone);
      if (!state.open) return { allowed: false, validUntil: state.opensAt?.getTime() };
      validUntil = state.closesAt?.getTime();
    }
    const decision = await decideWatch(
      ctx.db,
      { id: grant.userId, role: grant.role },
      videoId,
      now,
      ctx.config.openTimeZone,
    );
    return { allowed: decision === 'allowed', validUntil };
  };
  const access = new AccessCache(decide, ctx.clock, ctx.logger, options.accessTtlMs);

  const tokens = playbackTokens(ctx.signingKey);
  installFastPath(
    app.server,
    segmentFastPath({
      stores: ctx.media,
      videoStores,
      tokens,
      access,
      now: () => ctx.clock.now().getTime(),
      offloadPrefix: ctx.config.segmentOffload === 'nginx' ? OFFLOAD_PREFIX : undefined,
      cacheControl: SEGMENT_CACHE,
    }),
  );

  await app.register(multipart, multipartOptions);
  uploadRoutes(app, { ctx, auth, store, tools, wakeJobs: options.wakeJobs ?? (() => {}) });
  deliveryRoutes(app, { ctx, auth, videoStores, tokens, access, playlists, keys });

  registerRoutes(app, auth, {
    'DELETE /stream/videos/:id': async ({ params: { id: videoId }, reply }) => {
      const outcome = await deleteVideoMedia(ctx, videoId);
      access.forgetVideo(videoId);
      playlists.forgetVideo(videoId);
      videoStores.forget(videoId);
      keys.delete(videoId);
      // The store was away: the files go by a job once it is back (nothing plays meanwhile).
      if (outcome === 'queued') return reply.status(202).send({ message: mediaMessages.deleteQueued });
      return { message: mediaMessages.deleted };
    },
  });
};
