import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { mediaMessages } from '../../../contract/media';
import { serverMessages } from '../../../contract/messages';
import type { SessionUser } from '../../accounts/sessions';
import type { AppContext } from '../../context';
import { videos } from '../../db/schema';
import { conflict, forbidden, notFound, unauthorized, unavailable } from '../../errors';
import type { Auth } from '../../plugins/auth';
import { closedMessage, openingState } from '../../plugins/opening-hours';
import { decideWatch } from '../../videos/access';
import { PLAYLIST, SEGMENT_PATTERN } from '../packaging/hls';
import { UUID_PATTERN, type MediaPaths } from '../storage';
import type { AccessCache } from './access-cache';
import type { PlaylistStore } from './playlists';
import { sendFile } from './send-file';
import type { PlaybackTokens } from './tokens';

export interface DeliveryDeps {
  ctx: AppContext;
  auth: Auth;
  paths: MediaPaths;
  tokens: PlaybackTokens;
  access: AccessCache;
  playlists: PlaylistStore;
  keys: Map<string, Buffer>;
}

/** nginx's internal location for offloaded segments (docs/nginx-offload.md). */
export const OFFLOAD_PREFIX = '/_lectern_media';

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
const PRIVATE_PLAYLIST = 'private, no-cache';
/** Segments are encrypted: useless without the key, so any cache may keep them for good. */
export const SEGMENT_CACHE = 'public, max-age=31536000, immutable';
const RENDITION = /^v\d{2,4}$/;

type VideoParams = { Params: { id: string }; Querystring: { t?: string } };

/** Master playlist, child playlists, segments, key and poster under /stream/videos/:id. */
export function deliveryRoutes(app: FastifyInstance, deps: DeliveryDeps): void {
  const { ctx, auth, paths, tokens, access, playlists } = deps;
  const offload = ctx.config.segmentOffload === 'nginx';

  /** A full session (401 without one), and for students the opening hours (503 outside them). */
  async function viewerOf(request: FastifyRequest): Promise<SessionUser> {
    const session = await auth.authOf(request);
    if (!session) throw unauthorized();
    if (session.scope !== 'full') throw forbidden(serverMessages.sessionLimitedToReset);
    return session.user;
  }

  async function requireWatch(user: SessionUser, videoId: string): Promise<void> {
    if (!UUID_PATTERN.test(videoId)) throw notFound(mediaMessages.videoNotFound);
    const decision = await decideWatch(ctx.db, user, videoId, ctx.clock.now());
    if (decision === 'not-found') throw notFound(mediaMessages.videoNotFound);
    if (decision === 'no-course-access') throw forbidden(mediaMessages.noCourseAccess);
    if (decision === 'no-video-access') throw forbidden(mediaMessages.noVideoAccess);
  }

  app.get<VideoParams>('/videos/:id/master.m3u8', async (request, reply) => {
    const user = await viewerOf(request);
    const videoId = request.params.id;
    let validUntil: number | undefined;
    if (user.role === 'student') {
      const state = openingState(ctx.clock.now(), ctx.config.openHours, ctx.config.openTimeZone);
      if (!state.open) {
        throw unavailable(closedMessage(state, ctx.config.productName), {
          opensAt: state.opensAt?.toISOString() ?? null,
        });
      }
      validUntil = state.closesAt?.getTime();
    }
    await requireWatch(user, videoId);
    const [video] = await ctx.db
      .select({ status: videos.status, renditions: videos.renditions })
      .from(videos)
      .where(eq(videos.id, videoId))
      .limit(1);
    if (!video) throw notFound(mediaMessages.videoNotFound);
    if (video.status === 'processing') throw conflict(mediaMessages.stillProcessing);
    if (video.status !== 'ready' || !video.renditions.length) throw conflict(mediaMessages.processingFailed);
    access.remember(videoId, user.id, { allowed: true, validUntil });
    const token = tokens.sign(videoId, { userId: user.id, role: user.role }, ctx.clock.now().getTime());
    const body = await playlists.master(videoId, video.renditions, token);
    return reply.type(PLAYLIST_TYPE).header('cache-control', PRIVATE_PLAYLIST).send(body);
  });

  // The hot path: a token check and a cache lookup, no database, then the file.
  app.get<{ Params: { id: string; rendition: string; file: string }; Querystring: { t?: string } }>(
    '/videos/:id/:rendition/:file',
    async (request, reply) => {
      const { id, rendition, file } = request.params;
      const isPlaylist = file === PLAYLIST;
      if (
        !RENDITION.test(rendition) ||
        !(isPlaylist || SEGMENT_PATTERN.test(file)) ||
        !UUID_PATTERN.test(id)
      ) {
        throw notFound(mediaMessages.videoNotFound);
      }
      const token = request.query.t;
      const grant = tokens.verify(id, token, ctx.clock.now().getTime());
      if (!grant) throw forbidden(mediaMessages.badToken);
      if (!(await access.check(id, grant))) throw forbidden(mediaMessages.noVideoAccess);
      if (isPlaylist) {
        const text = await playlists.child(id, rendition, token!);
        if (text === undefined) throw notFound(mediaMessages.videoNotFound);
        return reply.type(PLAYLIST_TYPE).header('cache-control', PRIVATE_PLAYLIST).send(text);
      }
      if (offload) {
        return reply
          .header('x-accel-redirect', `${OFFLOAD_PREFIX}/${id}/${rendition}/${file}`)
          .header('cache-control', SEGMENT_CACHE)
          .send();
      }
      return sendFile(request, reply, path.join(paths.videos, id, rendition, file), {
        contentType: 'video/mp2t',
        cacheControl: SEGMENT_CACHE,
      });
    },
  );

  // The key needs the token and the session of the same user: a copied playlist is not enough.
  app.get<VideoParams>('/videos/:id/key', async (request, reply) => {
    const videoId = request.params.id;
    const grant = tokens.verify(videoId, request.query.t, ctx.clock.now().getTime());
    if (!grant) throw forbidden(mediaMessages.badToken);
    const session = await auth.authOf(request);
    if (!session) throw unauthorized();
    if (session.user.id !== grant.userId) throw forbidden(mediaMessages.sessionMismatch);
    if (!(await access.check(videoId, grant))) throw forbidden(mediaMessages.noVideoAccess);
    let key = deps.keys.get(videoId);
    if (!key) {
      const [row] = await ctx.db
        .select({ hlsKey: videos.hlsKey })
        .from(videos)
        .where(eq(videos.id, videoId))
        .limit(1);
      if (!row?.hlsKey) throw notFound(mediaMessages.videoNotFound);
      key = Buffer.from(row.hlsKey, 'hex');
      if (deps.keys.size > 10_000) deps.keys.clear();
      deps.keys.set(videoId, key);
    }
    return reply.type('application/octet-stream').header('cache-control', 'private, no-store').send(key);
  });

  app.get<VideoParams>('/videos/:id/poster.jpg', async (request, reply) => {
    const user = await viewerOf(request);
    await requireWatch(user, request.params.id);
    return sendFile(request, reply, path.join(paths.video(request.params.id), 'poster.jpg'), {
      contentType: 'image/jpeg',
      cacheControl: 'private, max-age=3600',
    });
  });
}
